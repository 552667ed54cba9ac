package pipecli

import (
	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/project"
)

func (a *app) verifyCommand() *cobra.Command {
	var config string
	c := &cobra.Command{
		Use:   "verify [--config pipe.json]",
		Short: "Check every declaration against the live catalog",
		Long: "verify asks the database about every declared job that checks its catalog — each rollup's\n" +
			"target, unique index, source and columns, each refresh's materialized view and its unique\n" +
			"index — the same check `pipe worker` makes before it starts. With --config it checks the\n" +
			"project file's declarations (a file that does not load is its error), its outbox among them\n" +
			"(the relay's tables, and its broker, which must answer within 10 s); without, the jobs\n" +
			"this pipe was built with. It prints one line a declaration and exits non-zero naming each\n" +
			"fault.",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			p, err := a.useProject(config)
			if err != nil {
				return err
			}
			pool, err := a.connect(c.Context(), migrated)
			if err != nil {
				return err
			}
			defer pool.Close()
			found, err := a.findings(c, p, pool)
			if err != nil {
				return err
			}
			return a.printFindings(found)
		},
	}
	configFlag(c, &config)
	return c
}

// findings verifies the project's declarations, or without one every job
// this pipe was built with.
func (a *app) findings(c *cobra.Command, p *project.Project, db pipeline.DB) ([]project.Finding, error) {
	if p != nil {
		return p.Verify(c.Context(), db)
	}
	reg, err := a.registry()
	if err != nil {
		return nil, err
	}
	decls := make([]project.Declaration, 0, len(reg.Names()))
	for _, name := range reg.Names() {
		j, _ := reg.Lookup(name)
		decls = append(decls, project.Declaration{Kind: "job", Name: name, Job: j})
	}
	return (&project.Project{Declarations: decls}).Verify(c.Context(), db)
}

// finding is one line of `pipe verify --json`.
type finding struct {
	Kind    string `json:"kind"`
	Name    string `json:"name"`
	OK      bool   `json:"ok"`
	Code    string `json:"code,omitempty"`
	Message string `json:"message,omitempty"`
	Fix     string `json:"fix,omitempty"`
}

// printFindings prints the findings and answers the first fault's code
// when there is one.
func (a *app) printFindings(found []project.Finding) error {
	out := make([]finding, len(found))
	var faults int
	var first *errcode.Error
	for i, f := range found {
		out[i] = finding{Kind: f.Kind, Name: f.Name, OK: f.Err == nil}
		if f.Err == nil {
			a.say("ok    %s %s\n", f.Kind, f.Name)
			continue
		}
		faults++
		e, _ := errcode.As(f.Err)
		if first == nil {
			first = e
		}
		out[i].Code, out[i].Message, out[i].Fix = string(e.Code), e.Message, e.Fix
		a.say("FAIL  %s %s: %s: %s\n      fix: %s\n", f.Kind, f.Name, e.Code, e.Message, e.Fix)
	}
	if a.json {
		if err := printJSON(a.stdout, out); err != nil {
			return err
		}
	} else {
		a.say("%d declaration(s) checked, %d fault(s)\n", len(found), faults)
	}
	if first == nil {
		return nil
	}
	return errcode.New(first.Code, "%d of %d declaration(s) fail against the catalog; the first: %s", faults, len(found), first.Message).
		WithFix(first.Fix)
}
