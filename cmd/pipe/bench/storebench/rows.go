package storebench

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/google/uuid"
)

// runColumns are the columns the fill copies into pipe.runs, in the order
// a row's values come; the others take their defaults.
var runColumns = []string{"id", "run_id", "name", "queue", "tenant", "idem_key", "input", "state", "attempt",
	"max_attempts", "claims", "worker_id", "lease_until", "run_at", "created_at", "started_at", "finished_at",
	"has_steps", "result", "last_error", "concurrency_key", "transitions"}

// journalColumns are the columns the fill copies into pipe.run_events.
var journalColumns = []string{"job_id", "seq", "kind", "attempt", "step", "data", "at", "run_state", "run_finished_at"}

// maxAttempts is every fixture run's max_attempts (pipe's default retry).
const maxAttempts = 3

// runRow is one run as the fill writes it. The nullable columns are any:
// nil is NULL.
type runRow struct {
	id, runID                     [16]byte
	name, queue, tenant, key      string
	state                         string
	input                         []byte
	attempt, claims               int32
	worker, leaseUntil            any
	runAt, createdAt              time.Time
	startedAt, finishedAt         any
	hasSteps                      bool
	result, lastError, concurrent any
	transitions                   []byte
}

// values writes r's columns into row, in runColumns' order.
func (r *runRow) values(row []any) {
	row[0], row[1], row[2], row[3], row[4], row[5] = r.id, r.runID, r.name, r.queue, r.tenant, r.key
	row[6], row[7], row[8], row[9], row[10] = r.input, r.state, r.attempt, int32(maxAttempts), r.claims
	row[11], row[12], row[13], row[14], row[15], row[16] = r.worker, r.leaseUntil, r.runAt, r.createdAt, r.startedAt, r.finishedAt
	row[17], row[18], row[19], row[20], row[21] = r.hasSteps, r.result, r.lastError, r.concurrent, r.transitions
}

// gen makes the rows of one chunk of the fill, from a random source of its
// own, and the journal rows and picks that go with them.
type gen struct {
	rng      *rand.Rand
	seq      int64 // the next journal sequence number
	rate     float64
	journal  [][]any
	picks    picks
	workerID string
}

// newGen answers the generator of chunk c, its sequence numbers from seq.
func newGen(c int, seq int64, rate float64) *gen {
	return &gen{rng: rand.New(rand.NewPCG(uint64(c)+1, 0x5eed)), seq: seq, rate: rate,
		workerID: fmt.Sprintf("pipe-bench-fixture-%d", c%4)}
}

func (g *gen) nextSeq() int64 {
	g.seq++
	return g.seq
}

// common fills what every run has: job, tenant, keys, input and ids made
// at created.
func (g *gen) common(r *runRow, created time.Time) *jobKind {
	rnd := g.rng
	k := &kinds[kindPicker.pick(rnd)]
	r.name, r.queue = k.name, k.queue
	r.tenant = ""
	if rnd.Float64() >= noTenantShare {
		r.tenant = tenantName(tenantPicker.pick(rnd))
	}
	r.key = k.key + "-" + strconv.FormatUint(rnd.Uint64()>>1, 36)
	r.input = fmt.Appendf(nil, k.inputTemplate, rnd.IntN(1_000_000_000))
	r.concurrent = nil
	if k.conc != "" {
		r.concurrent = k.conc + ":" + strconv.Itoa(rnd.IntN(500))
	}
	r.id = uuidV7(created, rnd)
	r.runID = r.id
	if rnd.Float64() < 0.01 { // a run id its caller named
		r.runID = uuidV7(created, rnd)
	}
	r.createdAt = created
	r.worker, r.leaseUntil, r.startedAt, r.finishedAt, r.result, r.lastError = nil, nil, nil, nil, nil, nil
	r.hasSteps = false
	if rnd.Float64() < g.rate {
		g.picks.keys = append(g.picks.keys, r.key)
		if s, ok := r.concurrent.(string); ok {
			g.picks.concKeys = append(g.picks.concKeys, s)
		}
	}
	return k
}

// finished fills a run that finished at end.
func (g *gen) finished(r *runRow, end time.Time) {
	rnd := g.rng
	ran := time.Duration((0.02 + rnd.ExpFloat64()*0.4) * float64(time.Second))
	waited := time.Duration(rnd.ExpFloat64() * 0.3 * float64(time.Second))
	started := end.Add(-ran)
	k := g.common(r, started.Add(-waited))
	r.runAt, r.finishedAt = r.createdAt, end
	r.state, r.attempt = "done", 1
	switch u := rnd.Float64(); {
	case u < deadShare:
		r.state, r.attempt = "dead", maxAttempts
	case u < deadShare+failedShare:
		r.state = "failed"
	case u < deadShare+failedShare+cancelledShare:
		r.state, r.attempt = "cancelled", 0
	case u < 0.1:
		r.attempt = 2
	}
	r.claims = r.attempt
	r.transitions = appendTransition(make([]byte, 0, 3*transitionSize), transitionEnqueued, g.nextSeq(), 0, r.createdAt)
	if r.attempt > 0 {
		r.startedAt = started
		r.transitions = appendTransition(r.transitions, transitionClaimed, g.nextSeq(), r.attempt, started)
	}
	switch r.state {
	case "done":
		r.result = fmt.Appendf(nil, `{"ok":true,"ref":%d}`, rnd.IntN(1_000_000))
		r.transitions = appendTransition(r.transitions, transitionCompleted, g.nextSeq(), r.attempt, end)
	case "dead", "failed":
		r.lastError = fmt.Appendf(nil, `{"code":"X_BODY_FAILED","message":%q,"attempt":%d}`, k.failsWith, r.attempt)
	}
	g.maybeJournal(r, k, r.state, end)
	if rnd.Float64() < g.rate {
		g.picks.finishedIDs = append(g.picks.finishedIDs, uuid.UUID(r.id))
	}
}

// open fills a run enqueued within the hour before now and not finished:
// 80% ready, 10% delayed, 8% running (leased for a day, so that no claim
// finds its lease lapsed while the bench runs), 2% suspended.
func (g *gen) open(r *runRow, now time.Time) {
	rnd := g.rng
	k := g.common(r, now.Add(-time.Duration(rnd.Float64()*float64(time.Hour))))
	r.runAt, r.state, r.attempt = r.createdAt, "ready", 0
	r.transitions = appendTransition(make([]byte, 0, 2*transitionSize), transitionEnqueued, g.nextSeq(), 0, r.createdAt)
	switch u := rnd.Float64(); {
	case u < 0.8:
	case u < 0.9:
		r.state, r.runAt = "delayed", now.Add(time.Duration(rnd.Float64()*float64(24*time.Hour)))
	default:
		started := r.createdAt.Add(time.Duration(rnd.ExpFloat64() * float64(time.Second)))
		r.attempt, r.startedAt = 1, started
		r.transitions = appendTransition(r.transitions, transitionClaimed, g.nextSeq(), 1, started)
		if u < 0.98 {
			r.state, r.worker, r.leaseUntil = "running", g.workerID, now.Add(24*time.Hour)
		} else {
			r.state, r.runAt = "suspended", now.Add(7*24*time.Hour)
		}
	}
	r.claims = r.attempt
	g.maybeJournal(r, k, "open", nil)
	if rnd.Float64() < g.rate {
		g.picks.openIDs = append(g.picks.openIDs, uuid.UUID(r.id))
	}
}

// maybeJournal adds, for a share of the runs, one journal row: a step's
// output, kept with the run's end (runState, finishedAt).
func (g *gen) maybeJournal(r *runRow, k *jobKind, runState string, finishedAt any) {
	rnd := g.rng
	if rnd.Float64() >= journalShare {
		return
	}
	r.hasSteps = true
	at := r.createdAt
	if s, ok := r.startedAt.(time.Time); ok {
		at = s
	}
	step := k.steps[rnd.IntN(len(k.steps))]
	data := fmt.Appendf(nil, `{"output":{"id":%d,"bytes":%d}}`, rnd.IntN(1_000_000), rnd.IntN(65536))
	g.journal = append(g.journal, []any{r.id, g.nextSeq(), "step.completed", max(r.attempt, 1), step, data, at, runState, finishedAt})
}
