package pipecli

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/pipeline"
)

func (a *app) maintainCommand() *cobra.Command {
	var done, dead string
	c := &cobra.Command{
		Use:   "maintain",
		Short: "Drop finished runs past their retention and roll up counters, once",
		Long: "maintain runs one housekeeping pass by hand: it makes the partitions of finished runs\n" +
			"the next days need, drops (whole) those whose runs are all past retention — done and\n" +
			"cancelled runs by the day after --done-retention, dead and failed runs by the week after\n" +
			"--dead-retention, their journals with them — rolls the counters into their coarser\n" +
			"buckets, and drops expired worker rows and old published events. A partition is detached\n" +
			"concurrently: no claim, enqueue or settle waits on it. It is safe to run at any time, anywhere.",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			var r pipeline.Retention
			var err error
			if r.Done, err = retentionFlag(c, "done-retention", done); err != nil {
				return err
			}
			if r.Dead, err = retentionFlag(c, "dead-retention", dead); err != nil {
				return err
			}
			pool, err := a.connect(c.Context(), migrated)
			if err != nil {
				return err
			}
			defer pool.Close()
			res, err := pipeline.Maintain(c.Context(), pool, r)
			if err != nil {
				return err
			}
			about := ""
			if res.PurgedEstimated {
				about = "~" // a big partition's runs are its statistics' count
			}
			return a.emit(res, fmt.Sprintf("purged %s%d finished run(s) in %d partition(s); rolled up %d counter bucket(s); dropped %d published event(s) and %d expired worker(s)",
				about, res.Purged, res.PartitionsDropped, res.RolledUp, res.Published, res.OldWorkers))
		},
	}
	fl := c.Flags()
	// Unset, the retention is pipeline.Maintain's default.
	fl.StringVar(&done, "done-retention", "", "how long done and cancelled runs are kept, such as 14d or 36h (default 14d)")
	fl.StringVar(&dead, "dead-retention", "", "how long dead and failed runs are kept (default 90d)")
	return c
}

// retentionFlag parses a retention: a duration of at least a second, or
// zero (Maintain's default) when the flag is unset.
func retentionFlag(c *cobra.Command, flag, v string) (d time.Duration, err error) {
	if !c.Flags().Changed(flag) {
		return 0, nil
	}
	if d, err = durationFlag(c, flag, v); err == nil && d < time.Second {
		err = usageError(c, "--%s must be at least 1s", flag)
	}
	return d, err
}
