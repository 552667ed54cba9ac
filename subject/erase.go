package subject

import (
	"context"
	"strings"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// DefaultPageRows is the default of EraseOptions.PageRows and
// ExportOptions.PageRows; MaxPageRows bounds them (a page is one
// transaction).
const (
	DefaultPageRows = 1000
	MaxPageRows     = 1_000_000
)

// Key is the person's key: the values of the root's key columns, in the
// declaration's key order (one value for a one-column key). A value is
// sent as text and cast by PostgreSQL to each column's type: a string, a
// number, a uuid.UUID or anything with a String method.
type Key []any

// EraseOptions declare an erase job. Each field's comment gives its
// default; a fault is refused by [NewErase] with X_JOB_DECLARATION_INVALID.
type EraseOptions[In any] struct {
	// Name is the job's durable name. Required.
	Name string
	// Subject is the declaration. Required; it is checked against the
	// catalog when a worker starts (JobOptions.Verify) and when each run
	// plans, never at declaration (there is no database then).
	Subject Declaration
	// Person answers the person's key from the run's input. Required.
	Person func(In) Key
	// Key answers a run's idempotency key. Default: the job's name and
	// the person's key. An erase's key is intrinsic: a run erases the
	// person Person names and reads nothing else of its input, so two
	// erases of one person are one while one is live. Set it only to key
	// by something finer the input carries.
	Key func(In) string
	// PageRows is how many rows one step deletes, anonymizes or clears:
	// the unit of a step's transaction and its checkpoint. Default 1,000.
	PageRows int
	// Job are the job options (queue, tenant, retry, timeout...). Verify,
	// when set, runs after the declaration's own check.
	Job pipeline.JobOptions[In, EraseResult]
}

// EraseResult is what an erase run answers: per table, how many of the
// person's rows it deleted or anonymized, and what it cleared and removed
// outside the database.
type EraseResult struct {
	Root    string        `json:"root"`
	Tables  []TableResult `json:"tables"`
	Cleared int64         `json:"cleared"`
	// Released counts other people's rows the erase changed, apart from
	// the person's own: rows that referenced the person's rows and are
	// not theirs (another member's reply to the person's comment), their
	// key set to null by a clear or by ON DELETE SET NULL — kept, never
	// deleted.
	Released int64         `json:"released"`
	Objects  []ObjectsDone `json:"objects,omitempty"`
	Targets  []TargetDone  `json:"targets,omitempty"`
	// Passes is how many passes over the tables the erase took: more than
	// one when the app wrote the person's rows while it ran.
	Passes int `json:"passes"`
}

// TableResult is one table's part of an erase or an export.
type TableResult struct {
	Table     string `json:"table"`
	Treatment string `json:"treatment"`
	Reason    string `json:"reason,omitempty"`
	// Rows are the rows deleted or anonymized (an erase), or written (an
	// export); a retained table's rows are left and not counted by an
	// erase.
	Rows int64 `json:"rows"`
}

// ObjectsDone is one declared Objects entry's part of an erase.
type ObjectsDone struct {
	Name     string `json:"name"`
	Deleted  int64  `json:"deleted"`
	Retained bool   `json:"retained,omitempty"`
}

// NewErase declares an erase job: each run plans the declaration against
// the live catalog (refusing it as [NewPlan] does, before anything is
// written), clears the keys of loops, then treats every reached table
// children first — a step per page, each page's writes and checkpoint in
// one transaction — deletes the person's objects, checks that nothing of
// the person is left and treats the root last.
func NewErase[In any](o EraseOptions[In]) (*pipeline.Job[In, EraseResult], error) {
	var faults []string
	if strings.TrimSpace(o.Name) == "" {
		faults = append(faults, "Name is empty")
	}
	if o.Person == nil {
		faults = append(faults, "Person (the person's key from the input) is nil")
	}
	if o.PageRows < 0 || o.PageRows > MaxPageRows {
		faults = append(faults, "PageRows is not from 0 (the default) to 1,000,000")
	}
	faults = append(faults, o.Subject.shapeFaults()...)
	if len(faults) > 0 {
		return nil, errcode.New(errcode.JobDeclarationInvalid, "erase %s: %s", o.Name, strings.Join(faults, "; ")).
			WithFix("correct the erase's declaration: " + strings.Join(faults, "; "))
	}
	if o.PageRows == 0 {
		o.PageRows = DefaultPageRows
	}
	key := o.Key
	if key == nil {
		key = func(in In) string { return o.Name + ":" + keyLabel(o.Person(in)) }
	}
	o.Job.Verify = verifyWith(o.Subject, o.Job.Verify)
	body := func(ctx context.Context, r *pipeline.Run[In]) (EraseResult, error) {
		k, err := keyTexts(o.Person(r.Input))
		if err != nil {
			return EraseResult{}, err
		}
		ex := &eraser{decl: o.Subject, key: k, limit: o.PageRows, steps: jobSteps{}}
		return ex.erase(ctx)
	}
	return pipeline.NewJob(o.Name, key, body, o.Job)
}

// MustErase is [NewErase] that panics on a bad declaration, for
// package-level variables.
func MustErase[In any](o EraseOptions[In]) *pipeline.Job[In, EraseResult] {
	j, err := NewErase(o)
	if err != nil {
		panic(err)
	}
	return j
}

// verifyWith answers a Verify that checks d, then runs next.
func verifyWith(d Declaration, next func(ctx context.Context, db pipeline.DB) error) func(ctx context.Context, db pipeline.DB) error {
	return func(ctx context.Context, db pipeline.DB) error {
		if err := d.Check(ctx, db); err != nil {
			return err
		}
		if next != nil {
			return next(ctx, db)
		}
		return nil
	}
}

// keyTexts answers the person's key as the text each value is sent as.
func keyTexts(k Key) ([]string, error) {
	if len(k) == 0 {
		return nil, errcode.New(errcode.JobInputInvalid, "subject: the person's key is empty").
			WithFix("answer the root key's values from Person")
	}
	out := make([]string, len(k))
	for i, v := range k {
		text, ok := constantText(v)
		if v == nil || !ok {
			return nil, errcode.New(errcode.JobInputInvalid, "subject: value %d of the person's key is null or not a value pipe can send", i+1).
				WithFix("answer strings, numbers or uuids from Person")
		}
		out[i] = text
	}
	return out, nil
}

func keyLabel(k Key) string {
	texts, err := keyTexts(k)
	if err != nil {
		return ""
	}
	return strings.Join(texts, "/")
}
