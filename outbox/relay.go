package outbox

import (
	"cmp"
	"context"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/consumer"
	"github.com/pipekit/pipe/consumer/pgtail"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pg"
	"github.com/pipekit/pipe/pipeline"
)

// Defaults of [Options].
const (
	// DefaultName is the default of [Options].Name.
	DefaultName = "outbox"
	// DefaultBatch is the default of [Options].Batch: the spec's relay's.
	DefaultBatch = 500
	// DefaultPoll is the default of [Options].Poll.
	DefaultPoll = 10 * time.Millisecond
	// DefaultIdlePollMax is the default of [Options].IdlePollMax.
	DefaultIdlePollMax = 5 * time.Second
	// WakeChannel is the channel staging notifies, the stream as payload.
	WakeChannel = "pipe_outbox"
	// DefaultRetryMaxDelay is the longest wait between two attempts of a
	// runner whose broker is away (Options.Job.Retry's default MaxDelay):
	// the relay is back at most this long after its broker.
	DefaultRetryMaxDelay = 5 * time.Second
)

// Ordering is what a message refused for good holds back.
type Ordering int

const (
	// ByStream keeps the stream's order: a dead message holds every later
	// message of its stream until it is retried.
	ByStream Ordering = iota
	// ByKey keeps each key's order: a dead message holds only the later
	// messages of its key; the stream's other keys go on.
	ByKey
)

// Stream declares one stream a relay publishes.
type Stream struct {
	// Name is the stream, as messages are staged with it. Required.
	Name string
	// Ordering is what a dead message holds back. Default ByStream.
	Ordering Ordering
	// Publisher publishes the stream. Default: the relay's Publisher.
	Publisher Publisher
}

// Options declare a relay. Each field's comment gives its default.
type Options struct {
	// Name is the relay's durable name: its consumer's (and so its run
	// job's and its queue's). Default "outbox".
	Name string
	// Streams are the streams the relay publishes, one runner each,
	// fleet-wide. Required.
	Streams []Stream
	// Publisher publishes every stream that names none.
	Publisher Publisher
	// Batch is the most messages one batch publishes and marks. Default
	// 500.
	Batch int
	// Poll is how often a caught-up runner looks for new rows while its
	// wake is unproven (see IdlePollMax), and the first wait after rows.
	// Default 10ms.
	Poll time.Duration
	// IdlePollMax is the longest wait between two looks of a caught-up
	// runner once its wake is proven: staging notifies WakeChannel on
	// commit, the relay LISTENs on a dedicated connection and proves it by
	// a probe; a runner then backs off from Poll, doubling, to IdlePollMax,
	// and looks at once when its stream is notified. Unproven (LISTEN
	// through a transaction-pooling PgBouncer, say), it polls every Poll.
	// Default 5s.
	IdlePollMax time.Duration
	// Listen is where the wake's LISTEN session connects (made by
	// pgx.ParseConfig). Default: the worker's pool's own settings.
	Listen *pgx.ConnConfig
	// Rearm is how often the relay's supervisor starts the runners that
	// stopped (see consumer.Options.Rearm). Default 1m.
	Rearm time.Duration
	// Retain is how long published rows are kept: the relay's hourly task
	// <Name>.prune deletes older ones. Default 24h.
	Retain time.Duration
	// Logger hears outbox.publish.failed. Default slog.Default().
	Logger *slog.Logger
	// Job are the runners' job options (see consumer.Options.Job). Retry
	// defaults to 5,000 attempts from 1s, at most DefaultRetryMaxDelay
	// (5s) apart: a broker away for hours is waited for, and the relay is
	// back within seconds of it.
	Job pipeline.JobOptions[consumer.Input, consumer.Result]
}

// Relay publishes committed outbox rows, one runner per stream, on the
// consumer room: each runner follows pipe.outbox through a table tail
// (consumer/pgtail), so it never passes a row still in flight, publishes a
// batch and records it (pipe.outbox_batches) in the batch's transaction
// with the cursor.
type Relay struct {
	o       Options
	streams map[string]Stream
	c       *consumer.Consumer[item, int64]
	log     *slog.Logger

	prune     *pipeline.Job[PruneInput, PruneResult]
	pruneTask *pipeline.Task

	mu    sync.Mutex
	feeds map[string]*feed
	tails map[*pgxpool.Pool]*pgtail.Tail[Envelope]
}

// New declares a relay. It runs on the pool of the worker that runs it.
// Every fault of the declaration is named in one X_OUTBOX_INVALID.
func New(o Options) (*Relay, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	r := &Relay{o: o, streams: map[string]Stream{}, log: o.Logger, feeds: map[string]*feed{}, tails: map[*pgxpool.Pool]*pgtail.Tail[Envelope]{}}
	for _, s := range o.Streams {
		r.streams[s.Name] = s
	}
	names := r.names()
	r.c, err = consumer.New(consumer.Options[item, int64]{
		Name:   o.Name,
		Keys:   func(context.Context, pgx.Tx) ([]string, error) { return names, nil },
		Open:   r.open,
		Handle: r.handle,
		Cursor: consumer.StoredCursor[int64](),
		Batch:  o.Batch,
		Rearm:  o.Rearm,
		Lag:    r.lag,
		Job:    o.Job,
	})
	if err != nil {
		return nil, err
	}
	if err := r.declarePrune(); err != nil {
		return nil, err
	}
	return r, nil
}

// MustNew is [New] that panics on a bad declaration.
func MustNew(o Options) *Relay {
	r, err := New(o)
	if err != nil {
		panic(err)
	}
	return r
}

// tail answers the tail of pipe.outbox on the pool of the worker running
// ctx's run.
func (r *Relay) tail(ctx context.Context) (*pgtail.Tail[Envelope], error) {
	pool := pipeline.Pool(ctx)
	r.mu.Lock()
	defer r.mu.Unlock()
	if t, ok := r.tails[pool]; ok {
		return t, nil
	}
	t, err := pgtail.New(pool, pgtail.Options[Envelope]{
		Table: pg.Relation{Schema: "pipe", Name: "outbox"}, Columns: envelopeColumns,
		Where: "stream = $1", Args: func(key string) []any { return []any{key} },
		Scan: scanEnvelope, Poll: r.o.Poll,
		Channel: WakeChannel, IdlePollMax: r.o.IdlePollMax, Listen: r.o.Listen, Logger: r.log.With("relay", r.o.Name),
	})
	if err != nil {
		return nil, err
	}
	r.tails[pool] = t
	return t, nil
}

// lag is the runners' Lag: the stream's rows past the cursor.
func (r *Relay) lag(ctx context.Context, tx pgx.Tx, stream string, cursor int64) (int64, error) {
	t, err := r.tail(ctx)
	if err != nil {
		return 0, err
	}
	return t.Lag(ctx, tx, stream, cursor)
}

func (o Options) withDefaults() (Options, error) {
	var faults []string
	seen := map[string]bool{}
	if len(o.Streams) == 0 {
		faults = append(faults, "no stream is declared")
	}
	for i, s := range o.Streams {
		switch {
		case s.Name == "" || len(s.Name) > MaxStreamLen:
			faults = append(faults, "stream "+strconv.Itoa(i)+" has no name or one longer than 200 characters")
		case seen[s.Name]:
			faults = append(faults, "stream "+strconv.Itoa(i)+" is declared twice")
		case s.Publisher == nil && o.Publisher == nil:
			faults = append(faults, "stream "+strconv.Itoa(i)+" has no publisher")
		case s.Ordering != ByStream && s.Ordering != ByKey:
			faults = append(faults, "stream "+strconv.Itoa(i)+" has an unknown ordering")
		}
		seen[s.Name] = true
	}
	if o.Batch < 0 || o.Poll < 0 || o.IdlePollMax < 0 || o.Retain < 0 {
		faults = append(faults, "Batch, Poll, IdlePollMax or Retain is negative")
	}
	if len(faults) > 0 {
		return o, errcode.New(errcode.OutboxInvalid, "outbox relay: %s", strings.Join(faults, "; ")).
			WithFix("declare each stream once, with a name and a publisher (its own or the relay's)")
	}
	for i, s := range o.Streams {
		if s.Publisher == nil {
			o.Streams[i].Publisher = o.Publisher
		}
	}
	o.Name = cmp.Or(o.Name, DefaultName)
	if o.Batch == 0 {
		o.Batch = DefaultBatch
	}
	if o.Poll == 0 {
		o.Poll = DefaultPoll
	}
	if o.IdlePollMax == 0 {
		o.IdlePollMax = DefaultIdlePollMax
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Retain == 0 {
		o.Retain = DefaultRetain
	}
	if o.Job.Retry == nil {
		o.Job.Retry = &pipeline.Retry{Attempts: 5000, Delay: time.Second, MaxDelay: DefaultRetryMaxDelay}
	}
	return o, nil
}

func (r *Relay) names() []string {
	var out []string
	for _, s := range r.o.Streams {
		out = append(out, s.Name)
	}
	slices.Sort(out)
	return out
}

// Name answers the relay's durable name.
func (r *Relay) Name() string { return r.o.Name }

// Jobs answers the relay's jobs — its runners' (Name), its arm job
// (Name.arm) and its prune job (Name.prune) — for a worker's registry.
func (r *Relay) Jobs() []pipeline.Registrable { return append(r.c.Jobs(), r.prune) }

// Tasks answers the relay's tasks, for a scheduler: Name.supervisor, which
// restarts stopped runners, and Name.prune, which enqueues the hourly
// retention.
func (r *Relay) Tasks() []*pipeline.Task { return []*pipeline.Task{r.c.Supervisor(), r.pruneTask} }

// Arm starts every stream's runner that is not running, through db.
func (r *Relay) Arm(ctx context.Context, db pipeline.DB) (pipeline.EnqueueResult, error) {
	return r.c.Arm(ctx, db)
}
