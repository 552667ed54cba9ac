package jetstream_test

import (
	"context"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go"

	"github.com/pipekit/pipe/consumer"
	"github.com/pipekit/pipe/consumer/jetstream"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// The kill test's consumer: two keys, each on a subject of its own, batches
// of killBatch.
const killBatch = 20

var killKeys = []string{"a", "b"}

// killLease is the lease of the kill test's workers: long enough that a
// loaded machine does not lapse a live worker's run (its batch in hand would
// be handed over again, which the test counts as a fault), short enough
// that the killed worker's runs are soon taken over.
const killLease = 3 * time.Second

// The environment of a kill test's worker process: the server and the
// stream.
const (
	natsEnv   = "PIPE_TEST_NATS_URL"
	streamEnv = "PIPE_TEST_STREAM"
)

const killDDL = `create table effects (key text not null, seq bigint not null);
	create table deliveries (key text not null, seq bigint not null, pid int not null);
	create table holds (pid int not null);
	create table held (pid int not null, key text not null)`

// TestMain doubles as the kill test's worker processes: re-executed with
// fixtures.StartChild, the test binary runs a worker of two slots over the
// kill consumer until it is SIGKILLed, or drains on SIGTERM and exits.
func TestMain(m *testing.M) {
	fixtures.ChildMain(map[string]fixtures.ChildFunc{"jetstream": killChild})
	os.Exit(m.Run())
}

func killChild(ctx context.Context, pool *pgxpool.Pool) error {
	term := make(chan os.Signal, 1)
	signal.Notify(term, syscall.SIGTERM)
	nc, err := nats.Connect(os.Getenv(natsEnv))
	if err != nil {
		return err
	}
	src, err := jetstream.New(nc, killOptions(os.Getenv(streamEnv)))
	if err != nil {
		return err
	}
	cfg := pool.Config()
	cfg.MaxConns = 16
	big, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return err
	}
	reg, err := pipeline.NewRegistry(killConsumer(big, src).Jobs()...)
	if err != nil {
		return err
	}
	w, err := pipeline.NewWorker(big, pipeline.WorkerConfig{Registry: reg, Lease: killLease, MaxInFlight: 2,
		PollInterval: 10 * time.Millisecond, IdlePollMax: 50 * time.Millisecond, BusyDelay: 20 * time.Millisecond,
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return err
	}
	if err := w.Start(ctx); err != nil {
		return err
	}
	<-term
	dctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	return w.Shutdown(dctx)
}

// killOptions is the source of the kill test: key k reads <stream>.orders.k.
func killOptions(stream string) jetstream.Options {
	return jetstream.Options{Stream: stream, AckWait: time.Minute,
		Subjects: func(key string) []string { return []string{stream + ".orders." + key} }}
}

// killConsumer is the consumer every process of the kill test declares.
// Handle logs what it was handed outside its transaction (deliveries), waits
// while the test holds its process (holds: a batch in hand for as long as
// the test wants; held says which keys wait), then writes the effects in its
// transaction.
func killConsumer(pool *pgxpool.Pool, src *jetstream.Source) *consumer.Consumer[jetstream.Message, uint64] {
	pid := os.Getpid()
	return consumer.MustNew(consumer.Options[jetstream.Message, uint64]{
		Name:   "js-killed",
		Keys:   func(context.Context, pgx.Tx) ([]string, error) { return killKeys, nil },
		Open:   src.Open,
		Cursor: consumer.StoredCursor[uint64](),
		Batch:  killBatch,
		Handle: func(ctx context.Context, tx pgx.Tx, key string, msgs []jetstream.Message) (uint64, error) {
			seqs := make([]int64, len(msgs))
			for i, m := range msgs {
				seqs[i] = int64(m.Sequence)
			}
			if _, err := pool.Exec(ctx, `insert into deliveries select $1, unnest($2::bigint[]), $3`, key, seqs, pid); err != nil {
				return 0, err
			}
			if err := awaitUnheld(ctx, pool, pid, key); err != nil {
				return 0, err
			}
			if _, err := tx.Exec(ctx, `insert into effects select $1, unnest($2::bigint[])`, key, seqs); err != nil {
				return 0, err
			}
			return jetstream.Cursor(msgs), nil
		},
	})
}

// awaitUnheld waits while the test holds the process pid, saying so once
// (held) for key: its batch is then in hand until the test lets it go.
func awaitUnheld(ctx context.Context, pool *pgxpool.Pool, pid int, key string) error {
	for said := false; ; said = true {
		var held bool
		if err := pool.QueryRow(ctx, `select exists (select 1 from holds where pid = $1)`, pid).Scan(&held); err != nil || !held {
			return err
		}
		if !said {
			if _, err := pool.Exec(ctx, `insert into held values ($1, $2)`, pid, key); err != nil {
				return err
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(5 * time.Millisecond):
		}
	}
}
