package webhook

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/outbox"
	"github.com/pipekit/pipe/pipeline"
)

// Staged is an outbound webhook whose first attempts go out through the
// outbox: [Staged.Stage] writes each delivery into pipe.outbox inside the
// application's transaction, an outbox relay hands the stream to the
// Staged (its [outbox.Publisher]) a batch at a time, and each delivery of
// the batch is posted once, signed and recorded in the ledger as attempt 0
// under its message id. A delivery that is not delivered on that attempt —
// failed, throttled, rejected, refused, its endpoint disabled or held
// ([StagedHold]) — is handed to the webhook's job ([Staged.Job]) as
// a run of its own, after the job's first backoff (or the endpoint's
// Retry-After), and goes on as every run does: its own attempts and
// backoff, its dead letter, disable-after-N counted when it ends failed.
//
// A delivered delivery is never a run: it costs the outbox row and its
// ledger row, not a run's claim and settle, which is what lets a backlog
// go out at the speed of the endpoint (pipe bench webhooks). It is found in
// the ledger and the outbox (`pipe outbox status`), not in `pipe jobs`.
type Staged[In any] struct {
	d     *deliverer[In]
	job   *pipeline.Job[In, Result]
	key   func(In) string
	db    pipeline.DB
	holds *holds
	// stagedTimeout is StagedTimeout (a test's shorter one)
	stagedTimeout time.Duration
}

// NewStaged declares a staged webhook named name, its deliveries staged on
// the outbox stream of the same name; db is where failed deliveries are
// enqueued as runs of [Staged.Job]. Options are [New]'s; MaxConnsPerHost
// (default 64) is also how many deliveries of a batch are posted at once.
func NewStaged[In any](name string, key func(In) string, db pipeline.DB, o Options[In]) (*Staged[In], error) {
	d, job, err := declare(name, key, o)
	if err != nil {
		return nil, err
	}
	if db == nil {
		return nil, errcode.New(errcode.JobDeclarationInvalid, "webhook %s: the staged webhook's database is nil", label(name)).
			WithFix("pass the pool the relay's worker uses")
	}
	if len(name) > outbox.MaxStreamLen {
		return nil, errcode.New(errcode.JobDeclarationInvalid, "webhook %s: a staged webhook's name is its outbox stream: at most %d characters", label(name), outbox.MaxStreamLen).
			WithFix("shorten the name")
	}
	return &Staged[In]{d: d, job: job, key: key, db: db, holds: &holds{until: map[string]time.Time{}, now: time.Now},
		stagedTimeout: StagedTimeout}, nil
}

// MustStaged is [NewStaged] that panics on a bad declaration, for
// package-level variables.
func MustStaged[In any](name string, key func(In) string, db pipeline.DB, o Options[In]) *Staged[In] {
	s, err := NewStaged(name, key, db, o)
	if err != nil {
		panic(err)
	}
	return s
}

// Job is the webhook's job, which runs the deliveries a relay handed on:
// register it with the workers as any job.
func (s *Staged[In]) Job() *pipeline.Job[In, Result] { return s.job }

// Stream is the outbox stream to give a relay ([outbox.Options.Streams]):
// the webhook's name, published by s.
func (s *Staged[In]) Stream() outbox.Stream {
	return outbox.Stream{Name: s.d.name, Ordering: outbox.ByKey, Publisher: s}
}

// Stage writes one delivery per input into pipe.outbox through db — the
// application's transaction, or a pool to commit at once — keyed by the
// job's key. An input that does not encode, or whose key is longer than an
// outbox key, is X_OUTBOX_MESSAGE_INVALID and nothing is staged.
func (s *Staged[In]) Stage(ctx context.Context, db pipeline.DB, ins ...In) error {
	ms := make([]outbox.Message, len(ins))
	for i, in := range ins {
		if err := s.job.CheckTenant(ctx, in); err != nil {
			return err // its run would be refused the same: nothing is staged
		}
		body, err := json.Marshal(in)
		if err != nil {
			return errcode.Wrap(err, errcode.OutboxMessageInvalid, "webhook %s: delivery %d does not encode as JSON", s.d.name, i).
				WithFix("give the input a type encoding/json can encode")
		}
		ms[i] = outbox.Message{Stream: s.d.name, Key: s.key(in), Payload: body}
	}
	_, err := outbox.StageMany(ctx, db, ms)
	return err
}

// Publish posts a batch's deliveries, MaxConnsPerHost at once, and hands
// each one not delivered to the job. It answers once every delivery is
// delivered or its run is committed; an error (a hand-off not written)
// makes the relay publish the batch again, the delivered ones under the
// same webhook-id.
func (s *Staged[In]) Publish(ctx context.Context, batch []outbox.Envelope) error {
	ins := make([]In, len(batch))
	for i, e := range batch {
		if err := json.Unmarshal(e.Payload, &ins[i]); err != nil {
			return outbox.Refused(err, "webhook %s: a staged delivery does not decode as the webhook's input", s.d.name)
		}
	}
	sem := make(chan struct{}, s.d.o.connsPerHost())
	var wg sync.WaitGroup
	handoffs := make([]time.Duration, len(batch))
	recorded := make([]error, len(batch))
	backoff := s.job.Retry().DelayFor(1, rand.Float64()) // one roll a batch: its failures wait alike
	for i := range batch {
		sem <- struct{}{}
		wg.Go(func() {
			var a *Attempt
			handoffs[i], a = s.attempt(ctx, batch[i].ID, ins[i], backoff)
			<-sem // the next delivery is posted while this one's ledger row is written
			if a != nil {
				recorded[i] = s.d.record(ctx, *a)
			}
		})
	}
	wg.Wait()
	if err := errors.Join(recorded...); err != nil {
		return outbox.Unavailable(err, "webhook "+s.d.name, "recording the batch's attempts")
	}
	return s.handOff(ctx, ins, handoffs)
}

// Close releases the client's idle connections (the job's runs post
// through the same client).
func (s *Staged[In]) Close() error {
	s.d.client.http.CloseIdleConnections()
	return nil
}

// attempt makes a delivery's staged attempt and answers how long its run
// is to wait (backoff, unless the endpoint said otherwise), or -1 when it
// was delivered, and the attempt for the ledger when a request was made.
func (s *Staged[In]) attempt(ctx context.Context, msgID string, in In, backoff time.Duration) (time.Duration, *Attempt) {
	var made *Attempt
	keep := func(_ context.Context, a Attempt) error {
		made = &a
		return nil
	}
	_, endpointID, err := s.d.once(ctx, in, try{runID: msgID, skip: s.holds.held, record: keep, bound: s.timeout()})
	if errors.Is(err, errSkipped) {
		return 0, nil // its endpoint is held: the run follows it at its own backoff
	}
	if err == nil {
		if s.d.o.Health != nil {
			// A reset not written is written by the endpoint's next
			// delivery: the delivery itself stands.
			_ = s.d.o.Health.Delivered(ctx, endpointID)
		}
		return -1, made
	}
	if endpointID != "" && holdsEndpoint(err) {
		s.holds.hold(endpointID)
	}
	return s.wait(err, backoff), made
}

// timeout answers a staged attempt's bound: StagedTimeout, or the job's
// Timeout when it is shorter.
func (s *Staged[In]) timeout() time.Duration {
	if t := s.d.o.Job.Timeout; t > 0 && t < s.stagedTimeout {
		return t
	}
	return s.stagedTimeout
}

// wait answers the wait before a failed delivery's run: the endpoint's
// Retry-After when it gave one, else backoff (the job's first); none for
// an answer that retrying cannot change (the run ends it at once).
func (s *Staged[In]) wait(err error, backoff time.Duration) time.Duration {
	if secs, ok := errcode.RetryAfterSeconds(err); ok {
		return min(time.Duration(secs)*time.Second, s.job.Retry().MaxDelay)
	}
	if errcode.Classify(err) == errcode.Terminal {
		return 0
	}
	return backoff
}

// handOff enqueues each delivery with a wait (not -1) as a run of the
// job after it, one EnqueueMany a wait; a run already live for a key (a
// batch published again) answers it.
func (s *Staged[In]) handOff(ctx context.Context, ins []In, waits []time.Duration) error {
	byWait := map[time.Duration][]In{}
	for i, w := range waits {
		if w >= 0 {
			byWait[w] = append(byWait[w], ins[i])
		}
	}
	for w, group := range byWait {
		for lo := 0; lo < len(group); lo += pipeline.MaxEnqueueBatch {
			chunk := group[lo:min(lo+pipeline.MaxEnqueueBatch, len(group))]
			if _, err := s.job.EnqueueMany(ctx, s.db, chunk, pipeline.EnqueueOptions{Delay: w}); err != nil {
				return outbox.Unavailable(err, "webhook "+s.d.name, "handing failed deliveries to its job")
			}
		}
	}
	return nil
}
