package pipeline

import (
	"context"
	"sync"
	"time"

	"github.com/pipekit/pipe/errcode"
)

// outage follows whether the database answers the worker's claims and lease
// renewals, so that an outage is logged once when it begins and once when it
// ends, however many statements fail in between.
type outage struct {
	mu    sync.Mutex
	since time.Time // zero while the database answers
}

// down reports whether the last claim found the database gone.
func (o *outage) down() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return !o.since.IsZero()
}

// observe takes the error of one claim pass or one renewal.
func (o *outage) observe(log *workerLog, err error, stopping bool) {
	if stopping {
		return
	}
	lost := err != nil && errcode.Unavailable(errcode.Postgres(context.Background(), err, "database"))
	o.mu.Lock()
	defer o.mu.Unlock()
	switch {
	case lost && o.since.IsZero():
		o.since = time.Now()
		log.warn("jobs.database.unavailable", "error", safeErr(err))
	case !lost && err == nil && !o.since.IsZero():
		log.info("jobs.database.available", "after", time.Since(o.since).Round(time.Millisecond).String())
		o.since = time.Time{}
	}
}
