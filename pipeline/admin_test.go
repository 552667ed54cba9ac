package pipeline_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

func TestListPagesNewestFirstWithCursors(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	j := payloadJob("listed")
	var ids []string
	for i := range 7 {
		res, err := j.Enqueue(ctx, pool, payload{K: fmt.Sprint(i)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, res.ID)
	}
	slices.Reverse(ids)
	admin := pipeline.NewAdmin(pool)
	var seen []string
	page, err := admin.List(ctx, pipeline.ListFilter{Name: "listed", Limit: 3})
	for err == nil {
		for _, r := range page.Jobs {
			seen = append(seen, r.ID)
		}
		if page.Next == "" {
			break
		}
		page, err = admin.List(ctx, pipeline.ListFilter{Name: "listed", Limit: 3, After: page.Next})
	}
	if err != nil || !slices.Equal(seen, ids) {
		t.Fatalf("pages %v, %v\nwant %v", seen, err, ids)
	}
	// The last page's Prev cursor leads back to the page before it.
	back, err := admin.List(ctx, pipeline.ListFilter{Name: "listed", Limit: 3, Before: page.Prev})
	if err != nil || len(back.Jobs) != 3 || back.Jobs[0].ID != ids[3] || back.Jobs[2].ID != ids[5] {
		t.Fatalf("previous page %+v, %v", back.Jobs, err)
	}
	prefix, err := admin.List(ctx, pipeline.ListFilter{IDPrefix: ids[4][:36]})
	if err != nil || len(prefix.Jobs) != 1 || prefix.Jobs[0].ID != ids[4] {
		t.Fatalf("id prefix: %+v %v", prefix.Jobs, err)
	}
	none, err := admin.List(ctx, pipeline.ListFilter{State: "dead"})
	if err != nil || len(none.Jobs) != 0 {
		t.Fatalf("state filter: %+v %v", none.Jobs, err)
	}
}

func TestListRefusesBadPages(t *testing.T) {
	admin := pipeline.NewAdmin(fixtures.DB(t))
	for _, f := range []pipeline.ListFilter{{Limit: 201}, {Limit: -1}, {After: "not-a-cursor"}, {State: "sleeping"}, {IDPrefix: "'; drop"}} {
		if _, err := admin.List(context.Background(), f); !errors.Is(err, errcode.JobPageInvalid) {
			t.Errorf("%+v: err = %v", f, err)
		}
	}
}

func TestOperatorRefusals(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	admin := pipeline.NewAdmin(pool)
	j := payloadJob("refusals")
	live, _ := j.Enqueue(ctx, pool, payload{K: "live"})
	missing := "0190c6f0-7a36-7cc1-a3f2-5e0c2b7d9a11"
	checks := []struct {
		name string
		err  error
		want errcode.Code
	}{
		{"requeue live", admin.Requeue(ctx, live.ID), errcode.JobNotRequeueable},
		{"requeue unknown", admin.Requeue(ctx, missing), errcode.JobNotFound},
		{"show bad id", func() error { _, err := admin.Show(ctx, "nope"); return err }(), errcode.IDInvalid},
		{"promote ready", admin.Promote(ctx, live.ID), errcode.JobNotPromotable},
	}
	if err := admin.Cancel(ctx, live.ID, "operator"); err != nil {
		t.Fatal(err)
	}
	checks = append(checks, struct {
		name string
		err  error
		want errcode.Code
	}{"cancel cancelled", admin.Cancel(ctx, live.ID, "again"), errcode.JobNotCancellable})
	// A new live run holds the key: requeueing the cancelled one would make two.
	if _, err := j.Enqueue(ctx, pool, payload{K: "live"}); err != nil {
		t.Fatal(err)
	}
	checks = append(checks, struct {
		name string
		err  error
		want errcode.Code
	}{"requeue over a live key", admin.Requeue(ctx, live.ID), errcode.JobDuplicate})
	for _, c := range checks {
		if !errors.Is(c.err, c.want) {
			t.Errorf("%s: err = %v; want %s", c.name, c.err, c.want)
		}
	}
}

func TestRemoveRefusesARunningJob(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	started, release := make(chan struct{}), make(chan struct{})
	j := pipeline.MustJob("remove", keyK, func(ctx context.Context, run *pipeline.Run[noInput]) (int, error) {
		close(started)
		<-release
		return 0, nil
	})
	startWorker(t, pool, pipeline.WorkerConfig{}, j)
	res, _ := j.Enqueue(ctx, pool, noInput{K: "a"})
	<-started
	admin := pipeline.NewAdmin(pool)
	if err := admin.Remove(ctx, res.ID); !errors.Is(err, errcode.JobNotRemovable) {
		t.Fatalf("err = %v", err)
	}
	close(release)
	awaitState(t, pool, res.ID, "done")
	if err := admin.Remove(ctx, res.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Show(ctx, res.ID); !errors.Is(err, errcode.JobNotFound) {
		t.Fatalf("removed job still shows: %v", err)
	}
}

func TestRequeueFromStepRewindsThatStepAndLater(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	var a, b, c atomic.Int32
	count := func(n *atomic.Int32) func(context.Context) (int32, error) {
		return func(context.Context) (int32, error) { return n.Add(1), nil }
	}
	j := pipeline.MustJob("rewind", keyK, func(ctx context.Context, run *pipeline.Run[noInput]) (int32, error) {
		if _, err := pipeline.Step(ctx, "a", count(&a)); err != nil {
			return 0, err
		}
		if _, err := pipeline.Step(ctx, "b", count(&b)); err != nil {
			return 0, err
		}
		return pipeline.Step(ctx, "c", count(&c))
	})
	startWorker(t, pool, pipeline.WorkerConfig{}, j)
	res, _ := j.Enqueue(ctx, pool, noInput{K: "a"})
	awaitState(t, pool, res.ID, "done")
	admin := pipeline.NewAdmin(pool)
	if err := admin.Requeue(ctx, res.ID, pipeline.RequeueOptions{FromStep: "nope"}); !errors.Is(err, errcode.StepNotFound) {
		t.Fatalf("unknown step: %v", err)
	}
	if err := admin.Requeue(ctx, res.ID, pipeline.RequeueOptions{FromStep: "b"}); err != nil {
		t.Fatal(err)
	}
	d := awaitState(t, pool, res.ID, "done")
	if a.Load() != 1 || b.Load() != 2 || c.Load() != 2 || string(d.Result) != "2" {
		t.Fatalf("a %d b %d c %d result %s", a.Load(), b.Load(), c.Load(), d.Result)
	}
	if !containsKind(d, "rewound") || !containsKind(d, "requeued") {
		t.Fatalf("journal %v", kinds(d))
	}
}
