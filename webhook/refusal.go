package webhook

import (
	"context"
	"time"

	"github.com/pipekit/pipe/errcode"
)

// recordRefusal writes a refused attempt to the ledger: nothing was sent,
// and the row says why (refused). An event that cannot be read, or whose
// id is not valid, leaves no row: the refusal stands on its own as the
// run's error. A row not written is not the attempt's failure: the
// refusal is.
func (d *deliverer[In]) recordRefusal(ctx context.Context, in In, ep Endpoint, t try, refused error) {
	ev, err := d.o.Event(ctx, in)
	if err != nil || !validEventID(ev.ID) {
		return
	}
	_ = t.record(ctx, Attempt{Job: d.name, RunID: t.runID, EndpointID: ep.ID, EventID: ev.ID, Attempt: t.n,
		Bytes: int64(len(ev.Body)), At: time.Now(), Outcome: Refused, Code: errcode.CodeOf(refused)})
}
