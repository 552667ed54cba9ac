package webhook_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/outbox"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/webhook"
)

// stagedSetup is a staged webhook over the stock store, ledger and health,
// its relay and its job served by a worker of the test.
type stagedSetup struct {
	pool   *pgxpool.Pool
	store  *webhook.Store
	ledger *webhook.PGLedger
	staged *webhook.Staged[delivery]
	relay  *outbox.Relay
	name   string
}

func newStaged(t *testing.T, pool *pgxpool.Pool, name string, endpoints map[string]string) *stagedSetup {
	return newStagedWith(t, pool, name, endpoints, 0, nil)
}

// newStagedWith is newStaged with the relay's batch (0: its default) and
// set applied to the staged webhook before its relay starts.
func newStagedWith(t *testing.T, pool *pgxpool.Pool, name string, endpoints map[string]string, batch int, set func(*webhook.Staged[delivery])) *stagedSetup {
	t.Helper()
	ctx := context.Background()
	s := &stagedSetup{pool: pool, store: webhook.NewStore(pool), ledger: webhook.PostgresLedger(pool), name: name}
	t.Cleanup(s.ledger.Close)
	for id, url := range endpoints {
		if _, err := s.store.Add(ctx, id, url, true, true); err != nil {
			t.Fatal(err)
		}
	}
	staged, err := webhook.NewStaged(name, deliveryKey, pool, webhook.Options[delivery]{
		Endpoint: func(ctx context.Context, d delivery) (webhook.Endpoint, error) {
			return s.store.Endpoint(ctx, d.Endpoint)
		},
		Event: func(_ context.Context, d delivery) (webhook.Event, error) {
			return webhook.Event{ID: d.Event, Topic: "orders.paid", Body: []byte(`{"id":"` + d.Event + `"}`)}, nil
		},
		Ledger: s.ledger, Health: s.store, AllowHTTP: true, AllowPrivate: true,
		Job: pipeline.JobOptions[delivery, webhook.Result]{Retry: &pipeline.Retry{Attempts: 3, Delay: 50 * time.Millisecond, NoJitter: true}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if set != nil {
		set(staged)
	}
	s.staged = staged
	s.relay, err = outbox.New(outbox.Options{Name: name + ".relay", Streams: []outbox.Stream{staged.Stream()}, Batch: batch})
	if err != nil {
		t.Fatal(err)
	}
	startWorker(t, pool, append(s.relay.Jobs(), staged.Job())...)
	if _, err := s.relay.Arm(ctx, pool); err != nil {
		t.Fatal(err)
	}
	return s
}

// attempts answers the ledger's rows of the test's job, by event, oldest
// first.
func (s *stagedSetup) attempts(t *testing.T) map[string][]webhook.Attempt {
	t.Helper()
	all, err := s.ledger.List(context.Background(), webhook.Filter{Limit: 10000})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]webhook.Attempt{}
	for i := len(all) - 1; i >= 0; i-- {
		if a := all[i]; a.Job == s.name {
			out[a.EventID] = append(out[a.EventID], a)
		}
	}
	return out
}

// runs answers the states of the job's runs, by event.
func (s *stagedSetup) runs(t *testing.T) map[string]string {
	t.Helper()
	rows, err := s.pool.Query(context.Background(), `select input->>'event', state from pipe.jobs where name = $1`, s.name)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var ev, state string
		if err := rows.Scan(&ev, &state); err != nil {
			t.Fatal(err)
		}
		out[ev] = state
	}
	return out
}

// Deliveries staged in the application's transaction go out through the
// relay, each signed under its own webhook-id and recorded as attempt 0,
// without a run; those of an endpoint that fails are handed to the job,
// which delivers them on its own attempts, and those of a disabled
// endpoint are dead-lettered by it, never posted.
func TestStagedDeliveriesGoOutThroughTheOutboxAndFailuresBecomeRuns(t *testing.T) {
	pool := fixtures.DB(t)
	ctx := context.Background()
	good := newEndpoint(t, false, func(_ int, w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	var mu sync.Mutex
	seen := map[string]bool{}
	flaky := newEndpoint(t, false, func(_ int, w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		// every event's first request fails, its next is taken
		if id := r.Header.Get("webhook-id"); !seen[id] {
			seen[id] = true
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	off := newEndpoint(t, false, nil)
	name := "staged." + fmt.Sprint(time.Now().UnixNano())
	s := newStaged(t, pool, name, map[string]string{name + ".good": good.srv.URL, name + ".flaky": flaky.srv.URL, name + ".off": off.srv.URL})
	if err := s.store.SetEnabled(ctx, name+".off", false); err != nil {
		t.Fatal(err)
	}
	var ins []delivery
	for i := range 40 {
		ins = append(ins, delivery{Endpoint: name + ".good", Event: fmt.Sprintf("g-%d", i)})
	}
	for i := range 5 {
		ins = append(ins, delivery{Endpoint: name + ".flaky", Event: fmt.Sprintf("f-%d", i)})
	}
	ins = append(ins, delivery{Endpoint: name + ".off", Event: "o-0"})
	// rolled back: never staged, never delivered
	tx, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.staged.Stage(ctx, tx, delivery{Endpoint: name + ".good", Event: "rolled-back"}); err != nil {
		t.Fatal(err)
	}
	_ = tx.Rollback(ctx)
	tx, err = pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.staged.Stage(ctx, tx, ins...); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}

	hits := good.await(t, 40)
	ids := map[string]int{}
	for _, h := range hits {
		ids[h.header.Get("webhook-id")]++
		if h.header.Get("webhook-signature") == "" {
			t.Fatal("a staged delivery went out unsigned")
		}
	}
	for i := range 40 {
		if ids[fmt.Sprintf("g-%d", i)] == 0 {
			t.Fatalf("event g-%d never reached its endpoint", i)
		}
	}
	if ids["rolled-back"] != 0 {
		t.Fatal("a delivery staged in a rolled-back transaction went out")
	}
	awaitRuns(t, s, func(runs map[string]string) bool {
		for i := range 5 {
			if runs[fmt.Sprintf("f-%d", i)] != "done" {
				return false
			}
		}
		return runs["o-0"] == "dead"
	})
	runs := s.runs(t)
	for i := range 40 {
		if st, ok := runs[fmt.Sprintf("g-%d", i)]; ok {
			t.Fatalf("a delivery taken on its staged attempt became a run (%s)", st)
		}
	}
	if len(off.got()) != 0 {
		t.Fatal("a disabled endpoint was posted to")
	}
	att := s.attempts(t)
	for i := range 40 {
		a := att[fmt.Sprintf("g-%d", i)]
		if len(a) != 1 || a[0].Attempt != 0 || a[0].Outcome != webhook.Delivered {
			t.Fatalf("event g-%d's ledger rows: %+v; want one delivered attempt 0", i, a)
		}
	}
	for i := range 5 {
		// posted on attempt 0 and failed, or not posted (its endpoint
		// failed earlier in the batch); then delivered by its run
		a := att[fmt.Sprintf("f-%d", i)]
		if len(a) == 0 || a[len(a)-1].Outcome != webhook.Delivered || a[len(a)-1].Attempt < 1 {
			t.Fatalf("event f-%d's ledger rows: %+v; want its run's attempt delivered last", i, a)
		}
		if a[0].Attempt == 0 && a[0].Outcome != webhook.Failed {
			t.Fatalf("event f-%d's staged attempt: %+v; want failed", i, a[0])
		}
	}
	// a disabled endpoint's delivery is handed on unsent (no staged row),
	// and its run's attempt is recorded refused
	if a := att["o-0"]; len(a) != 1 || a[0].Attempt != 1 || a[0].Outcome != webhook.Refused || a[0].Code != errcode.WebhookEndpointDisabled {
		t.Fatalf("a disabled endpoint's delivery's ledger rows: %+v; want its run's attempt 1, refused", a)
	}
}

func awaitRuns(t *testing.T, s *stagedSetup, done func(map[string]string) bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !done(s.runs(t)) {
		if time.Now().After(deadline) {
			t.Fatalf("the handed-off runs did not settle in 30s: %v", s.runs(t))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// An endpoint down is posted to by the staged attempts of one batch, then
// held: the deliveries of later batches go to runs without a request, while
// another endpoint's deliveries in the same batches go out on their staged
// attempt.
func TestAnEndpointDownIsHeldWhileTheStreamGoesOn(t *testing.T) {
	pool := fixtures.DB(t)
	ctx := context.Background()
	good := newEndpoint(t, false, func(_ int, w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	down := newEndpoint(t, false, func(_ int, w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusBadGateway) })
	name := "held." + fmt.Sprint(time.Now().UnixNano())
	s := newStagedWith(t, pool, name, map[string]string{name + ".good": good.srv.URL, name + ".down": down.srv.URL}, 10, nil)
	var ins []delivery
	for i := range 30 {
		ins = append(ins, delivery{Endpoint: name + ".good", Event: fmt.Sprintf("g-%d", i)}, delivery{Endpoint: name + ".down", Event: fmt.Sprintf("d-%d", i)})
	}
	if err := s.staged.Stage(ctx, pool, ins...); err != nil {
		t.Fatal(err)
	}
	good.await(t, 30)
	awaitRuns(t, s, func(runs map[string]string) bool {
		for i := range 30 {
			if runs[fmt.Sprintf("d-%d", i)] != "dead" {
				return false
			}
		}
		return true
	})
	staged := 0
	for ev, as := range s.attempts(t) {
		if strings.HasPrefix(ev, "d-") && as[0].Attempt == 0 {
			staged++
		}
		if strings.HasPrefix(ev, "g-") && (as[0].Attempt != 0 || as[0].Outcome != webhook.Delivered) {
			t.Fatalf("event %s behind the endpoint down: %+v; want delivered on its staged attempt", ev, as)
		}
	}
	if staged == 0 || staged > 5 {
		t.Fatalf("the endpoint down took %d staged attempts; want those of its first batch only (5 of 10)", staged)
	}
	if runs := s.runs(t); len(runs) != 30 {
		t.Fatalf("%d deliveries became runs; want the 30 of the endpoint down", len(runs))
	}
}

// A staged webhook's declaration and staging refuse their mistakes with a
// code, naming no input, and stage nothing.
func TestStagedRefusesItsMistakes(t *testing.T) {
	pool := fixtures.DB(t)
	ctx := context.Background()
	ep, ev := fixed("https://hooks.example.com/in")
	o := webhook.Options[delivery]{Endpoint: ep, Event: ev}
	if _, err := webhook.NewStaged("orders.paid", deliveryKey, nil, o); errcode.CodeOf(err) != errcode.JobDeclarationInvalid {
		t.Fatalf("a staged webhook without a database: %v; want X_JOB_DECLARATION_INVALID", err)
	}
	if _, err := webhook.NewStaged(strings.Repeat("n", outbox.MaxStreamLen+1), deliveryKey, pool, o); errcode.CodeOf(err) != errcode.JobDeclarationInvalid {
		t.Fatalf("a name longer than a stream: %v; want X_JOB_DECLARATION_INVALID", err)
	}
	if _, err := webhook.NewStaged("orders.paid", deliveryKey, pool, webhook.Options[delivery]{Event: ev}); errcode.CodeOf(err) != errcode.JobDeclarationInvalid {
		t.Fatalf("no Endpoint: %v; want X_JOB_DECLARATION_INVALID", err)
	}
	name := "refuse." + fmt.Sprint(time.Now().UnixNano())
	s := webhook.MustStaged(name, deliveryKey, pool, o)
	secret := strings.Repeat("k", outbox.MaxKeyLen+1)
	err := s.Stage(ctx, pool, delivery{Endpoint: "acme", Event: "e-1"}, delivery{Endpoint: secret, Event: "e-2"})
	if errcode.CodeOf(err) != errcode.OutboxMessageInvalid || strings.Contains(err.Error(), secret) {
		t.Fatalf("a key longer than an outbox key: %v; want X_OUTBOX_MESSAGE_INVALID naming no key", err)
	}
	var staged int
	if err := pool.QueryRow(ctx, `select count(*) from pipe.outbox where stream = $1`, name).Scan(&staged); err != nil || staged != 0 {
		t.Fatalf("%d deliveries staged by a refused call (%v); want none", staged, err)
	}
}

// A staged attempt gives up at StagedTimeout (the relay's transaction is
// open while its batch is posted): an endpoint that does not answer in
// time is held and its delivery goes to a run, which has the job's full
// Timeout and delivers it.
func TestAStagedAttemptGivesUpAtItsBound(t *testing.T) {
	pool := fixtures.DB(t)
	ctx := context.Background()
	var calls atomic.Int64
	slow := newEndpoint(t, false, func(_ int, w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			select { // the first request is not answered in time
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	name := "bound." + fmt.Sprint(time.Now().UnixNano())
	s := newStagedWith(t, pool, name, map[string]string{name + ".slow": slow.srv.URL}, 0, func(st *webhook.Staged[delivery]) {
		webhook.SetStagedTimeout(st, 200*time.Millisecond)
	})
	start := time.Now()
	if err := s.staged.Stage(ctx, pool, delivery{Endpoint: name + ".slow", Event: "s-1"}); err != nil {
		t.Fatal(err)
	}
	awaitRuns(t, s, func(runs map[string]string) bool { return runs["s-1"] == "done" })
	if took := time.Since(start); took > 4*time.Second {
		t.Fatalf("the delivery took %s: the staged attempt waited out the endpoint", took)
	}
	a := s.attempts(t)["s-1"]
	if len(a) < 2 || a[0].Attempt != 0 || a[0].Outcome != webhook.Failed || a[0].DurationMs > 1000 ||
		a[len(a)-1].Outcome != webhook.Delivered || a[len(a)-1].Attempt < 1 {
		t.Fatalf("ledger rows %+v; want attempt 0 failed within its bound, then the run's attempt delivered", a)
	}
}
