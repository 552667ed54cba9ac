package pipecli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/views"
)

func (a *app) viewsCommand() *cobra.Command {
	return group("views", "Refresh materialized views", a.viewsRefreshCommand())
}

func (a *app) viewsRefreshCommand() *cobra.Command {
	var concurrently, wait bool
	c := &cobra.Command{
		Use:   "refresh VIEW [--concurrently] [--wait]",
		Short: "Enqueue one refresh of a materialized view now",
		Long: "views refresh enqueues a run of pipe.views.refresh for VIEW (view or schema.view as SQL names\n" +
			"it: bare names fold to lower case, '\"Sales\".\"Totals By Day\"' keeps its capitals), which every\n" +
			"`pipe worker` runs: REFRESH MATERIALIZED VIEW in one step. --concurrently keeps readers on the\n" +
			"old rows while it runs and needs a unique index on the view. A table, a plain view, or\n" +
			"--concurrently without a unique index is X_JOB_REFRESH_VIEW_INVALID. Without --wait it prints\n" +
			"the run's id; with --wait it runs the refresh in this process.",
		Args: exactArgs("VIEW"),
		RunE: func(c *cobra.Command, args []string) error {
			view, err := relationArg(errcode.JobRefreshViewInvalid, "views refresh", "VIEW", args[0])
			if err != nil {
				return err
			}
			in := views.Target{View: view, Concurrently: concurrently}
			return enqueueOrWait(a, c, views.RefreshJob(), in, wait, func(id string, r views.Result) string {
				how := "plainly"
				if r.Concurrently {
					how = "concurrently"
				}
				return fmt.Sprintf("refreshed %s %s; run %s", r.View, how, id)
			})
		},
	}
	c.Flags().BoolVar(&concurrently, "concurrently", false, "REFRESH ... CONCURRENTLY: readers keep the old rows (needs a unique index)")
	c.Flags().BoolVar(&wait, "wait", false, "run the refresh in this process and wait for it")
	return c
}
