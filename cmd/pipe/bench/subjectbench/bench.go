// Package subjectbench is `pipe bench subject`: a 20-table schema holding
// about 1,000,000 rows, every foreign key indexed, and the erase and
// export of one member owning 1,000 of them, timed by the statements the
// jobs run and checked by the server's plans.
package subjectbench

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/exportrows"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/subject"
)

// Options configure [Run]. Each field's comment gives its default.
type Options struct {
	// Members is how many members the schema holds, each owning 1,060
	// rows. Default 944: 1,000,640 rows.
	Members int
	// PageRows is the jobs' page size. Default subject's 1,000.
	PageRows int
	// Keep leaves the schema in place after (for a look at it).
	Keep bool
}

// Results are the figures of one Run.
type Results struct {
	Rows        int64   `json:"rows"`
	Tables      int     `json:"tables"`
	LoadSeconds float64 `json:"loadSeconds"`
	// Statements and SeqScans count the statements the plans were asked
	// for and their sequential scans of tables holding over LargeTable
	// rows (the target is none).
	Statements int      `json:"statements"`
	SeqScans   []string `json:"seqScans"`
	Export     Job      `json:"export"`
	Erase      Job      `json:"erase"`
}

// Job is one run's figures.
type Job struct {
	// Rows are the person's rows the run wrote or read.
	Rows int64 `json:"rows"`
	// StatementMs sums the time of the run's statements (the spans
	// pipe.subject *: each statement's round trip to the server, measured
	// by the client); StepMs sums the step transactions they run in (the
	// spans pipe.step *, begin to commit with the checkpoint); RunMs is
	// from the enqueue to the settle; PlanMs the plan step's share.
	StatementMs float64 `json:"statementMs"`
	StepMs      float64 `json:"stepMs"`
	PlanMs      float64 `json:"planMs"`
	RunMs       float64 `json:"runMs"`
	Steps       int     `json:"steps"`
	// Pages is, for the export, the pages read per table at most: 1 is one
	// pass per table; Tables the tables it read.
	Pages  int `json:"pages,omitempty"`
	Tables int `json:"tables,omitempty"`
}

// LargeTable is the row count over which a sequential scan is a failure.
const LargeTable = 10_000

// Run loads the schema, asks the server to plan every statement of the
// erase, exports one member, erases them, and prints one line per figure.
func Run(ctx context.Context, pool *pgxpool.Pool, o Options, out io.Writer) (Results, error) {
	if o.Members <= 0 {
		o.Members = 944
	}
	if o.PageRows <= 0 {
		o.PageRows = subject.DefaultPageRows
	}
	var res Results
	if !o.Keep {
		defer pool.Exec(context.Background(), "drop schema if exists "+Schema+" cascade")
	}
	if err := load(ctx, pool, o.Members, &res); err != nil {
		return res, err
	}
	fmt.Fprintf(out, "load: %d rows in %d tables in %.1f s\n", res.Rows, res.Tables, res.LoadSeconds)
	person := int64(o.Members/2 + 1)
	if err := explain(ctx, pool, person, &res); err != nil {
		return res, err
	}
	fmt.Fprintf(out, "plans: %d statements, %d sequential scans of a table over %d rows%s\n",
		res.Statements, len(res.SeqScans), LargeTable, listed(res.SeqScans))
	var err error
	if res.Export, err = runExport(ctx, pool, person, o.PageRows); err != nil {
		return res, err
	}
	fmt.Fprintf(out, "export: %d rows of %d tables in %.1f ms of statement time (%.1f ms in step transactions, %.0f ms run), at most %d pages per table\n",
		res.Export.Rows, res.Export.Tables, res.Export.StatementMs, res.Export.StepMs, res.Export.RunMs, res.Export.Pages)
	if res.Erase, err = runErase(ctx, pool, person, o.PageRows); err != nil {
		return res, err
	}
	fmt.Fprintf(out, "erase: %d rows in %.1f ms of statement time (%.1f ms in %d step transactions, plan %.1f ms, %.0f ms run)\n",
		res.Erase.Rows, res.Erase.StatementMs, res.Erase.StepMs, res.Erase.Steps, res.Erase.PlanMs, res.Erase.RunMs)
	return res, nil
}

func listed(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return ": " + strings.Join(names, ", ")
}

// load creates and fills the schema in one transaction, then analyzes it.
func load(ctx context.Context, pool *pgxpool.Pool, members int, res *Results) error {
	start := time.Now()
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(context.Background())
	if _, err := tx.Exec(ctx, ddl()); err != nil {
		return fmt.Errorf("create the schema: %w", err)
	}
	for _, stmt := range strings.Split(strings.TrimSpace(rowsDML), ";\n") {
		var args []any
		if strings.Contains(stmt, "$1") {
			args = append(args, members)
		}
		if _, err := tx.Exec(ctx, strings.TrimSuffix(stmt, ";"), args...); err != nil {
			return fmt.Errorf("fill the schema: %w", err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return err
	}
	if _, err := pool.Exec(ctx, "analyze "+strings.Join(qualified(tables), ", ")); err != nil {
		return err
	}
	res.LoadSeconds, res.Tables = time.Since(start).Seconds(), len(tables)
	return pool.QueryRow(ctx, `select sum(n_live_tup)::int8 from pg_stat_user_tables where schemaname = $1`, Schema).Scan(&res.Rows)
}

func qualified(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = Schema + "." + n
	}
	return out
}

// explain asks the server to plan every statement and lists the
// sequential scans of large tables.
func explain(ctx context.Context, pool *pgxpool.Pool, person int64, res *Results) error {
	p, err := subject.NewPlan(ctx, pool, Declaration())
	if err != nil {
		return err
	}
	plans, err := p.Explain(ctx, pool, subject.Key{person})
	if err != nil {
		return err
	}
	large := map[string]bool{}
	rows, _ := pool.Query(ctx, `select relname::text from pg_class c join pg_namespace n on n.oid = c.relnamespace
		where n.nspname = $1 and c.relkind = 'r' and c.reltuples > $2`, Schema, LargeTable)
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return err
		}
		large[n] = true
	}
	if err := rows.Err(); err != nil {
		return err
	}
	res.Statements, res.SeqScans = len(plans), []string{}
	for _, e := range plans {
		for _, s := range e.SeqScans() {
			if large[s] && !slices.Contains(res.SeqScans, e.Step+" "+e.Table+": "+s) {
				res.SeqScans = append(res.SeqScans, e.Step+" "+e.Table+": "+s)
			}
		}
	}
	return nil
}

type person struct {
	ID int64 `json:"id"`
}

func runErase(ctx context.Context, pool *pgxpool.Pool, id int64, pageRows int) (Job, error) {
	job, err := subject.NewErase(subject.EraseOptions[person]{Name: "pipe.bench.subject.erase", Subject: Declaration(),
		Person: func(p person) subject.Key { return subject.Key{p.ID} }, PageRows: pageRows,
		Key: func(p person) string { return fmt.Sprintf("%d %d", p.ID, time.Now().UnixNano()) },
		Job: pipeline.JobOptions[person, subject.EraseResult]{Queue: "pipe.bench.subject"}})
	if err != nil {
		return Job{}, err
	}
	f, d, err := traced(ctx, pool, job, person{ID: id})
	if err != nil {
		return f, err
	}
	res, err := decode[subject.EraseResult](d)
	for _, t := range res.Tables {
		f.Rows += t.Rows
	}
	if err == nil && f.Rows != PerMember {
		err = fmt.Errorf("the erase treated %d rows; the member owns %d", f.Rows, PerMember)
	}
	return f, err
}

func runExport(ctx context.Context, pool *pgxpool.Pool, id int64, pageRows int) (Job, error) {
	dir, err := os.MkdirTemp("", "pipe-bench-subject-")
	if err != nil {
		return Job{}, err
	}
	defer os.RemoveAll(dir)
	job, err := subject.NewExport(subject.ExportOptions[person]{Name: "pipe.bench.subject.export", Subject: Declaration(),
		Person: func(p person) subject.Key { return subject.Key{p.ID} }, PageRows: pageRows,
		Key:  func(p person) string { return fmt.Sprintf("%d %d", p.ID, time.Now().UnixNano()) },
		Sink: func(person) exportrows.Sink { return exportrows.Sink{Bucket: "file://" + dir} },
		Job:  pipeline.JobOptions[person, subject.ExportResult]{Queue: "pipe.bench.subject"}})
	if err != nil {
		return Job{}, err
	}
	f, d, err := traced(ctx, pool, job, person{ID: id})
	if err != nil {
		return f, err
	}
	res, err := decode[subject.ExportResult](d)
	for _, t := range res.Tables {
		f.Rows += t.Rows
	}
	f.Tables = len(res.Tables)
	for _, s := range d.Steps {
		if strings.HasPrefix(s.Name, "export/") && !strings.HasSuffix(s.Name, "/page-00000") {
			page := 0
			fmt.Sscanf(s.Name[strings.LastIndex(s.Name, "-")+1:], "%d", &page)
			f.Pages = max(f.Pages, page+1)
		}
	}
	f.Pages = max(f.Pages, 1)
	if err == nil && f.Rows != PerMember {
		err = fmt.Errorf("the export wrote %d rows; the member owns %d", f.Rows, PerMember)
	}
	return f, err
}
