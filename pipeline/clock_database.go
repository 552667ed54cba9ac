package pipeline

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// DatabaseClock is a Clock that reads the database clock (pipe.now()), so
// every process sharing one database shares one time. In production it
// follows the server's clock; under the test kit's frozen clock
// (fixtures.FreezeClock) every process — a scheduler in a child process
// included — stands still until the test advances it. Waits poll the
// database every poll (default 10 ms). A read that fails answers the local
// clock.
func DatabaseClock(pool *pgxpool.Pool, poll time.Duration) Clock {
	if poll <= 0 {
		poll = 10 * time.Millisecond
	}
	return &databaseClock{pool: pool, poll: poll}
}

type databaseClock struct {
	pool *pgxpool.Pool
	poll time.Duration
}

func (c *databaseClock) Now() time.Time {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	var now time.Time
	if err := c.pool.QueryRow(ctx, `select pipe.now()`).Scan(&now); err != nil {
		return time.Now()
	}
	return now
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
