package pipecli

import (
	"fmt"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/pipeline"
)

func (a *app) jobsManifestCommand() *cobra.Command {
	var config string
	c := &cobra.Command{
		Use:   "manifest",
		Short: "List every job this pipe runs, as each declares itself",
		Long: "manifest prints one row per job this pipe was built with — pipe's own jobs, the\n" +
			"application's (pipecli.Options.Jobs) and, with --config, the project file's — each its\n" +
			"own Describe(): queue, retry policy, concurrency cap and what it does when busy, timeouts,\n" +
			"the event poll and the input's JSON Schema (with --json). It reads no database.",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			rows, err := a.manifests(config)
			if err != nil {
				return err
			}
			if a.json {
				return printJSON(a.stdout, rows)
			}
			return a.renderManifest(rows)
		},
	}
	configFlag(c, &config)
	return c
}

func (a *app) renderManifest(rows []pipeline.Manifest) error {
	t := newTable(a.stdout, "NAME", "QUEUE", "ATTEMPTS", "BACKOFF", "CONCURRENCY", "TIMEOUT", "EVENT POLL")
	for _, m := range rows {
		t.row(m.Name, m.Queue, strconv.Itoa(m.Retry.Attempts), string(m.Retry.Backoff),
			concurrencyCell(m.Concurrency), msCell(m.TimeoutMs), msCell(m.EventPollMs))
	}
	return t.flush()
}

// concurrencyCell renders a cap as "4", "4 per key, wait", or "-".
func concurrencyCell(c *pipeline.ConcurrencyManifest) string {
	switch {
	case c == nil:
		return "-"
	case c.Keyed:
		return fmt.Sprintf("%d per key, %s", c.Limit, c.WhenBusy)
	default:
		return strconv.Itoa(c.Limit)
	}
}

// msCell renders milliseconds as a duration, or "-" for none.
func msCell(ms int64) string {
	if ms == 0 {
		return "-"
	}
	return (time.Duration(ms) * time.Millisecond).String()
}
