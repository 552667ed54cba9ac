package pipeline

import (
	"context"
	"encoding/json"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// RunDetail is everything `pipe jobs show` prints about one run: the row,
// its steps as the journal folds them, and the journal itself.
type RunDetail struct {
	JobRow
	Input       json.RawMessage `json:"input"`
	Result      json.RawMessage `json:"result,omitempty"`
	LastError   *ErrorRecord    `json:"lastError,omitempty"`
	NextRetryAt *time.Time      `json:"nextRetryAt,omitempty"`
	StartedAt   *time.Time      `json:"startedAt,omitempty"`
	LeaseUntil  *time.Time      `json:"leaseUntil,omitempty"`
	WorkerID    string          `json:"workerId,omitempty"`
	// ConcurrencyKey is the key the run counts under in its job's keyed
	// concurrency cap ("" for a job with none).
	ConcurrencyKey string          `json:"concurrencyKey,omitempty"`
	Progress       json.RawMessage `json:"progress,omitempty"`
	Steps          []StepDetail    `json:"steps"`
	Journal        []Event         `json:"journal"`

	// Status is the run's status document as the body last reported it
	// (see [FencedTx]), and StatusAt when, by the database clock.
	Status   json.RawMessage `json:"status,omitempty"`
	StatusAt *time.Time      `json:"statusAt,omitempty"`
}

// StepDetail is one step of a run: its state (completed, failed, started —
// a once-step whose outcome is unknown), its stored output and how many
// times its function ran.
type StepDetail struct {
	Name        string          `json:"name"`
	State       StepState       `json:"state"`
	Output      json.RawMessage `json:"output,omitempty"`
	Executions  int             `json:"executions"`
	LastError   *ErrorRecord    `json:"lastError,omitempty"`
	CompletedAt *time.Time      `json:"completedAt,omitempty"`
}

// Event is one journal entry.
type Event struct {
	Seq     int64           `json:"seq"`
	Kind    string          `json:"kind"`
	Attempt int             `json:"attempt"`
	Step    string          `json:"step,omitempty"`
	Data    json.RawMessage `json:"data,omitempty"`
	At      time.Time       `json:"at"`
}

// Show answers one run in full.
func (a *Admin) Show(ctx context.Context, id string) (*RunDetail, error) {
	uid, err := parseID(id)
	if err != nil {
		return nil, err
	}
	d, err := a.showRow(ctx, uid)
	if err != nil {
		return nil, err
	}
	if d.Status, d.StatusAt, err = readStatus(ctx, a.db, uid); err != nil {
		return nil, err
	}
	if d.Journal, err = a.readJournal(ctx, uid); err != nil {
		return nil, err
	}
	d.Steps = foldSteps(d.Journal)
	return d, nil
}

func (a *Admin) showRow(ctx context.Context, id uuid.UUID) (*RunDetail, error) {
	d := &RunDetail{}
	var rid, runID uuid.UUID
	var lastErr []byte
	var worker, ckey *string
	err := a.db.QueryRow(ctx, sqlShow, id).Scan(&rid, &runID, &d.Name, &d.Queue, &d.Tenant, &d.IdempotencyKey, &d.State,
		&d.Attempt, &d.MaxAttempts, &d.RunAt, &d.CreatedAt, &d.FinishedAt, &d.Input, &d.Result, &lastErr,
		&d.StartedAt, &d.LeaseUntil, &worker, &d.Progress, &ckey)
	if err == pgx.ErrNoRows {
		return nil, notFound()
	}
	if err != nil {
		return nil, adminErr("show", err)
	}
	d.ID, d.RunID = rid.String(), runID.String()
	if worker != nil {
		d.WorkerID = *worker
	}
	if ckey != nil {
		d.ConcurrencyKey = *ckey
	}
	if lastErr != nil {
		d.LastError = &ErrorRecord{}
		_ = json.Unmarshal(lastErr, d.LastError)
	}
	if (d.State == StateReady || d.State == StateDelayed) && d.Attempt > 0 {
		d.NextRetryAt = &d.RunAt
	}
	return d, nil
}

func (a *Admin) readJournal(ctx context.Context, id uuid.UUID) ([]Event, error) {
	rows, err := a.db.Query(ctx, `select seq, kind, attempt, coalesce(step, ''), data, at from pipe.journal where job_id = $1 order by seq`, id)
	if err != nil {
		return nil, adminErr("show", err)
	}
	defer rows.Close()
	var out []Event
	for rows.Next() {
		var e Event
		if err := rows.Scan(&e.Seq, &e.Kind, &e.Attempt, &e.Step, &e.Data, &e.At); err != nil {
			return nil, adminErr("show", err)
		}
		out = append(out, e)
	}
	return out, adminErr("show", rows.Err())
}

// foldSteps renders the journal's step events as steps, honouring rewinds.
func foldSteps(events []Event) []StepDetail {
	r := newReplay()
	byName := map[string]*StepDetail{}
	var order []string
	get := func(name string) *StepDetail {
		if s, ok := byName[name]; ok {
			return s
		}
		byName[name] = &StepDetail{Name: name}
		order = append(order, name)
		return byName[name]
	}
	for _, e := range events {
		r.apply(journalEvent{kind: e.Kind, step: e.Step, data: e.Data})
		if e.Step == "" {
			continue
		}
		s := get(e.Step)
		switch e.Kind {
		case evStepCompleted:
			s.Executions++
			at := e.At
			s.CompletedAt = &at
		case evStepFailed:
			s.Executions++
			s.LastError = &ErrorRecord{}
			_ = json.Unmarshal(e.Data, s.LastError)
		}
	}
	out := make([]StepDetail, 0, len(order))
	for _, name := range order {
		s := byName[name]
		switch {
		case r.completed[name] != nil:
			s.State, s.Output = StepCompleted, r.completed[name]
		case r.started[name]:
			s.State = StepStarted
		case s.LastError != nil:
			s.State = StepFailed
		default:
			s.State, s.CompletedAt = StepRewound, nil
		}
		out = append(out, *s)
	}
	return out
}
