package pipecli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/project"
	"github.com/pipekit/pipe/views"
)

func (a *app) viewsCommand() *cobra.Command {
	return group("views", "Refresh materialized views", a.viewsRefreshCommand())
}

func (a *app) viewsRefreshCommand() *cobra.Command {
	var concurrently, wait bool
	var config string
	c := &cobra.Command{
		Use:   "refresh VIEW|NAME [--concurrently] [--config pipe.json] [--wait]",
		Short: "Enqueue one refresh of a materialized view now",
		Long: "views refresh enqueues a run of pipe.views.refresh for VIEW (view or schema.view as SQL names\n" +
			"it: bare names fold to lower case, '\"Sales\".\"Totals By Day\"' keeps its capitals), which every\n" +
			"`pipe worker` runs: REFRESH MATERIALIZED VIEW in one step. --concurrently keeps readers on the\n" +
			"old rows while it runs and needs a unique index on the view. A table, a plain view, or\n" +
			"--concurrently without a unique index is X_JOB_REFRESH_VIEW_INVALID. With --config pipe.json,\n" +
			"NAME may be the name of a view refresh the file declares (\"views\": [{\"name\": ...}]): that\n" +
			"declaration runs as declared (its view, concurrently or not, its queue), checked against the\n" +
			"catalog first, and a fault exits 1 with nothing enqueued. Without --wait it prints the run's\n" +
			"id; with --wait it runs the refresh in this process.",
		Args: exactArgs("VIEW"),
		RunE: func(c *cobra.Command, args []string) error {
			p, err := a.useProject(config)
			if err != nil {
				return err
			}
			if d, ok := declaredRefresh(p, args[0]); ok {
				if concurrently {
					return usageError(c, "--concurrently goes with a view, not with %s, which pipe.json declares", args[0])
				}
				if err := a.checkDeclared(c.Context(), p, d.Refresh); err != nil {
					return err
				}
				return enqueueOrWait(a, c, d.Refresh, views.Request{}, wait, refreshedLine)
			}
			view, err := relationArg(errcode.JobRefreshViewInvalid, "views refresh", "VIEW", args[0])
			if err != nil {
				return err
			}
			in := views.Target{View: view, Concurrently: concurrently}
			return enqueueOrWait(a, c, views.RefreshJob(), in, wait, refreshedLine)
		},
	}
	c.Flags().BoolVar(&concurrently, "concurrently", false, "REFRESH ... CONCURRENTLY: readers keep the old rows (needs a unique index)")
	c.Flags().BoolVar(&wait, "wait", false, "run the refresh in this process and wait for it")
	configFlag(c, &config)
	return c
}

// refreshedLine is what a refresh prints with --wait.
func refreshedLine(id string, r views.Result) string {
	how := "plainly"
	if r.Concurrently {
		how = "concurrently"
	}
	return fmt.Sprintf("refreshed %s %s; run %s", r.View, how, id)
}

// declaredRefresh answers the view refresh the project file (when one was
// named) declares under name.
func declaredRefresh(p *project.Project, name string) (project.Declaration, bool) {
	if p == nil {
		return project.Declaration{}, false
	}
	d, ok := p.Lookup(name)
	return d, ok && d.Refresh != nil
}
