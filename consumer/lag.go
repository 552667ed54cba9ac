package consumer

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/pipeline"
)

// lagMeter remembers the last measure of a run's lag.
type lagMeter struct {
	at       time.Time
	measured bool
	lag      int64
	done     int64
}

// measureLag asks Lag how far the cursor is behind — at most once every
// LagEvery, and as soon as the feed goes quiet after batches (idle), never
// twice in a second — in a transaction fenced on the claim, and reports it
// as the run's progress (done, done+lag) when it or done changed: a run
// that stays idle writes nothing. Without Lag it does nothing.
func (r *runner[T, C]) measureLag(ctx context.Context, idle bool) error {
	lagFn := r.c.o.Lag
	if lagFn == nil || !r.lagDue(idle) {
		return nil
	}
	var lag int64
	err := pipeline.FencedTx(ctx, func(ctx context.Context, tx pgx.Tx) (any, error) {
		var err error
		lag, err = lagFn(ctx, tx, r.key, r.cursor)
		return nil, err
	})
	if err != nil {
		return err
	}
	done := r.st.doc.Consumer.Items
	changed := !r.lag.measured || lag != r.lag.lag || done != r.lag.done
	if changed {
		if err := pipeline.Progress(ctx, done, done+lag, ""); err != nil {
			return err
		}
	}
	// Stamped after the report, so that the next one comes a second after
	// it at least and is never held back by Progress' own limit.
	r.lag = lagMeter{at: time.Now(), measured: true, lag: lag, done: done}
	return nil
}

// IdleLagEvery is the most time between two measures of the lag of a run
// whose feed stays quiet with nothing committed since the last measure.
const IdleLagEvery = time.Minute

func (r *runner[T, C]) lagDue(idle bool) bool {
	if !r.lag.measured {
		return true
	}
	since := time.Since(r.lag.at)
	if since < time.Second {
		return false
	}
	if !idle {
		return since >= r.c.o.LagEvery
	}
	return r.st.doc.Consumer.Items != r.lag.done || since >= max(r.c.o.LagEvery, IdleLagEvery)
}
