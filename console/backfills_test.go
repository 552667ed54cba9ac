package console_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pipekit/pipe/backfill"
	"github.com/pipekit/pipe/console"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pg"
	"github.com/pipekit/pipe/pipeline"
)

// The backfills page shows a pass live from its ledger, and an operator
// holds and releases it from there.
func TestTheBackfillsPageShowsAndStepsAPass(t *testing.T) {
	pool := fixtures.DB(t)
	ctx := t.Context()
	if _, err := pool.Exec(ctx, `create table orders (id bigint primary key, total numeric, cents bigint);
		insert into orders select g, g, null from generate_series(1, 2000) g; analyze orders`); err != nil {
		t.Fatal(err)
	}
	job := backfill.MustNew("fill-cents", backfill.PassKey, backfill.Options[backfill.Request]{
		Table: pg.Relation{Name: "orders"}, Batch: 50, MinBatch: 50, MaxBatch: 50, Rate: 400,
		SQL: `update orders set cents = total * 100 where id between $1 and $2`,
	})
	fixtures.StartWorker(t, pool, job)
	run, err := job.Enqueue(ctx, pool, backfill.Request{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := console.New(pipeline.NewAdmin(pool), console.Options{AllowActions: true, DB: pool})
	if err != nil {
		t.Fatal(err)
	}
	client := newBrowser()
	srv := httpServer(t, c)
	page := func() string {
		_, _, body := get(t, client, srv.URL+"/backfills")
		return body
	}
	waitBody(t, page, "running")
	body := page()
	if !strings.Contains(body, "fill-cents") || !strings.Contains(body, "orders") {
		t.Fatalf("the page does not show the pass")
	}
	runID := regexp.MustCompile(`action="/backfills/([^/]+)/pause"`).FindStringSubmatch(body)[1]
	post := func(action string) {
		resp, err := client.PostForm(srv.URL+"/backfills/"+runID+"/"+action, url.Values{"csrf": {csrfOf(t, page())}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("%s: %d", action, resp.StatusCode)
		}
	}
	post("pause")
	waitBody(t, page, "held")
	p, err := backfill.Show(ctx, pool, runID)
	if err != nil || !p.Held {
		t.Fatalf("the ledger after pause: %+v %v", p, err)
	}
	post("resume")
	fixtures.Drain(t, pool)
	if d, _ := pipeline.NewAdmin(pool).Show(ctx, run.ID); d.State != pipeline.StateDone {
		t.Fatalf("the pass ended %s", d.State)
	}
	waitBody(t, page, "2000 of ~2000")
}

func waitBody(t *testing.T, page func() string, want string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if strings.Contains(page(), want) {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("the backfills page never showed %q", want)
}

func httpServer(t *testing.T, h http.Handler) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}
