package pipecli

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/pipekit/pipe/pipeline"
)

// A failed attempt's journal entry read beside the row as it was before the
// attempt settled (Admin.Show reads the row, then the journal) is not said
// then, without its next try, but at the next look, with it.
func TestAFailedAttemptIsSaidBesideItsSettledRow(t *testing.T) {
	var out bytes.Buffer
	now := time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)
	r := &waitReporter{w: &out, asJSON: true, now: func() time.Time { return now }}
	failed := pipeline.Event{Seq: 3, Kind: "attempt.failed", Attempt: 1, At: now,
		Data: json.RawMessage(`{"code":"X_DISK_FULL","message":"the disk is full"}`)}
	journal := []pipeline.Event{{Seq: 1, Kind: "enqueued"}, {Seq: 2, Kind: "claimed", Attempt: 1}, failed}

	running := pipeline.JobRow{ID: "r", Queue: "pipe", State: pipeline.StateRunning, Attempt: 1, MaxAttempts: 5}
	r.watch(&pipeline.RunDetail{JobRow: running, Journal: journal})
	if out.Len() != 0 {
		t.Fatalf("said beside the row before it settled: %s", out.String())
	}
	next := now.Add(time.Minute)
	settled := pipeline.JobRow{ID: "r", Queue: "pipe", State: pipeline.StateDelayed, Attempt: 1, MaxAttempts: 5, RunAt: next}
	r.watch(&pipeline.RunDetail{JobRow: settled, NextRetryAt: &next, Journal: journal})
	var ev waitEvent
	if err := json.Unmarshal(out.Bytes(), &ev); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if ev.Event != "attempt.failed" || ev.Code != "X_DISK_FULL" || ev.NextTryAt == nil || !ev.NextTryAt.Equal(next) {
		t.Fatalf("said %+v; want attempt.failed with X_DISK_FULL and its next try", ev)
	}
	r.watch(&pipeline.RunDetail{JobRow: settled, NextRetryAt: &next, Journal: journal})
	if n := bytes.Count(out.Bytes(), []byte("\n")); n != 1 {
		t.Fatalf("said %d times: %s", n, out.String())
	}
}
