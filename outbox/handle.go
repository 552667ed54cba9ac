package outbox

import (
	"context"
	"encoding/json"
	"hash/fnv"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/errcode"
)

// batch is one runner's batch as it is published and marked.
type batch struct {
	items []item
	// dead holds back the keys (or the stream) of dead rows; waiting those
	// with released rows still to publish beyond the batch.
	dead, waiting *scope
	// published are the rows the broker took; republished those of them
	// that were released rows.
	published, republished []int64
	held, queued           []int64
	refused                []refusal
	// stop is the index of the row a broker failure (err) stopped the
	// batch at; len(items) when none did.
	stop int
	err  error
	// sawFaults is set when the stream held dead or released rows beyond
	// the batch.
	sawFaults bool
}

type refusal struct {
	it  item
	err error
}

// handle is the runners' Handle: it publishes the batch, marks its rows —
// published, dead, held behind a dead row, queued behind released rows — in
// the batch's transaction, and answers the cursor past the rows it marked.
// A broker failure part way commits the rows before it and fails the
// attempt at the next read.
func (r *Relay) handle(ctx context.Context, tx pgx.Tx, stream string, items []item) (int64, error) {
	f := r.feedOf(stream)
	if f == nil {
		return 0, errcode.New(errcode.Invariant, "outbox relay %s: a batch without its feed", r.o.Name)
	}
	s := r.streams[stream]
	b := &batch{items: items, dead: newScope(s.Ordering), waiting: newScope(s.Ordering), stop: len(items)}
	if f.faulty {
		if err := r.faults(ctx, tx, s, b); err != nil {
			return 0, err
		}
	}
	r.publishBatch(ctx, s, b)
	cursor, moved := f.cursor, false
	for _, it := range b.items[:b.stop] {
		if !it.Released {
			cursor, moved = it.ID, true
		}
	}
	if err := r.mark(ctx, tx, stream, b, cursor, moved); err != nil {
		return 0, err
	}
	if b.err != nil {
		if !moved {
			return 0, b.err
		}
		f.pending = b.err
	}
	f.next = cursor
	f.faulty = b.sawFaults || len(b.refused)+len(b.held)+len(b.queued) > 0
	return cursor, nil
}

// faults reads, under the stream's lock, the dead keys and the released
// rows still waiting into the batch's scopes.
func (r *Relay) faults(ctx context.Context, tx pgx.Tx, s Stream, b *batch) error {
	own := []int64{} // never NULL: "id = any(NULL)" is NULL, and the join would find nothing
	for _, it := range b.items {
		if it.Released {
			own = append(own, it.ID)
		}
	}
	rows, err := tx.Query(ctx, sqlFaults, s.Name, own, lockKey(s.Name))
	if err != nil {
		return errcode.Postgres(ctx, err, "outbox: read the stream's faults")
	}
	for rows.Next() {
		var fault, key *string
		if err := rows.Scan(&fault, &key); err != nil {
			return errcode.Postgres(ctx, err, "outbox: read the stream's faults")
		}
		switch {
		case fault == nil:
			continue
		case *fault == "dead":
			b.dead.add(*key)
		default:
			b.waiting.add(*key)
		}
		b.sawFaults = true
	}
	return errcode.Postgres(ctx, rows.Err(), "outbox: read the stream's faults")
}

// mark writes the batch's outcome: the batch's row in pipe.outbox_batches
// (its cursor and how many rows it published), then the rows that leave
// the normal flow — released rows published again lose their fault, held
// and queued rows get theirs — one statement each, one per dead row. A
// row the batch published from the tail is not written: the batch's
// cursor passing it, without a fault, is what marks it published. A batch
// that neither published nor moved the cursor records nothing.
func (r *Relay) mark(ctx context.Context, tx pgx.Tx, stream string, b *batch, cursor int64, moved bool) error {
	if len(b.published) > 0 || moved {
		if _, err := tx.Exec(ctx, sqlMarkBatch, stream, cursor, len(b.published), r.o.Name); err != nil {
			return errcode.Postgres(ctx, err, "outbox: mark a batch")
		}
	}
	for _, m := range []struct {
		sql   string
		ids   []int64
		extra []any
	}{
		{sqlRepublished, b.republished, nil},
		{sqlMarkFault, b.held, []any{"held"}},
		{sqlMarkFault, b.queued, []any{"retry"}},
	} {
		if len(m.ids) == 0 {
			continue
		}
		if _, err := tx.Exec(ctx, m.sql, append([]any{stream, m.ids}, m.extra...)...); err != nil {
			return errcode.Postgres(ctx, err, "outbox: mark a batch")
		}
	}
	for _, d := range b.refused {
		rec, _ := json.Marshal(errorRecord(d.err))
		if _, err := tx.Exec(ctx, sqlMarkDead, stream, d.it.ID, rec); err != nil {
			return errcode.Postgres(ctx, err, "outbox: dead-letter a row")
		}
	}
	return nil
}

// lockKey is a stream's advisory lock key.
func lockKey(stream string) int64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte("pipe.outbox\x00" + stream))
	return int64(h.Sum64())
}

// errorRecord is a refusal as the dead row keeps it.
func errorRecord(err error) map[string]string {
	rec := map[string]string{"message": err.Error()}
	if e, ok := errcode.As(err); ok {
		rec["code"], rec["message"], rec["fix"] = string(e.Code), e.Message, e.Fix
	}
	return rec
}
