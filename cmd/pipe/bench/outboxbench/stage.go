package outboxbench

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/outbox"
)

// plainDDL is the anchor's table: the same row in an app's own table, with
// an ordinary key.
const plainDDL = `create table pipe_bench_outbox_plain (
	id bigserial primary key, stream text not null, key text not null default '', message_id uuid not null,
	headers jsonb, payload bytea not null, staged_at timestamptz not null default now())`

// staging commits o.Stages one-row transactions each way — outbox.Stage,
// and a plain insert of the same row — alternating in rounds of 250, and
// reports the time per transaction and their ratio.
func staging(ctx context.Context, pool *pgxpool.Pool, o Options, emit func(Figure)) error {
	if _, err := pool.Exec(ctx, `drop table if exists pipe_bench_outbox_plain; `+plainDDL); err != nil {
		return err
	}
	m := outbox.Message{Stream: name + "-stage", Key: "k", Headers: map[string]string{"type": "order.placed"}, Payload: payload}
	stage := func(tx pgx.Tx) error {
		_, err := outbox.Stage(ctx, tx, m)
		return err
	}
	plain := func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `insert into pipe_bench_outbox_plain (stream, key, message_id, headers, payload) values ($1, $2, $3, $4, $5)`,
			m.Stream, m.Key, uuid.New(), []byte(`{"type":"order.placed"}`), m.Payload)
		return err
	}
	var tStage, tPlain time.Duration
	const round = 250
	for done := 0; done < o.Stages; done += round {
		n := min(round, o.Stages-done)
		for _, w := range []struct {
			fn  func(pgx.Tx) error
			sum *time.Duration
		}{{plain, &tPlain}, {stage, &tStage}} {
			d, err := commitEach(ctx, pool, n, w.fn)
			if err != nil {
				return err
			}
			*w.sum += d
		}
	}
	per := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) / float64(o.Stages) }
	ratio := float64(tStage) / float64(tPlain)
	emit(Figure{Name: "stage-plain", Rows: o.Stages, Line: fmt.Sprintf("anchor (a plain insert of the same row, one transaction each): %d in %.2f s (%.3f ms each)", o.Stages, tPlain.Seconds(), per(tPlain))})
	emit(Figure{Name: "stage", Rows: o.Stages, Ratio: ratio, Line: fmt.Sprintf("outbox.Stage in the app's transaction: %d in %.2f s (%.3f ms each; %.2fx the plain insert)", o.Stages, tStage.Seconds(), per(tStage), ratio)})
	return nil
}

// commitEach commits n transactions, each running fn, and answers the time.
func commitEach(ctx context.Context, pool *pgxpool.Pool, n int, fn func(pgx.Tx) error) (time.Duration, error) {
	start := time.Now()
	for range n {
		if err := pgx.BeginFunc(ctx, pool, fn); err != nil {
			return 0, err
		}
	}
	return time.Since(start), nil
}
