package outbox_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/outbox"
)

// A message staged in a transaction that rolls back leaves no row; one
// staged in a transaction that commits is there, under the id Stage
// answered, with its key, headers and payload.
func TestStageJoinsTheCallersTransaction(t *testing.T) {
	pool := fixtures.DB(t)
	ctx := context.Background()
	undone, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := outbox.Stage(ctx, undone, outbox.Message{Stream: "orders", Payload: []byte("ghost")}); err != nil {
		t.Fatal(err)
	}
	if err := undone.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	tx, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	id, err := outbox.Stage(ctx, tx, outbox.Message{Stream: "orders", Key: "o-1", Headers: map[string]string{"type": "placed"}, Payload: []byte("kept")})
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	var n int
	var mid, key, typ, body string
	if err := pool.QueryRow(ctx, `select count(*) over (), message_id::text, key, headers->>'type', convert_from(payload, 'UTF8') from pipe.outbox`).Scan(&n, &mid, &key, &typ, &body); err != nil {
		t.Fatal(err)
	}
	if n != 1 || mid != id || key != "o-1" || typ != "placed" || body != "kept" {
		t.Fatalf("outbox holds %d rows, the first %s %s %s %s; want the committed message alone under %s", n, mid, key, typ, body, id)
	}
}

// StageMany stages 2,500 messages in input order (ids drawn in order, three
// statements), answers their ids in the same order, and refuses a batch
// holding one bad message before writing any, naming its position only.
func TestStageManyKeepsOrderAndRefusesWhole(t *testing.T) {
	pool := fixtures.DB(t)
	ctx := context.Background()
	ms := make([]outbox.Message, 2500)
	for i := range ms {
		ms[i] = outbox.Message{Stream: "s", Key: fmt.Sprint(i % 7), Payload: []byte(fmt.Sprint(i))}
	}
	ids, err := outbox.StageMany(ctx, pool, ms)
	if err != nil || len(ids) != len(ms) {
		t.Fatalf("StageMany: %d ids, %v", len(ids), err)
	}
	rows, err := pool.Query(ctx, `select message_id::text, convert_from(payload, 'UTF8') from pipe.outbox order by id`)
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	for rows.Next() {
		var mid, body string
		if err := rows.Scan(&mid, &body); err != nil {
			t.Fatal(err)
		}
		if mid != ids[i] || body != fmt.Sprint(i) {
			t.Fatalf("row %d: %s %s; want %s %d", i, mid, body, ids[i], i)
		}
		i++
	}
	if rows.Err() != nil || i != len(ms) {
		t.Fatalf("read %d rows (%v)", i, rows.Err())
	}

	bad := []outbox.Message{{Stream: "s", Payload: []byte("fine")}, {Stream: "s", Key: strings.Repeat("secret", 200)}}
	_, err = outbox.StageMany(ctx, pool, bad)
	if !errors.Is(err, errcode.OutboxMessageInvalid) || !strings.Contains(err.Error(), "message 1") || strings.Contains(err.Error(), "secret") {
		t.Fatalf("a key too long: %v; want X_OUTBOX_MESSAGE_INVALID naming message 1 and not its key", err)
	}
	for _, m := range []outbox.Message{{}, {Stream: strings.Repeat("x", 201)}, {Stream: "s", Headers: map[string]string{"": "v"}}} {
		if _, err := outbox.Stage(ctx, pool, m); !errors.Is(err, errcode.OutboxMessageInvalid) {
			t.Fatalf("Stage of a bad message: %v", err)
		}
	}
	var n int
	if err := pool.QueryRow(ctx, `select count(*) from pipe.outbox`).Scan(&n); err != nil || n != len(ms) {
		t.Fatalf("%d rows after the refusals (%v); want %d", n, err, len(ms))
	}
}
