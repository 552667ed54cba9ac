package webhook_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/webhook"
)

// countingDB counts the statements sent through it.
type countingDB struct {
	pipeline.DB
	n atomic.Int64
}

func (c *countingDB) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	c.n.Add(1)
	return c.DB.Exec(ctx, sql, args...)
}

func (c *countingDB) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	c.n.Add(1)
	return c.DB.Query(ctx, sql, args...)
}

func (c *countingDB) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	c.n.Add(1)
	return c.DB.QueryRow(ctx, sql, args...)
}

// A Store reads an endpoint at most once a second whatever the deliveries
// ask, and skips the reset of a failure count it read as zero; a change
// made through another Store (another process, the CLI) reaches it within
// the second, one made through it at once.
func TestTheStoreReadsAnEndpointOnceASecond(t *testing.T) {
	pool := fixtures.DB(t)
	ctx := context.Background()
	db := &countingDB{DB: pool}
	store, other := webhook.NewStore(db), webhook.NewStore(pool)
	now := time.Now()
	webhook.SetStoreClock(store, func() time.Time { return now })
	added, err := other.Add(ctx, "acme", "https://hooks.example.com/in", false, false)
	if err != nil {
		t.Fatal(err)
	}
	for range 100 {
		ep, err := store.Endpoint(ctx, "acme")
		if err != nil || ep.Secrets[0] != added.Secrets[0] || ep.Disabled {
			t.Fatalf("endpoint %+v, %v", ep.ID, err)
		}
		if err := store.Delivered(ctx, "acme"); err != nil {
			t.Fatal(err)
		}
	}
	if n := db.n.Load(); n != 1 {
		t.Fatalf("100 deliveries sent %d statements; want the one read", n)
	}
	rotated, err := other.RotateSecret(ctx, "acme")
	if err != nil {
		t.Fatal(err)
	}
	if err := other.SetEnabled(ctx, "acme", false); err != nil {
		t.Fatal(err)
	}
	if ep, _ := store.Endpoint(ctx, "acme"); ep.Secrets[0] != added.Secrets[0] || ep.Disabled {
		t.Fatal("a change made elsewhere reached the store before its second was out")
	}
	now = now.Add(webhook.EndpointTTL)
	if ep, _ := store.Endpoint(ctx, "acme"); ep.Secrets[0] != rotated || !ep.Disabled {
		t.Fatalf("a second on, the store still answers the endpoint as it was (disabled %v)", ep.Disabled)
	}
	// Through the store itself: at once.
	if err := store.SetEnabled(ctx, "acme", true); err != nil {
		t.Fatal(err)
	}
	if ep, _ := store.Endpoint(ctx, "acme"); ep.Disabled {
		t.Fatal("an endpoint enabled through the store is still disabled in it")
	}
	if _, err := store.Failed(ctx, "acme", 10); err != nil {
		t.Fatal(err)
	}
	if err := store.Delivered(ctx, "acme"); err != nil {
		t.Fatal(err)
	}
	if e, _ := other.Get(ctx, "acme"); e.ConsecutiveFailures != 0 {
		t.Fatalf("a delivery after a failed run left the count at %d", e.ConsecutiveFailures)
	}
}

// When an endpoint's second runs out under load, the deliveries in flight
// share one read of it, and a reset of its failure count that found none
// to reset keeps what the store read: a lapsed entry costs one read, not
// one a delivery (a herd that read it 561 times in 4 s of pipe bench
// webhooks, each reset forgetting it again).
func TestDeliveriesInFlightShareOneReadOfALapsedEndpoint(t *testing.T) {
	pool := fixtures.DB(t)
	ctx := context.Background()
	db := &countingDB{DB: pool}
	store, other := webhook.NewStore(db), webhook.NewStore(pool)
	var now atomic.Pointer[time.Time]
	start := time.Now()
	now.Store(&start)
	webhook.SetStoreClock(store, func() time.Time { return *now.Load() })
	if _, err := other.Add(ctx, "acme", "https://hooks.example.com/in", false, false); err != nil {
		t.Fatal(err)
	}
	deliver := func() {
		var wg sync.WaitGroup
		for range 64 {
			wg.Go(func() {
				if _, err := store.Endpoint(ctx, "acme"); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
	}
	deliver()
	if n := db.n.Load(); n != 1 {
		t.Fatalf("64 deliveries at once on a cold store sent %d reads; want one", n)
	}
	later := start.Add(webhook.EndpointTTL)
	now.Store(&later)
	// A reset outside the cached second matches no row (the count is zero)
	// and must not drop the entry the next read refreshes.
	if err := store.Delivered(ctx, "acme"); err != nil {
		t.Fatal(err)
	}
	deliver()
	for range 10 {
		if err := store.Delivered(ctx, "acme"); err != nil {
			t.Fatal(err)
		}
	}
	if n := db.n.Load(); n != 3 {
		t.Fatalf("a lapsed second cost %d statements; want the reset and one read", n-1)
	}
}
