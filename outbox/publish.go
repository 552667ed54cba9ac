package outbox

import (
	"context"

	"github.com/pipekit/pipe/errcode"
)

// publishBatch publishes the batch's rows that nothing holds back, all at
// once; if the broker refuses the batch it falls back to one row at a time,
// in order, up to a failing row: a row refused for good is dead-lettered
// and holds back its scope, a broker that is away stops the batch there.
func (r *Relay) publishBatch(ctx context.Context, s Stream, b *batch) {
	var envs []Envelope
	var ids, released []int64
	for _, it := range b.items {
		if r.sort(b, it) {
			envs, ids = append(envs, it.Env), append(ids, it.ID)
			if it.Released {
				released = append(released, it.ID)
			}
		}
	}
	if len(envs) == 0 {
		return
	}
	if err := s.Publisher.Publish(ctx, envs); err == nil {
		b.published, b.republished = ids, released
		return
	}
	b.published, b.republished, b.held, b.queued = nil, nil, nil, nil
	for i, it := range b.items {
		if !r.sort(b, it) {
			continue
		}
		err := s.Publisher.Publish(ctx, []Envelope{it.Env})
		switch {
		case err == nil:
			b.published = append(b.published, it.ID)
			if it.Released {
				b.republished = append(b.republished, it.ID)
			}
		case errcode.Classify(err) == errcode.Terminal:
			r.refuse(s, b, it, err)
		default:
			b.stop, b.err = i, unavailable(err)
			return
		}
	}
}

// sort files a row the batch must not publish — held behind a dead row,
// queued behind released rows — and answers whether it may be published.
func (r *Relay) sort(b *batch, it item) bool {
	switch {
	case b.dead.holds(it.Env.Key):
		b.held = append(b.held, it.ID)
		return false
	case !it.Released && b.waiting.holds(it.Env.Key):
		b.queued = append(b.queued, it.ID)
		return false
	}
	return true
}

// refuse dead-letters a row the broker refused for good, names it in the
// log and holds back its scope for the rest of the batch.
func (r *Relay) refuse(s Stream, b *batch, it item, err error) {
	if _, coded := errcode.As(err); !coded {
		err = Refused(err, "outbox: the broker refused message %s", it.Env.ID)
	}
	b.refused = append(b.refused, refusal{it: it, err: err})
	b.dead.add(it.Env.Key)
	r.log.Error("outbox.publish.failed", "relay", r.o.Name, "stream", s.Name, "row", it.ID, "messageId", it.Env.ID,
		"code", string(errcode.CodeOf(err)), "error", err.Error())
}

// unavailable codes a broker failure that is not a refusal.
func unavailable(err error) error {
	if _, coded := errcode.As(err); coded {
		return err
	}
	return Unavailable(err, "broker", "publish")
}
