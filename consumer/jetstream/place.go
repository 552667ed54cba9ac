package jetstream

import (
	"context"
	"errors"

	js "github.com/nats-io/nats.go/jetstream"
)

// place makes key's durable deliver from the message after cursor and
// answers it. The key's messages are never left without a durable that
// holds them: on an Interest stream deleting the only consumer interested
// in a message drops it, so the replacement is created, under the name not
// in use, before the durable in use is deleted; on a Limits or WorkQueue
// stream deleting a consumer drops nothing, so the durables are deleted
// first (a WorkQueue stream refuses two consumers of one subject) and the
// replacement takes the first name.
func (s *Source) place(ctx context.Context, st js.Stream, retention js.RetentionPolicy, key string, cursor uint64) (js.Consumer, error) {
	names, err := s.names(key)
	if err != nil {
		return nil, err
	}
	held, err := s.existing(ctx, names)
	if err != nil {
		return nil, err
	}
	cfg := s.config(key, retention, cursor)
	if retention == js.InterestPolicy {
		return s.replace(ctx, st, cfg, names, held)
	}
	if err := s.drop(ctx, st, held); err != nil {
		return nil, err
	}
	cfg.Durable = names[0]
	return s.create(ctx, st, cfg)
}

// replace creates the replacement under the name not in use, then deletes
// the durable it replaces. An open that died between the two left both:
// each holds every message after the cursor (a durable's acknowledgement
// floor never passes the committed cursor), so the older goes first.
func (s *Source) replace(ctx context.Context, st js.Stream, cfg js.ConsumerConfig, names [2]string, held []held) (js.Consumer, error) {
	if len(held) == 2 {
		if err := s.drop(ctx, st, held[:1]); err != nil {
			return nil, err
		}
		held = held[1:]
	}
	cfg.Durable = names[0]
	if len(held) == 1 && held[0].name == names[0] {
		cfg.Durable = names[1]
	}
	cons, err := s.create(ctx, st, cfg)
	if err != nil {
		return nil, err
	}
	return cons, s.drop(ctx, st, held)
}

// config is the durable of key delivering from the message after cursor:
// acknowledged all at once (the last message of a batch acknowledges it),
// except on a WorkQueue stream, which takes only explicit acknowledgements
// and delivers from its first message (the ones up to cursor, committed
// and not yet acknowledged, are acknowledged as they come and skipped).
func (s *Source) config(key string, retention js.RetentionPolicy, cursor uint64) js.ConsumerConfig {
	cfg := js.ConsumerConfig{AckPolicy: js.AckAllPolicy, AckWait: s.o.AckWait,
		MaxAckPending: s.o.MaxAckPending, DeliverPolicy: js.DeliverAllPolicy}
	switch {
	case retention == js.WorkQueuePolicy:
		cfg.AckPolicy = js.AckExplicitPolicy
	case cursor > 0:
		cfg.DeliverPolicy, cfg.OptStartSeq = js.DeliverByStartSequencePolicy, cursor+1
	}
	if s.o.Subjects != nil {
		// One filter in the field every server version reads; several
		// need a server of 2.10 or later.
		if subjects := s.o.Subjects(key); len(subjects) == 1 {
			cfg.FilterSubject = subjects[0]
		} else {
			cfg.FilterSubjects = subjects
		}
	}
	return cfg
}

func (s *Source) create(ctx context.Context, st js.Stream, cfg js.ConsumerConfig) (js.Consumer, error) {
	cons, err := st.CreateConsumer(ctx, cfg)
	if err != nil {
		return nil, createErr(s.o.Stream, err)
	}
	return cons, nil
}

func (s *Source) drop(ctx context.Context, st js.Stream, held []held) error {
	for _, h := range held {
		if err := st.DeleteConsumer(ctx, h.name); err != nil && !errors.Is(err, js.ErrConsumerNotFound) {
			return unavailable(s.o.Stream, "delete the replaced durable consumer", err)
		}
	}
	return nil
}
