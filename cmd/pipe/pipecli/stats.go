package pipecli

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// statsResult is what `pipe stats --json` prints.
type statsResult struct {
	Since time.Time  `json:"since"`
	Jobs  []statsRow `json:"jobs"`
}

// statsRow is one job's counters summed over the window.
type statsRow struct {
	Job        string `json:"job"`
	Done       int64  `json:"done"`
	Retried    int64  `json:"retried"`
	Failed     int64  `json:"failed"`
	Dead       int64  `json:"dead"`
	DurationMs int64  `json:"durationMs"`
}

func (a *app) statsCommand() *cobra.Command {
	var since string
	c := &cobra.Command{
		Use:   "stats",
		Short: "Runs done, retried, failed and dead per job over a recent window",
		Long: "stats sums each job's counters since --since ago: runs done, attempts retried, runs failed\n" +
			"and dead-lettered, and the summed and mean duration of the runs done. Counters are kept\n" +
			"in 1-minute buckets for 24 h, 5-minute buckets for 7 d and hourly for 30 d.",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			window, err := durationFlag(c, "since", since)
			if err != nil {
				return err
			}
			return a.withAdmin(c.Context(), func(adm *pipeline.Admin) error {
				res := statsResult{Since: time.Now().Add(-window).UTC().Truncate(time.Second), Jobs: []statsRow{}}
				totals, err := adm.CounterTotals(c.Context(), res.Since)
				if err != nil {
					return err
				}
				for _, t := range totals {
					res.Jobs = append(res.Jobs, statsRow{Job: t.Job, Done: t.Done, Retried: t.Retried, Failed: t.Failed,
						Dead: t.Dead, DurationMs: t.DurationMs})
				}
				if a.json {
					return printJSON(a.stdout, res)
				}
				return a.renderStats(res, since)
			})
		},
	}
	c.Flags().StringVar(&since, "since", "24h", "the window, such as 90m, 24h or 7d")
	return c
}

// durationFlag parses a duration flag the way the specification writes
// durations (pipeline.ParseDuration); a bad value is a usage error.
func durationFlag(c *cobra.Command, flag, v string) (time.Duration, error) {
	d, err := pipeline.ParseDuration(v)
	if e, ok := errcode.As(err); ok {
		return 0, &usage{err: errcode.New(e.Code, "--%s: %s", flag, e.Message).WithFix(e.Fix)}
	}
	return d, err
}

func (a *app) renderStats(res statsResult, window string) error {
	if len(res.Jobs) == 0 {
		_, err := fmt.Fprintf(a.stdout, "no runs counted in the last %s\n", window)
		return err
	}
	fmt.Fprintf(a.stdout, "since %s (the last %s)\n", stamp(res.Since), window)
	t := newTable(a.stdout, "JOB", "DONE", "RETRIED", "FAILED", "DEAD", "MEAN DURATION")
	for _, j := range res.Jobs {
		mean := "-"
		if j.Done > 0 {
			mean = (time.Duration(j.DurationMs/j.Done) * time.Millisecond).String()
		}
		t.row(j.Job, count(j.Done), count(j.Retried), count(j.Failed), count(j.Dead), mean)
	}
	return t.flush()
}
