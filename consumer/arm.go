package consumer

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// armBody asks Keys which keys should be running and enqueues each, in one
// step whose transaction holds the enqueues: a key with a live run dedupes
// onto it (a no-op while it runs), a key whose run ended — done, failed,
// dead — gets a fresh run.
func (c *Consumer[T, C]) armBody(ctx context.Context, _ *pipeline.Run[ArmInput]) (ArmResult, error) {
	return pipeline.StepTx(ctx, "arm", func(ctx context.Context, tx pgx.Tx) (ArmResult, error) {
		keys, err := c.o.Keys(ctx, tx)
		if err != nil {
			return ArmResult{}, err
		}
		ins, err := c.inputs(keys)
		if err != nil {
			return ArmResult{}, err
		}
		res := ArmResult{Keys: len(ins)}
		for lo := 0; lo < len(ins); lo += pipeline.MaxEnqueueBatch {
			out, err := c.run.EnqueueMany(ctx, tx, ins[lo:min(lo+pipeline.MaxEnqueueBatch, len(ins))])
			if err != nil {
				return ArmResult{}, err
			}
			for _, r := range out {
				if r.Deduped {
					res.Running++
				} else {
					res.Started++
				}
			}
		}
		return res, nil
	})
}

// inputs answers one run input per distinct key, in Keys' order, refusing a
// key that cannot be one.
func (c *Consumer[T, C]) inputs(keys []string) ([]Input, error) {
	seen := make(map[string]bool, len(keys))
	ins := make([]Input, 0, len(keys))
	for i, k := range keys {
		if err := checkKey(c.o.Name, i, k); err != nil {
			return nil, err
		}
		if !seen[k] {
			seen[k] = true
			ins = append(ins, Input{Key: k})
		}
	}
	return ins, nil
}

// checkKey refuses an empty key or one longer than MaxKeyLen, naming its
// position, never its value.
func checkKey(name string, i int, key string) error {
	if key == "" || len(key) > MaxKeyLen {
		return errcode.New(errcode.ConsumerKeyInvalid, "consumer %s: key %d is empty or longer than %d characters", name, i, MaxKeyLen).
			WithFix("answer keys of 1 to 200 characters from Keys")
	}
	return nil
}
