package pipecli

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/exportrows"
	"github.com/pipekit/pipe/importrows"
	"github.com/pipekit/pipe/pipeline"
)

// Demo timings: a short poll so that the retry is picked up at once, and a
// ceiling on the whole run.
const (
	demoPoll     = 25 * time.Millisecond
	demoIdleMax  = 100 * time.Millisecond
	demoDeadline = 30 * time.Second
	demoDrain    = 5 * time.Second
)

func (a *app) demoCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "demo",
		Short: "Import a CSV, export it to Parquet, roll it up per day, then run a job that fails once and recovers",
		Long: "demo first imports a generated CSV of 20,000 orders (two rows refused on purpose) into the\n" +
			"table demo_orders with pipe.import, exports the table to Parquet with pipe.export and reads\n" +
			"the export's manifest back, keeps a daily rollup of the orders (a backfill, then a late order\n" +
			"that moves its day) and refreshes a materialized view of them concurrently, delivers one signed\n" +
			"webhook to a receiver it serves on loopback (queued durably before its 200, then handled), then\n" +
			"enqueues one run of demo.onboard (steps provision, send-welcome, record), runs a\n" +
			"worker in this process until the run settles, and prints the run. send-welcome fails on\n" +
			"the first attempt on purpose: the retry replays provision from the journal (it runs\n" +
			"once) and runs send-welcome again (it runs twice). With no --database-url it uses the\n" +
			"private PostgreSQL, and prints where it lives (the cluster's data directory). Its files (the\n" +
			"CSV, the error report, the export) go in a temporary directory it removes when it ends.",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			pool, err := a.connect(c.Context(), migrated)
			if err != nil {
				return err
			}
			defer pool.Close()
			where := a.demoDatabase(pool)
			a.say("the demo's database: %s\n\n", where)
			dir, err := os.MkdirTemp("", "pipe-demo-")
			if err != nil {
				return err
			}
			defer os.RemoveAll(dir) // the CSV, its error report and the export go with it
			imp, err := a.demoImport(c.Context(), pool, dir)
			if err != nil {
				return err
			}
			if !a.json {
				a.narrateImport(imp, dir)
			}
			man, err := a.demoExport(c.Context(), pool, dir)
			if err != nil {
				return err
			}
			if !a.json {
				a.narrateExport(man, dir)
			}
			roll, err := a.demoRollup(c.Context(), pool)
			if err != nil {
				return err
			}
			if !a.json {
				a.narrateRollup(roll)
			}
			subj, err := a.demoSubject(c.Context(), pool)
			if err != nil {
				return err
			}
			hook, err := a.demoWebhook(c.Context(), pool)
			if err != nil {
				return err
			}
			if !a.json {
				a.narrateWebhook(hook)
			}
			d, err := a.runDemo(c.Context(), pool)
			if err != nil {
				return err
			}
			if a.json {
				err = printJSON(a.stdout, demoReport{Database: where, Import: imp, Export: man, Rollup: roll, Subject: subj, Webhook: hook, Onboard: d})
			} else {
				err = a.narrateDemo(d)
			}
			if err != nil {
				return err
			}
			if d.State != "done" {
				return errcode.New(errcode.Invariant, "the demo run ended %s, not done", d.State).
					WithFix("read the run's last error above, or `pipe jobs show " + d.ID + "`")
			}
			return nil
		},
	}
}

// demoReport is what demo prints with --json.
type demoReport struct {
	Database string               `json:"database"`
	Import   *importrows.Result   `json:"import"`
	Export   *exportrows.Manifest `json:"export"`
	Rollup   *demoRollupReport    `json:"rollup"`
	Subject  *demoSubjectReport   `json:"subject"`
	Webhook  *demoWebhookReport   `json:"webhook"`
	Onboard  *pipeline.RunDetail  `json:"onboard"`
}

// runDemo enqueues one demo run, works it to the end and answers it.
func (a *app) runDemo(ctx context.Context, pool *pgxpool.Pool) (*pipeline.RunDetail, error) {
	job := DemoJob()
	in := DemoInput{SignupID: uuid.NewString(), User: "ada"}
	res, err := job.Enqueue(ctx, pool, in)
	if err != nil {
		return nil, err
	}
	a.say("enqueued %s run %s; running a worker until it settles…\n", job.Name(), res.ID)
	reg, err := pipeline.NewRegistry(job)
	if err != nil {
		return nil, err
	}
	w, err := pipeline.NewWorker(pool, pipeline.WorkerConfig{
		Registry: reg, Queues: map[string]int{job.Queue(): 1},
		PollInterval: demoPoll, IdlePollMax: demoIdleMax, NoWake: true,
		Logger: slog.New(slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	})
	if err != nil {
		return nil, err
	}
	if err := w.Start(ctx); err != nil {
		return nil, err
	}
	d, waitErr := awaitSettled(ctx, pipeline.NewAdmin(pool), res.ID)
	drainCtx, cancel := context.WithTimeout(context.Background(), demoDrain)
	defer cancel()
	_ = w.Shutdown(drainCtx)
	return d, waitErr
}

// awaitSettled polls the run until it leaves the live states.
func awaitSettled(ctx context.Context, adm *pipeline.Admin, id string) (*pipeline.RunDetail, error) {
	ctx, cancel := context.WithTimeout(ctx, demoDeadline)
	defer cancel()
	tick := time.NewTicker(demoPoll)
	defer tick.Stop()
	for {
		d, err := adm.Show(ctx, id)
		if err != nil && ctx.Err() == nil && !errcode.Unavailable(err) {
			return nil, err
		}
		if err == nil && !d.State.Live() {
			return d, nil
		}
		select {
		case <-ctx.Done():
			return nil, errcode.Wrap(ctx.Err(), errcode.JobTimeout, "the demo run did not settle within %s", demoDeadline).
				WithFix("read the worker's log lines above, then `pipe jobs show " + id + "`")
		case <-tick.C:
		}
	}
}

// say prints a line of narration in text mode; --json output stays one
// document.
func (a *app) say(format string, args ...any) {
	if !a.json {
		fmt.Fprintf(a.stdout, format, args...)
	}
}

// narrateDemo prints the run and what it shows.
func (a *app) narrateDemo(d *pipeline.RunDetail) error {
	fmt.Fprintln(a.stdout)
	if err := renderRun(a.stdout, d); err != nil {
		return err
	}
	fmt.Fprintln(a.stdout)
	for _, s := range d.Steps {
		fmt.Fprintf(a.stdout, "%s ran its function %s\n", s.Name, times(s.Executions))
	}
	fmt.Fprintf(a.stdout, "\nThe failed attempt did not run provision again: completed steps replay from the journal.\n"+
		"The run ended %s. Look at it again with: pipe jobs show %s\n", d.State, d.ID)
	return nil
}

func times(n int) string {
	switch n {
	case 1:
		return "once"
	case 2:
		return "twice"
	}
	return fmt.Sprintf("%d times", n)
}

// demoDatabase says where the demo's database lives: the private
// PostgreSQL's data directory, or the database a URL named (never the URL,
// which may hold a password).
func (a *app) demoDatabase(pool *pgxpool.Pool) string {
	cc := pool.Config().ConnConfig
	at := fmt.Sprintf("database %s on %s:%d", cc.Database, cc.Host, cc.Port)
	if a.clusterDir == "" {
		return at
	}
	return fmt.Sprintf("the private PostgreSQL cluster in %s (%s)", a.clusterDir, at)
}
