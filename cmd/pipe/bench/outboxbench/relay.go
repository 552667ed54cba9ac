package outboxbench

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/pipekit/pipe/outbox"
	"github.com/pipekit/pipe/outbox/natsjs"
	"github.com/pipekit/pipe/pipeline"
)

// payload is every message's body: 1 KiB.
var payload = bytes.Repeat([]byte("p"), 1024)

// throughput measures, at one batch size, the anchor loop and then the
// relay, each over o.Rows freshly staged rows and a fresh stream.
func throughput(ctx context.Context, pool *pgxpool.Pool, js jetstream.JetStream, o Options, batch int, emit func(Figure)) error {
	var anchorRate float64
	for _, anchor := range []bool{true, false} {
		if err := freshStream(ctx, pool, js); err != nil {
			return err
		}
		if err := stageRows(ctx, pool, name, o.Rows); err != nil {
			return err
		}
		run, label := runRelay, "relay"
		if anchor {
			run, label = runAnchor, "anchor"
			if err := moveToAnchor(ctx, pool); err != nil {
				return err
			}
		}
		elapsed, err := run(ctx, pool, js, o, batch)
		if err != nil {
			return err
		}
		f := Figure{Name: label, Batch: batch, Rows: o.Rows, Rate: float64(o.Rows) / elapsed.Seconds()}
		if anchor {
			anchorRate = f.Rate
			f.Line = fmt.Sprintf("anchor (the spec's relay loop: claim, publish, mark) batch %d: %d rows of 1 KiB in %.2f s (%.0f rows/s; the spec's own figure %d-%d)",
				batch, o.Rows, elapsed.Seconds(), f.Rate, SpecLow, SpecHigh)
		} else {
			f.Ratio, f.SpecRatio = f.Rate/anchorRate, f.Rate/SpecHigh
			f.Line = fmt.Sprintf("relay batch %d: %d rows of 1 KiB to JetStream in %.2f s (%.0f rows/s; %.2fx the anchor loop, %.2fx the spec's %d)",
				batch, o.Rows, elapsed.Seconds(), f.Rate, f.Ratio, f.SpecRatio, SpecHigh)
		}
		emit(f)
	}
	return nil
}

// stageRows stages n 1 KiB messages on stream, 1,000 a statement.
func stageRows(ctx context.Context, pool *pgxpool.Pool, stream string, n int) error {
	ms := make([]outbox.Message, 0, outbox.StageChunk)
	for i := 0; i < n; i += len(ms) {
		ms = ms[:0]
		for j := i; j < min(n, i+outbox.StageChunk); j++ {
			ms = append(ms, outbox.Message{Stream: stream, Key: fmt.Sprint(j % 16), Payload: payload})
		}
		if _, err := outbox.StageMany(ctx, pool, ms); err != nil {
			return err
		}
	}
	_, err := pool.Exec(ctx, `analyze pipe.outbox`)
	return err
}

// runRelay relays the stream's rows with pipe's relay in a worker of this
// process, and answers the time from its arming to the last row marked.
func runRelay(ctx context.Context, pool *pgxpool.Pool, js jetstream.JetStream, o Options, batch int) (time.Duration, error) {
	relay, stop, err := startRelay(ctx, pool, js, o, batch, name)
	if err != nil {
		return 0, err
	}
	defer stop()
	var last int64
	if err := pool.QueryRow(ctx, `select max(id) from pipe.outbox where stream = $1`, name).Scan(&last); err != nil {
		return 0, err
	}
	start := time.Now()
	if _, err := relay.Arm(ctx, pool); err != nil {
		return 0, err
	}
	for {
		var cursor int64
		err := pool.QueryRow(ctx, `select coalesce((select cursor::bigint from pipe.consumer_cursors where consumer = $1 and key = $2), 0)`, name, name).Scan(&cursor)
		if err != nil {
			return 0, err
		}
		if cursor >= last {
			return time.Since(start), nil
		}
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// startRelay starts a worker running a relay of stream to the bench's
// JetStream stream; stop drains it.
func startRelay(ctx context.Context, pool *pgxpool.Pool, js jetstream.JetStream, o Options, batch int, stream string) (*outbox.Relay, func(), error) {
	pub, err := natsjs.New(js.Conn(), natsjs.Options{Subject: func(e outbox.Envelope) string { return jsName + "." + e.Stream }})
	if err != nil {
		return nil, nil, err
	}
	relay, err := outbox.New(outbox.Options{Name: name, Streams: []outbox.Stream{{Name: stream}}, Publisher: pub, Batch: batch, Logger: o.Logger})
	if err != nil {
		return nil, nil, err
	}
	reg, err := pipeline.NewRegistry(relay.Jobs()...)
	if err != nil {
		return nil, nil, err
	}
	w, err := pipeline.NewWorker(pool, pipeline.WorkerConfig{Registry: reg, Queues: map[string]int{name: 1, "default": 1},
		PollInterval: 10 * time.Millisecond, IdlePollMax: 20 * time.Millisecond, Logger: o.Logger})
	if err != nil {
		return nil, nil, err
	}
	if err := w.Start(ctx); err != nil {
		return nil, nil, err
	}
	return relay, func() {
		drain, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = w.Shutdown(drain)
	}, nil
}

// moveToAnchor moves the staged rows into the anchor's own table: the
// spec's outbox, a row marked published by its own update.
func moveToAnchor(ctx context.Context, pool *pgxpool.Pool) error {
	_, err := pool.Exec(ctx, `create table pipe_bench_outbox_anchor (
			id bigint generated always as identity, stream text not null, key text not null default '',
			message_id uuid not null, headers jsonb, payload bytea not null, staged_at timestamptz not null default now(),
			published_at timestamptz, primary key (stream, id));
		insert into pipe_bench_outbox_anchor (stream, key, message_id, headers, payload)
			select stream, key, message_id, headers, payload from pipe.outbox where stream like 'pipe-bench-outbox%' order by id;
		delete from pipe.outbox where stream like 'pipe-bench-outbox%';
		analyze pipe_bench_outbox_anchor`)
	return err
}

// runAnchor is the spec's relay as a plain loop: in one transaction a
// pass, claim up to batch unpublished rows in id order (FOR UPDATE SKIP
// LOCKED), publish them, mark them in one statement, commit.
func runAnchor(ctx context.Context, pool *pgxpool.Pool, js jetstream.JetStream, _ Options, batch int) (time.Duration, error) {
	start := time.Now()
	for {
		n := 0
		err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
			rows, err := tx.Query(ctx, `select id, message_id, payload from pipe_bench_outbox_anchor
				where stream = $1 and published_at is null order by id limit $2 for update skip locked`, name, batch)
			if err != nil {
				return err
			}
			var ids []int64
			var futures []jetstream.PubAckFuture
			for rows.Next() {
				var id int64
				var mid uuid.UUID
				var body []byte
				if err := rows.Scan(&id, &mid, &body); err != nil {
					return err
				}
				f, err := js.PublishMsgAsync(&nats.Msg{Subject: jsName + "." + name, Data: body}, jetstream.WithMsgID(mid.String()))
				if err != nil {
					return err
				}
				ids, futures = append(ids, id), append(futures, f)
			}
			if err := rows.Err(); err != nil {
				return err
			}
			for _, f := range futures {
				select {
				case <-f.Ok():
				case err := <-f.Err():
					return err
				}
			}
			n = len(ids)
			_, err = tx.Exec(ctx, `update pipe_bench_outbox_anchor set published_at = now() where stream = $1 and id = any($2)`, name, ids)
			return err
		})
		if err != nil {
			return 0, err
		}
		if n == 0 {
			return time.Since(start), nil
		}
	}
}
