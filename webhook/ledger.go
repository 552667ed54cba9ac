package webhook

import (
	"context"
	"time"

	"github.com/pipekit/pipe/errcode"
)

// Outcome is how one attempt ended.
type Outcome string

const (
	Delivered Outcome = "delivered" // 2xx
	Throttled Outcome = "throttled" // 429/503 with Retry-After
	Rejected  Outcome = "rejected"  // another non-2xx: a 4xx, a redirect
	Failed    Outcome = "failed"    // unreachable, timed out, 5xx
	Refused   Outcome = "refused"   // nothing sent: a refused URL or address, a disabled endpoint
)

// Attempt is one ledger row: one attempt to deliver one event to one
// endpoint. It never holds the body, sent or answered.
type Attempt struct {
	Job        string       `json:"job"`
	RunID      string       `json:"runId"`
	EndpointID string       `json:"endpointId"`
	EventID    string       `json:"eventId"`
	Attempt    int          `json:"attempt"`
	Status     int          `json:"status"` // the HTTP status; 0 when none came
	Outcome    Outcome      `json:"outcome"`
	Bytes      int64        `json:"bytes"` // the request body's size
	DurationMs int64        `json:"durationMs"`
	Code       errcode.Code `json:"code,omitempty"`
	At         time.Time    `json:"at"`
}

// Ledger records delivery attempts. Retention is the ledger's: the stock
// [PostgresLedger] is purged by pipe's maintenance.
type Ledger interface {
	Record(ctx context.Context, a Attempt) error
}
