package pipecli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/pipeline"
)

func (a *app) jobsCommand() *cobra.Command {
	return group("jobs", "Inspect and steer jobs",
		a.jobsListCommand(),
		a.jobsShowCommand(),
		a.jobsRetryCommand(),
		a.jobsCancelCommand(),
		a.jobsPromoteCommand(),
		a.jobsRemoveCommand(),
		a.jobsResolveStepCommand(),
		a.jobsManifestCommand(),
	)
}

// withAdmin runs fn with the operator API over the command's database.
func (a *app) withAdmin(ctx context.Context, fn func(*pipeline.Admin) error) error {
	pool, err := a.connect(ctx, migrated)
	if err != nil {
		return err
	}
	defer pool.Close()
	return fn(pipeline.NewAdmin(pool))
}

// actionResult is what a state-changing jobs command prints with --json.
type actionResult struct {
	ID     string `json:"id"`
	Action string `json:"action"`
	Step   string `json:"step,omitempty"`
}

// report prints what a jobs command did: res with --json, else the text
// lines.
func (a *app) report(res actionResult, text ...string) error {
	if a.json {
		return printJSON(a.stdout, res)
	}
	for _, line := range text {
		if _, err := fmt.Fprintln(a.stdout, line); err != nil {
			return err
		}
	}
	return nil
}
