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
	c.Flags().StringArrayVar(&f.ids, "id", nil, "the person's key: one value, taken whole (commas included); for a key of several columns repeat --id, one per column in key order (required)")
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

// subjectRequest reads the declaration and answers the stock jobs' input,
// checked as a run's first step checks it — the declaration planned on the
// database, the person's key cast to the root key's types — so that a
// refusal exits here with its code and nothing is enqueued.
func (a *app) subjectRequest(c *cobra.Command, f *subjectFlags, check func(subject.Request) (subject.Request, error)) (subject.Request, error) {
	if f.pageRows < 0 || f.pageRows > subject.MaxPageRows {
		return subject.Request{}, usageError(c, "--page-rows is not from 0 (the default) to %d", subject.MaxPageRows)
	}
	var req subject.Request
	err := a.withSubject(c, f, migrated, func(d subject.Declaration, pool *pgxpool.Pool) error {
		var err error
		if req, err = check(subject.Request{Subject: d, Key: f.ids, PageRows: f.pageRows}); err != nil {
			return err
		}
		_, err = req.Plan(c.Context(), pool)
		return err
	})
	return req, err
}
