package pipecli

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/pipeline"
)

// Column widths past which values are cut in readable output: the input
// and a step's output (the input may carry a whole declaration). A run's
// result and progress are printed whole (an import's error report location
// is in its result), and --json cuts nothing.
const (
	headerValueWidth = 100
	stepOutputWidth  = 60
)

func (a *app) jobsShowCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "show ID",
		Short: "Show one run: its row, steps, last error and journal",
		Args:  exactArgs("ID"),
		RunE: func(c *cobra.Command, args []string) error {
			return a.withAdminDB(c.Context(), func(adm *pipeline.Admin, db pipeline.DB) error {
				d, err := adm.Show(c.Context(), args[0])
				if err != nil {
					return err
				}
				pass, err := runPass(c.Context(), db, d)
				if err != nil {
					return err
				}
				if a.json {
					out := showJSON(d)
					out.Backfill = pass
					return printJSON(a.stdout, out)
				}
				if pass != nil {
					fmt.Fprintln(a.stdout, "backfill: "+passLine(*pass))
				}
				return renderRun(a.stdout, d)
			})
		},
	}
}

// renderRun writes a run for a reader: the header fields, the steps, the last
// error and the journal.
func renderRun(w io.Writer, d *pipeline.RunDetail) error {
	if err := renderHeader(w, d); err != nil {
		return err
	}
	if err := renderConsumer(w, d); err != nil {
		return err
	}
	if err := renderSteps(w, d.Steps); err != nil {
		return err
	}
	renderLastError(w, d.LastError)
	return renderJournal(w, d.Journal)
}

func renderHeader(w io.Writer, d *pipeline.RunDetail) error {
	t := newTable(w, "id", d.ID)
	if d.RunID != d.ID {
		t.row("run id", d.RunID)
	}
	t.row("name", d.Name)
	t.row("queue", d.Queue)
	if d.Tenant != "" {
		t.row("tenant", d.Tenant)
	}
	t.row("key", truncate(d.IdempotencyKey, headerValueWidth))
	t.row("state", string(d.State))
	t.row("attempt", fmt.Sprintf("%d of %d", d.Attempt, d.MaxAttempts))
	t.row("created", stamp(d.CreatedAt))
	if d.NextRetryAt != nil {
		t.row("next retry", stampPtr(d.NextRetryAt))
	} else {
		t.row("run at", stamp(d.RunAt))
	}
	optional := []struct{ label, value string }{
		{"started", stampOrEmpty(d.StartedAt)},
		{"finished", stampOrEmpty(d.FinishedAt)},
		{"worker", d.WorkerID},
		{"concurrency key", truncate(d.ConcurrencyKey, headerValueWidth)},
		{"lease until", stampOrEmpty(d.LeaseUntil)},
		{"input", truncate(string(d.Input), headerValueWidth)},
		{"result", oneLine(string(d.Result))},
		{"progress", oneLine(string(d.Progress))},
	}
	for _, f := range optional {
		if f.value != "" {
			t.row(f.label, f.value)
		}
	}
	return t.flush()
}

func stampOrEmpty(t *time.Time) string {
	if t == nil {
		return ""
	}
	return stamp(*t)
}

func renderSteps(w io.Writer, steps []pipeline.StepDetail) error {
	fmt.Fprintln(w, "\nsteps")
	if len(steps) == 0 {
		fmt.Fprintln(w, "  (none yet)")
		return nil
	}
	t := newTable(w, "  STEP", "STATE", "EXECUTIONS", "LAST ERROR", "OUTPUT")
	for _, s := range steps {
		lastErr := "-"
		if s.LastError != nil {
			lastErr = orDash(s.LastError.Code)
		}
		t.row("  "+s.Name, string(s.State), strconv.Itoa(s.Executions), lastErr, orDash(truncate(string(s.Output), stepOutputWidth)))
	}
	return t.flush()
}

func renderLastError(w io.Writer, e *pipeline.ErrorRecord) {
	if e == nil {
		return
	}
	fmt.Fprintln(w, "\nlast error")
	label := "  "
	if e.Attempt > 0 {
		label = fmt.Sprintf("  attempt %d: ", e.Attempt)
	}
	if e.Code != "" {
		fmt.Fprintf(w, "%s%s: %s\n", label, e.Code, e.Message)
	} else {
		fmt.Fprintf(w, "%s%s\n", label, e.Message)
	}
	if e.Fix != "" {
		fmt.Fprintf(w, "  fix: %s\n", e.Fix)
	}
}

func renderJournal(w io.Writer, events []pipeline.Event) error {
	fmt.Fprintln(w, "\njournal")
	t := newTable(w, "  SEQ", "AT", "KIND", "ATTEMPT", "STEP")
	for _, e := range events {
		t.row("  "+strconv.FormatInt(e.Seq, 10), e.At.UTC().Format("2006-01-02T15:04:05.000Z"), e.Kind,
			strconv.Itoa(e.Attempt), orDash(e.Step))
	}
	return t.flush()
}

// oneLine folds s onto one line, whole, so a table stays a table.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
