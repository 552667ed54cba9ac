package pipecli

import (
	"encoding/json"

	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/pipeline"
)

// resolveFlags are resolve-step's flags.
type resolveFlags struct {
	ran, notRan bool
	output      string
}

func (a *app) jobsResolveStepCommand() *cobra.Command {
	var f resolveFlags
	c := &cobra.Command{
		Use:   "resolve-step ID STEP (--ran --output JSON | --not-ran)",
		Short: "Settle a once-step whose outcome is unknown",
		Long: "A once-step (pipeline.Once) that started and never recorded an outcome stops its run with\n" +
			"X_STEP_OUTCOME_UNKNOWN. Find out whether its effect happened, then say so: --ran with the\n" +
			"output it produced (as JSON), or --not-ran to run it again. Then `pipe jobs retry ID`.",
		Args: exactArgs("ID", "STEP"),
		RunE: func(c *cobra.Command, args []string) error {
			output, err := f.validate(c)
			if err != nil {
				return err
			}
			return a.withAdmin(c.Context(), func(adm *pipeline.Admin) error {
				if err := adm.ResolveStep(c.Context(), args[0], args[1], f.ran, output); err != nil {
					return err
				}
				action, verdict := "resolved-not-ran", "did not run"
				if f.ran {
					action, verdict = "resolved-ran", "ran"
				}
				return a.report(actionResult{ID: args[0], Action: action, Step: args[1]},
					"recorded that step "+args[1]+" of "+args[0]+" "+verdict,
					"continue the run with `pipe jobs retry "+args[0]+"`")
			})
		},
	}
	fl := c.Flags()
	fl.BoolVar(&f.ran, "ran", false, "the step's effect happened; give its output with --output")
	fl.BoolVar(&f.notRan, "not-ran", false, "the step's effect did not happen: it runs on the next attempt")
	fl.StringVar(&f.output, "output", "", "with --ran, the step's output as JSON (e.g. '{\"id\":42}' or 'null')")
	return c
}

// validate checks the flags before anything connects: exactly one of --ran
// and --not-ran, and --output (valid JSON) with --ran only.
func (f resolveFlags) validate(c *cobra.Command) (json.RawMessage, error) {
	switch {
	case f.ran == f.notRan:
		return nil, usageError(c, "pass exactly one of --ran and --not-ran")
	case f.notRan && c.Flags().Changed("output"):
		return nil, usageError(c, "--output goes with --ran, not --not-ran")
	case f.ran && !c.Flags().Changed("output"):
		return nil, usageError(c, "--ran needs --output with the step's output as JSON")
	case f.ran && !json.Valid([]byte(f.output)):
		return nil, usageError(c, "--output is not valid JSON")
	}
	if f.ran {
		return json.RawMessage(f.output), nil
	}
	return nil, nil
}
