// watermillfwd: an anchor for the outbox relay — Watermill's forwarder
// (components/forwarder) relaying messages staged in PostgreSQL through
// watermill-sql to NATS JetStream, measured as `pipe bench outbox` measures
// pipe's relay: N messages of 1 KiB staged first, then the forwarder timed
// from its start until JetStream has acknowledged the last of them.
//
// Staging goes through forwarder.NewPublisher wrapping a watermill-sql
// publisher on a transaction: one Publish call of 1,000 messages a
// transaction, which watermill-sql writes as one multi-row INSERT. The
// forwarder reads the forwarder topic with a watermill-sql subscriber
// (Postgres schema and offsets adapters, pgx through database/sql) and
// publishes each message with jsPublisher (publisher.go).
//
// The stream, the watermill tables and the forwarder are its own: made
// before each figure, dropped after.
package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	wsql "github.com/ThreeDotsLabs/watermill-sql/v4/pkg/sql"
	"github.com/ThreeDotsLabs/watermill/components/forwarder"
	"github.com/ThreeDotsLabs/watermill/message"
	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

const (
	// fwdTopic is the forwarder topic: watermill-sql keeps it in the tables
	// watermill_<topic> and watermill_offsets_<topic>.
	fwdTopic = "pipe_bench_watermill_fwd"
	// jsName is the JetStream stream; destTopic, the topic each message is
	// published to through the forwarder, is one of its subjects.
	jsName    = "PIPE_BENCH_WATERMILL"
	destTopic = jsName + ".orders"
	// stageChunk is how many messages a staging transaction holds.
	stageChunk = 1000
)

// payload is every message's body: 1 KiB, as in pipe's bench.
var payload = []byte(strings.Repeat("p", 1024))

// figure is one batch size's result.
type figure struct {
	Name      string  `json:"name"`
	Rows      int     `json:"rows"`
	Batch     int     `json:"batch"`
	PollMs    float64 `json:"pollMs"`
	StageSecs float64 `json:"stageSeconds"`
	StageRate float64 `json:"stageRate"`
	Seconds   float64 `json:"seconds"`
	Rate      float64 `json:"rate"`
	// CommittedSecs is the time until the subscriber's offset was
	// committed past the last message, a little after its ack.
	CommittedSecs float64 `json:"committedSeconds"`
	StreamCount   uint64  `json:"streamMessages"`
}

func main() {
	url := flag.String("url", "postgres://postgres@127.0.0.1:5432/postgres", "PostgreSQL URL")
	natsURL := flag.String("nats", "nats://127.0.0.1:4222", "NATS JetStream server")
	n := flag.Int("n", 100_000, "messages staged and forwarded")
	batches := flag.String("batch", "1000", "the SQL subscriber's batch sizes (SubscribeBatchSize), comma-separated: one figure each")
	poll := flag.Duration("poll", 10*time.Millisecond, "the SQL subscriber's poll interval (waited only after a query finds no message)")
	asJSON := flag.Bool("json", false, "print each figure as a JSON object too")
	flag.Parse()
	sizes, err := parseSizes(*batches)
	if err != nil || *n < 1 || *poll <= 0 {
		fmt.Fprintln(os.Stderr, "watermillfwd: -n and each -batch size must be 1 or more, -poll positive")
		os.Exit(2)
	}

	ctx := context.Background()
	db, err := sql.Open("pgx", *url)
	must(err)
	defer db.Close()
	nc, err := nats.Connect(*natsURL)
	must(err)
	defer nc.Close()
	js, err := jetstream.New(nc)
	must(err)
	// Warnings and errors only: a forwarder that fails to publish retries
	// in silence otherwise.
	stopping := new(atomic.Bool)
	logger := quietLogger{watermill.NewSlogLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))), stopping}

	b := bench{db: db, js: js, logger: logger, stopping: stopping, n: *n, poll: *poll}
	defer b.clean(context.Background())
	for _, size := range sizes {
		f, err := b.run(ctx, size)
		must(err)
		fmt.Printf("watermill forwarder: %d rows of 1 KiB to JetStream in %.2f s (%.0f rows/s; subscriber batch %d)\n",
			f.Rows, f.Seconds, f.Rate, f.Batch)
		fmt.Printf("  offset committed past the last message at %.2f s; staged first through forwarder.NewPublisher, %d a transaction: %.2f s (%.0f rows/s)\n",
			f.CommittedSecs, stageChunk, f.StageSecs, f.StageRate)
		if *asJSON {
			out, _ := json.Marshal(f)
			fmt.Println(string(out))
		}
	}
}

// bench holds what every figure shares.
type bench struct {
	db     *sql.DB
	js     jetstream.JetStream
	logger watermill.LoggerAdapter
	// stopping is set once a figure's forwarder has done its work.
	stopping *atomic.Bool
	n        int
	poll     time.Duration
}

// schema and offsets are watermill-sql's PostgreSQL adapters, as its docs
// set them up (payload column JSON: the forwarder's envelope is JSON).
func (b bench) schema(batch int) wsql.DefaultPostgreSQLSchema {
	return wsql.DefaultPostgreSQLSchema{SubscribeBatchSize: batch}
}

var offsets = wsql.DefaultPostgreSQLOffsetsAdapter{}

// run measures one figure at subscriber batch size batch, on a fresh
// stream and fresh tables, and cleans up after.
func (b bench) run(ctx context.Context, batch int) (figure, error) {
	f := figure{Name: "watermill-forwarder", Rows: b.n, Batch: batch, PollMs: float64(b.poll) / float64(time.Millisecond)}
	if err := b.clean(ctx); err != nil {
		return f, err
	}
	defer b.clean(context.Background())
	if _, err := b.js.CreateStream(ctx, jetstream.StreamConfig{Name: jsName, Subjects: []string{jsName + ".>"}, Storage: jetstream.FileStorage}); err != nil {
		return f, err
	}
	sub, err := wsql.NewSubscriber(wsql.BeginnerFromStdSQL(b.db), wsql.SubscriberConfig{
		SchemaAdapter: b.schema(batch), OffsetsAdapter: offsets, PollInterval: b.poll,
	}, b.logger)
	if err != nil {
		return f, err
	}
	defer sub.Close()
	if err := sub.SubscribeInitialize(fwdTopic); err != nil {
		return f, err
	}

	start := time.Now()
	if err := b.stage(ctx, batch); err != nil {
		return f, err
	}
	stage := time.Since(start)
	f.StageSecs, f.StageRate = stage.Seconds(), float64(b.n)/stage.Seconds()
	// As pipe's bench analyzes pipe.outbox after staging (this server may
	// run with autovacuum off).
	if _, err := b.db.ExecContext(ctx, `analyze "watermill_`+fwdTopic+`", "watermill_offsets_`+fwdTopic+`"`); err != nil {
		return f, err
	}

	acked, committed, err := b.forward(ctx, sub)
	if err != nil {
		return f, err
	}
	f.Seconds, f.Rate = acked.Seconds(), float64(b.n)/acked.Seconds()
	f.CommittedSecs = committed.Seconds()
	st, err := b.js.Stream(ctx, jsName)
	if err != nil {
		return f, err
	}
	info, err := st.Info(ctx)
	if err != nil {
		return f, err
	}
	f.StreamCount = info.State.Msgs
	if f.StreamCount != uint64(b.n) {
		return f, fmt.Errorf("the stream holds %d messages, want %d", f.StreamCount, b.n)
	}
	return f, nil
}

// stage publishes b.n messages through the forwarder's publisher, which
// wraps each in its envelope (destination topic, UUID, payload, metadata,
// as JSON) and hands them to a watermill-sql publisher on the transaction:
// one Publish call and one commit per stageChunk messages.
func (b bench) stage(ctx context.Context, batch int) error {
	msgs := make([]*message.Message, 0, stageChunk)
	for i := 0; i < b.n; i += len(msgs) {
		msgs = msgs[:0]
		for j := i; j < min(b.n, i+stageChunk); j++ {
			msgs = append(msgs, message.NewMessage(watermill.NewUUID(), payload))
		}
		tx, err := b.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		pub, err := wsql.NewPublisher(wsql.TxFromStdSQL(tx), wsql.PublisherConfig{SchemaAdapter: b.schema(batch)}, b.logger)
		if err != nil {
			_ = tx.Rollback()
			return err
		}
		fpub := forwarder.NewPublisher(pub, forwarder.PublisherConfig{ForwarderTopic: fwdTopic})
		if err := fpub.Publish(destTopic, msgs...); err != nil {
			_ = tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return err
		}
	}
	return nil
}

// forward runs a forwarder from the forwarder topic to JetStream and
// answers the time from its start until JetStream has acknowledged b.n
// messages, and the time until the subscriber has committed its offset
// past the last of them (the moment pipe's bench stops its clock, the
// relay's cursor saved); it stops the forwarder only then, so that no
// batch is cut short.
func (b bench) forward(ctx context.Context, sub message.Subscriber) (acked, committed time.Duration, err error) {
	var last int64
	if err := b.db.QueryRowContext(ctx, `select max("offset") from "watermill_`+fwdTopic+`"`).Scan(&last); err != nil {
		return 0, 0, err
	}
	pub := newJSPublisher(b.js, b.n)
	fwd, err := forwarder.NewForwarder(sub, pub, b.logger, forwarder.Config{ForwarderTopic: fwdTopic, CloseTimeout: 10 * time.Second})
	if err != nil {
		return 0, 0, err
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	failed := make(chan error, 1)
	start := time.Now()
	b.stopping.Store(false)
	go func() { failed <- fwd.Run(runCtx) }()
	defer fwd.Close()
	defer b.stopping.Store(true)
	// Generous: at a small batch each poll reads every row still to forward.
	deadline := time.After(time.Duration(b.n)*time.Millisecond + 10*time.Minute)
	select {
	case <-pub.done:
		acked = time.Since(start)
	case err := <-failed:
		return 0, 0, fmt.Errorf("the forwarder stopped: %v", err)
	case <-deadline:
		return 0, 0, errors.New("the forwarder did not finish in time")
	}
	for {
		var offset int64
		err := b.db.QueryRowContext(ctx, `select coalesce((select offset_acked from "watermill_offsets_`+fwdTopic+`" where consumer_group = ''), 0)`).Scan(&offset)
		if err != nil {
			return 0, 0, err
		}
		if offset >= last {
			return acked, time.Since(start), nil
		}
		select {
		case err := <-failed:
			return 0, 0, fmt.Errorf("the forwarder stopped: %v", err)
		case <-deadline:
			return 0, 0, errors.New("the forwarder did not commit its offset in time")
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// clean deletes the stream and drops the watermill tables.
func (b bench) clean(ctx context.Context) error {
	if err := b.js.DeleteStream(ctx, jsName); err != nil && !errors.Is(err, jetstream.ErrStreamNotFound) {
		return err
	}
	_, err := b.db.ExecContext(ctx, `drop table if exists "watermill_`+fwdTopic+`", "watermill_offsets_`+fwdTopic+`"`)
	return err
}

// quietLogger passes watermill's logs on, except, once the forwarder is
// stopping, the errors of its subscriber's next poll cut short by the stop
// (a query, commit or rollback on a canceled context).
type quietLogger struct {
	watermill.LoggerAdapter
	stopping *atomic.Bool
}

func (l quietLogger) Error(msg string, err error, fields watermill.LogFields) {
	if l.stopping.Load() {
		cause, _ := fields["query_err"].(error)
		if errors.Is(err, context.Canceled) || errors.Is(cause, context.Canceled) {
			return
		}
	}
	l.LoggerAdapter.Error(msg, err, fields)
}

func (l quietLogger) With(fields watermill.LogFields) watermill.LoggerAdapter {
	return quietLogger{l.LoggerAdapter.With(fields), l.stopping}
}

// parseSizes reads a comma-separated list of positive sizes.
func parseSizes(s string) ([]int, error) {
	var sizes []int
	for _, p := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || v < 1 {
			return nil, fmt.Errorf("bad size %q", p)
		}
		sizes = append(sizes, v)
	}
	return sizes, nil
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "watermillfwd:", err)
		os.Exit(1)
	}
}
