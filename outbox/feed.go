package outbox

import (
	"context"
	"encoding/json"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/consumer"
	"github.com/pipekit/pipe/consumer/pgtail"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// item is one row a runner's batch holds: a row of the tail (new, past the
// cursor) or a released one (behind it, published first).
type item struct {
	ID       int64
	Env      Envelope
	Released bool
}

// envelopeColumns are the columns the tail reads, in scanEnvelope's order.
var envelopeColumns = []string{"stream", "key", "message_id", "headers", "payload"}

// scanEnvelope reads a row of envelopeColumns.
func scanEnvelope(row pgx.CollectableRow) (Envelope, error) {
	return scanFields(row)
}

// scanFields reads a row of lead (the row's id, for a released row) then
// envelopeColumns.
func scanFields(row pgx.Row, lead ...any) (Envelope, error) {
	var e Envelope
	var id uuid.UUID
	var headers []byte
	if err := row.Scan(append(lead, &e.Stream, &e.Key, &id, &headers, &e.Payload)...); err != nil {
		return e, err
	}
	e.ID = id.String()
	if len(headers) > 0 {
		if err := json.Unmarshal(headers, &e.Headers); err != nil {
			return e, errcode.Wrap(err, errcode.Invariant, "outbox: a row's headers do not decode")
		}
	}
	return e, nil
}

// feed is one runner's feed: the released rows of its stream first, then
// the tail. A batch is one look: a read that answered fewer rows than asked
// (all there is now) ends the batch at once, so a steady trickle is
// published as it comes rather than held until a batch fills.
type feed struct {
	r      *Relay
	stream string
	tail   consumer.Feed[pgtail.Row[Envelope]]
	// cursor is the committed cursor; next the one the batch in hand
	// commits.
	cursor, next int64
	// pending is a broker's failure after a batch's committed prefix: the
	// next read answers it and the attempt is retried.
	pending error
	short   bool
	// faulty is set while the stream may hold dead, held or released rows:
	// only then do reads look for released rows and batches for faults.
	// Only the stream's runner makes a fault (and `pipe outbox retry` only
	// turns faults into released rows), so a runner that saw none knows
	// there are none until it dead-letters a row.
	faulty bool
}

// open is the runners' Open: the stream's tail from cursor on.
func (r *Relay) open(ctx context.Context, stream string, cursor int64) (consumer.Feed[item], error) {
	t, err := r.tail(ctx)
	if err != nil {
		return nil, err
	}
	tail, err := t.Open(ctx, stream, cursor)
	if err != nil {
		return nil, err
	}
	f := &feed{r: r, stream: stream, tail: tail, cursor: cursor, next: cursor}
	if err := pipeline.Pool(ctx).QueryRow(ctx, sqlFaulty, stream).Scan(&f.faulty); err != nil {
		_ = tail.Close()
		return nil, errcode.Postgres(ctx, err, "outbox: look for faults")
	}
	r.mu.Lock()
	r.feeds[stream] = f
	r.mu.Unlock()
	return f, nil
}

func (r *Relay) feedOf(stream string) *feed {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.feeds[stream]
}

// Read answers the stream's released rows if there are any, else the
// tail's next rows.
func (f *feed) Read(ctx context.Context, max int, wait time.Duration) ([]item, error) {
	if err := f.pending; err != nil {
		f.pending = nil
		return nil, err
	}
	if f.short {
		f.short = false
		return nil, nil
	}
	if f.faulty {
		released, err := f.r.released(ctx, f.stream, max)
		if err != nil || len(released) > 0 {
			f.short = true
			return released, err
		}
	}
	rows, err := f.tail.Read(ctx, max, wait)
	items := make([]item, len(rows))
	for i, row := range rows {
		items[i] = item{ID: row.ID, Env: row.Value}
	}
	f.short = len(rows) > 0 && len(rows) < max
	return items, err
}

// Committed moves the cursor to the one the batch committed.
func (f *feed) Committed(context.Context, []item) error {
	f.cursor = f.next
	return nil
}

// Close releases the tail.
func (f *feed) Close() error {
	f.r.mu.Lock()
	if f.r.feeds[f.stream] == f {
		delete(f.r.feeds, f.stream)
	}
	f.r.mu.Unlock()
	return f.tail.Close()
}

// released reads up to max of the stream's released rows, in id order.
func (r *Relay) released(ctx context.Context, stream string, max int) ([]item, error) {
	rows, err := pipeline.Pool(ctx).Query(ctx, sqlReleased, stream, max)
	if err != nil {
		return nil, errcode.Postgres(ctx, err, "outbox: read released rows")
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (item, error) {
		it := item{Released: true}
		var err error
		it.Env, err = scanFields(row, &it.ID)
		if err != nil {
			return item{}, errcode.Postgres(ctx, err, "outbox: read released rows")
		}
		return it, nil
	})
}
