package pipecli

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/pipeline"
)

func (a *app) workersCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "workers",
		Short: "List the running workers: host, queues, runs in flight, last heartbeat",
		Long: "workers lists every worker whose heartbeat is within its lease; a worker that was\n" +
			"killed drops off once its lease expires. --json adds the ids of the runs in flight.",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return a.withAdmin(c.Context(), func(adm *pipeline.Admin) error {
				ws, err := adm.Workers(c.Context())
				if err != nil {
					return err
				}
				if a.json {
					if ws == nil {
						ws = []pipeline.WorkerInfo{}
					}
					return printJSON(a.stdout, ws)
				}
				return a.renderWorkers(ws)
			})
		},
	}
}

func (a *app) renderWorkers(ws []pipeline.WorkerInfo) error {
	if len(ws) == 0 {
		_, err := fmt.Fprintln(a.stdout, "no workers")
		return err
	}
	t := newTable(a.stdout, "ID", "HOST", "QUEUES", "IN FLIGHT", "MAX IN FLIGHT", "STARTED", "LAST HEARTBEAT")
	for _, w := range ws {
		maxInFlight := "-"
		if w.MaxInFlight > 0 {
			maxInFlight = strconv.Itoa(w.MaxInFlight)
		}
		t.row(w.ID, orDash(w.Host), slots(w.Queues), strconv.Itoa(len(w.InFlight)), maxInFlight, stamp(w.StartedAt),
			stamp(w.LastHeartbeat))
	}
	return t.flush()
}

// slots renders a worker's queues as q=N,..., sorted.
func slots(queues map[string]int) string {
	parts := make([]string, 0, len(queues))
	for _, q := range slices.Sorted(maps.Keys(queues)) {
		parts = append(parts, q+"="+strconv.Itoa(queues[q]))
	}
	return orDash(strings.Join(parts, ","))
}
