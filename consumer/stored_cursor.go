package consumer

import (
	"context"
	"encoding/json"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/errcode"
)

// StoredCursor keeps a consumer's cursors in pipe's own table,
// pipe.consumer_cursors, one row per consumer and key, its JSON form written
// in the batch's transaction. It serves any consumer: the consumer's name
// comes from the run it is called in. An app that keeps its cursors beside
// its data declares its own [Cursor] instead.
func StoredCursor[C any]() Cursor[C] {
	return Cursor[C]{Load: loadStored[C], Save: saveStored[C]}
}

func loadStored[C any](ctx context.Context, tx pgx.Tx, key string) (C, error) {
	var zero C
	name, err := storedName(ctx)
	if err != nil {
		return zero, err
	}
	var raw []byte
	err = tx.QueryRow(ctx, sqlCursorLoad, name, key).Scan(&raw)
	if err == pgx.ErrNoRows {
		return zero, nil
	}
	if err != nil {
		return zero, errcode.Postgres(ctx, err, "consumer "+name+": load the cursor")
	}
	var c C
	if err := json.Unmarshal(raw, &c); err != nil {
		return zero, errcode.Wrap(err, errcode.ConsumerInvalid, "consumer %s: the stored cursor does not decode into the consumer's cursor type", name).
			WithFix("a consumer whose cursor type changed needs a new name, or its rows in pipe.consumer_cursors rewritten")
	}
	return c, nil
}

func saveStored[C any](ctx context.Context, tx pgx.Tx, key string, next C) error {
	name, err := storedName(ctx)
	if err != nil {
		return err
	}
	raw, err := json.Marshal(next)
	if err != nil {
		return errcode.Wrap(err, errcode.ConsumerInvalid, "consumer %s: the cursor does not encode as JSON", name).
			WithFix("answer a JSON-encodable cursor from Handle")
	}
	_, err = tx.Exec(ctx, sqlCursorSave, name, key, raw)
	return errcode.Postgres(ctx, err, "consumer "+name+": save the cursor")
}

func storedName(ctx context.Context) (string, error) {
	g := guardFrom(ctx)
	if g == nil {
		return "", errcode.New(errcode.Invariant, "stored cursor: called outside a consumer's run").
			WithFix("use StoredCursor only as a consumer's Cursor")
	}
	return g.consumer, nil
}
