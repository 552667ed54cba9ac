package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pipekit/pipe/errcode"
)

// DefaultEventPoll is how often a waiting run looks for its event when no
// publish wakes it: the backstop, since PublishEvent wakes waiters itself.
const DefaultEventPoll = 15 * time.Minute

// waitState is what a wait.started event records.
type waitState struct {
	Event    string          `json:"event"`
	Match    json.RawMessage `json:"match"`
	Since    time.Time       `json:"since"`
	Deadline time.Time       `json:"deadline"`
}

// eventAnswer is the stored result of a WaitForEvent step.
type eventAnswer struct {
	OK      bool            `json:"ok"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

// Validator is implemented by event payload types that check themselves; a
// refusal is X_JOB_EVENT_INVALID.
type Validator interface{ Validate() error }

// WaitForEvent suspends the run (return the error it answers, as with Sleep)
// until an event named event whose payload contains match (a JSON object, or
// nil for any) is published after the wait began, or until timeout. It
// answers the payload decoded into T and true, or the zero T and false on a
// timeout. A payload that does not decode into T, has unknown fields, or
// fails T's Validate is X_JOB_EVENT_INVALID, terminal — on a hit or a replay.
func WaitForEvent[T any](ctx context.Context, name, event string, match any, timeout time.Duration) (T, bool, error) {
	var zero T
	rs, err := beginStep(ctx, name)
	if err != nil {
		return zero, false, err
	}
	if raw, ok := rs.stored(name); ok {
		return answerEvent[T](name, raw)
	}
	if ws, ok := rs.waitOf(name); ok {
		return resumeWait[T](ctx, rs, name, ws)
	}
	if timeout <= 0 || event == "" {
		return zero, false, errcode.New(errcode.JobDeclarationInvalid, "step %s: a wait needs an event name and a positive timeout", name).
			WithFix("pass the event's name and how long to wait")
	}
	m, err := matchJSON(name, match)
	if err != nil {
		return zero, false, err
	}
	now := rs.claimNow()
	ws := waitState{Event: event, Match: m, Since: now, Deadline: now.Add(timeout)}
	data, _ := json.Marshal(ws)
	return zero, false, rs.suspendUntil(ctx, name, evWaitStarted, rs.nextLook(ws), data, &waitRow{event: event, match: m, since: now})
}

func matchJSON(step string, match any) (json.RawMessage, error) {
	if match == nil {
		return json.RawMessage(`{}`), nil
	}
	raw, err := json.Marshal(match)
	if err != nil || len(raw) == 0 || raw[0] != '{' {
		return nil, errcode.New(errcode.JobDeclarationInvalid, "step %s: the match is not a JSON object", step).
			WithFix("match with a map or struct of the payload fields that must be equal")
	}
	return raw, nil
}

// nextLook is when a waiting run looks again: its deadline or the poll.
func (rs *runState) nextLook(ws waitState) time.Time {
	return minTime(ws.Deadline, rs.claimNow().Add(rs.spec.resolvedEventPoll()))
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

func (rs *runState) waitOf(name string) (waitState, bool) {
	rs.mu.Lock()
	raw, ok := rs.journal.waits[name]
	rs.mu.Unlock()
	var ws waitState
	if !ok || json.Unmarshal(raw, &ws) != nil {
		return ws, false
	}
	return ws, true
}

// resumeWait looks for the event a wait began on: found, it is the step's
// answer; past the deadline, the answer is a timeout; else the run parks again.
func resumeWait[T any](ctx context.Context, rs *runState, name string, ws waitState) (T, bool, error) {
	var zero T
	var payload json.RawMessage
	err := rs.w.pool.QueryRow(ctx, sqlFindEvent, ws.Event, ws.Since, ws.Match).Scan(&payload)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return zero, false, errcode.Postgres(ctx, err, "step "+name+": event read")
	}
	answer := eventAnswer{OK: err == nil, Payload: payload}
	if !answer.OK && rs.claimNow().Before(ws.Deadline) {
		return zero, false, rs.suspendUntil(ctx, name, evSuspended, rs.nextLook(ws), nil, nil)
	}
	raw, _ := json.Marshal(answer)
	if err := rs.appendStep(ctx, evStepCompleted, name, raw); err != nil {
		return zero, false, err
	}
	rs.markCompleted(name, raw)
	_, _ = rs.w.pool.Exec(ctx, `delete from pipe.waits where job_id = $1 and step = $2`, rs.row.id, name)
	return answerEvent[T](name, raw)
}

func answerEvent[T any](name string, raw json.RawMessage) (T, bool, error) {
	var zero T
	var a eventAnswer
	if err := json.Unmarshal(raw, &a); err != nil || !a.OK {
		return zero, false, nil
	}
	v, err := decodeEvent[T](name, a.Payload)
	return v, err == nil, err
}

func decodeEvent[T any](name string, payload json.RawMessage) (T, error) {
	var v T
	dec := json.NewDecoder(bytesReader(payload))
	dec.DisallowUnknownFields()
	err := dec.Decode(&v)
	if err == nil {
		if val, ok := any(&v).(Validator); ok {
			err = val.Validate()
		} else if val, ok := any(v).(Validator); ok {
			err = val.Validate()
		}
	}
	if err != nil {
		return v, errcode.Wrap(err, errcode.JobEventInvalid, "step %s: the event's payload was refused", name).
			WithFix("publish a payload of the type the wait declares")
	}
	return v, nil
}

// PublishEvent publishes an event through db — the caller's transaction
// commits or rolls it back — stamped with the database clock, and wakes the
// runs waiting on it in the same statement. It answers the event's id.
func PublishEvent(ctx context.Context, db DB, event string, payload any) (int64, error) {
	raw, err := json.Marshal(payload)
	if err != nil || event == "" {
		return 0, errcode.New(errcode.JobEventInvalid, "the event needs a name and a JSON-encodable payload").
			WithFix("name the event and pass a JSON-encodable payload")
	}
	var id, woke int64
	if err := db.QueryRow(ctx, sqlPublishEvent, event, raw).Scan(&id, &woke); err != nil {
		return 0, errcode.Postgres(ctx, err, "publish")
	}
	return id, nil
}
