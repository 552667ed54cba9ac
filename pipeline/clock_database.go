package pipeline

import (
	"context"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// DatabaseClock is a Clock that reads the database clock (pipe.now()), so
// every process sharing one database shares one time. In production it
// follows the server's clock; under the test kit's frozen clock
// (fixtures.FreezeClock) every process — a scheduler in a child process
// included — stands still until the test advances it. Waits poll the
// database every poll (default 10 ms). A read that fails (the database
// slow to answer within clockReadTimeout, or gone) answers the last time
// read, moved on by the local clock's time since that read — never the
// local clock itself, which under a frozen clock is months away, and a
// wait begun on it would never end. Before any read has answered, Now
// tries again every poll until one does, for up to clockReadTimeout, and
// only then answers the local clock.
func DatabaseClock(pool *pgxpool.Pool, poll time.Duration) Clock {
	if poll <= 0 {
		poll = 10 * time.Millisecond
	}
	return &databaseClock{pool: pool, poll: poll}
}

// clockReadTimeout bounds one read of the database clock.
const clockReadTimeout = 5 * time.Second

type databaseClock struct {
	pool *pgxpool.Pool
	poll time.Duration

	mu     sync.Mutex
	last   time.Time // the database time last read
	readAt time.Time // the local time of that read, monotonic
}

func (c *databaseClock) Now() time.Time {
	deadline := time.Now().Add(clockReadTimeout)
	for {
		now, err := c.read(deadline)
		c.mu.Lock()
		switch {
		case err == nil:
			c.last, c.readAt = now, time.Now()
		case !c.readAt.IsZero():
			now = c.last.Add(time.Since(c.readAt))
		case time.Now().After(deadline):
			now = time.Now()
		default:
			c.mu.Unlock()
			time.Sleep(c.poll) // no time read yet: try again until the deadline
			continue
		}
		c.mu.Unlock()
		return now
	}
}

// read reads the database clock once, by the deadline.
func (c *databaseClock) read(deadline time.Time) (time.Time, error) {
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	var now time.Time
	err := c.pool.QueryRow(ctx, `select pipe.now()`).Scan(&now)
	return now, err
}

func (c *databaseClock) After(d time.Duration) <-chan time.Time {
	ch := make(chan time.Time, 1)
	due := c.Now().Add(d)
	go func() {
		for {
			if now := c.Now(); !now.Before(due) {
				ch <- now
				return
			}
			time.Sleep(c.poll)
		}
	}()
	return ch
}
