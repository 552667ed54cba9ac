package pipecli

import (
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/subject"
)

func (a *app) subjectCommand() *cobra.Command {
	return group("subject", "Plan, erase, export or prove one person's data across every table that holds it",
		a.subjectPlanCommand(), a.subjectEraseCommand(), a.subjectExportCommand(), a.subjectProofCommand())
}

// subjectFlags are the flags every subject command shares.
type subjectFlags struct {
	config   string
	ids      []string
	pageRows int
}

func (f *subjectFlags) addConfig(c *cobra.Command) {
	c.Flags().StringVar(&f.config, "config", "", "the declaration: a JSON file as subject.schema.json describes (required)")
	_ = c.MarkFlagRequired("config")
}

func (f *subjectFlags) addPerson(c *cobra.Command) {
	c.Flags().StringSliceVar(&f.ids, "id", nil, "the person's key: one value per root key column, in key order (repeat or comma-separate; required)")
	c.Flags().IntVar(&f.pageRows, "page-rows", 0, "rows per step (default 1000)")
	_ = c.MarkFlagRequired("id")
}

// declaration reads the --config file.
func (f *subjectFlags) declaration() (subject.Declaration, error) {
	return subject.Load(f.config)
}

// withSubject reads the declaration, connects (the schema checked as need
// says) and runs fn with both.
func (a *app) withSubject(c *cobra.Command, f *subjectFlags, need schemaNeed, fn func(d subject.Declaration, pool *pgxpool.Pool) error) error {
	d, err := f.declaration()
	if err != nil {
		return err
	}
	pool, err := a.connect(c.Context(), need)
	if err != nil {
		return err
	}
	defer pool.Close()
	return fn(d, pool)
}

// request reads the declaration and answers the stock jobs' input, the
// declaration planned on the database first so that a refusal exits here,
// before anything is enqueued.
func (a *app) subjectRequest(c *cobra.Command, f *subjectFlags) (subject.Request, error) {
	if f.pageRows < 0 || f.pageRows > subject.MaxPageRows {
		return subject.Request{}, usageError(c, "--page-rows is not from 0 (the default) to %d", subject.MaxPageRows)
	}
	var req subject.Request
	err := a.withSubject(c, f, migrated, func(d subject.Declaration, pool *pgxpool.Pool) error {
		p, err := subject.NewPlan(c.Context(), pool, d)
		if err != nil {
			return err
		}
		if len(f.ids) != len(p.Key) {
			return usageError(c, "--id gives %d values for the key (%d columns) of %s", len(f.ids), len(p.Key), p.Root)
		}
		req = subject.Request{Subject: d, Key: f.ids, PageRows: f.pageRows}
		return nil
	})
	return req, err
}
