package jobbench

import (
	"context"
	"fmt"
	"strings"
)

// pickupBacklog is pickup with Backlog jobs already queued: 30% ready, 30%
// delayed and 40% done, half of them in the bench's own queue under another
// job's name (claimable by nobody the bench runs) and half in a queue next
// to it. The claim must find the one new run without reading them: the
// target is a median within twice the empty figure's.
func (b *bench) pickupBacklog(ctx context.Context, name string) (Figure, error) {
	other := name + ".other"
	if err := b.cleanup(ctx, other); err != nil {
		return Figure{}, err
	}
	defer func() { _ = b.cleanup(context.WithoutCancel(ctx), other) }()
	if err := b.fillBacklog(ctx, other); err != nil {
		return Figure{}, err
	}
	f, err := b.pickup(ctx, name, false)
	if err != nil {
		return f, err
	}
	f.Line = strings.Replace(f.Line, FigurePickup+": ", FigurePickupBacklog+": ", 1)
	f.Line = strings.Replace(f.Line, "(same process,", fmt.Sprintf("(same process, %d jobs queued beside it,", b.o.Backlog), 1)
	return f, nil
}

// fillBacklog writes the backlog server-side in one statement, then ANALYZEs
// the table, as autovacuum would after a load of this size.
func (b *bench) fillBacklog(ctx context.Context, name string) error {
	_, err := b.pool.Exec(ctx, `
		insert into pipe.jobs (id, run_id, name, queue, idem_key, input, state, max_attempts, run_at, finished_at)
		select u, u, $1, case when g % 2 = 0 then $2 else $2 || '.other' end, g::text, '{}',
		       case when g % 10 < 3 then 'ready' when g % 10 < 6 then 'delayed' else 'done' end, 3,
		       case when g % 10 < 3 then now() - interval '1 hour'
		            when g % 10 < 6 then now() + interval '1 day' else now() - interval '2 hours' end,
		       case when g % 10 >= 6 then now() - interval '2 hours' end
		from (select gen_random_uuid() as u, g from generate_series(1, $3::int) g) x`, name, b.o.Queue, b.o.Backlog)
	if err != nil {
		return fmt.Errorf("backlog: %w", err)
	}
	_, err = b.pool.Exec(ctx, `analyze pipe.jobs`)
	return err
}
