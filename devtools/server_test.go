package devtools_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pipekit/pipe/devtools"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

type order struct {
	ID string `json:"id"`
}

// failing dies at once with a terminal coded error after one step.
var failing = pipeline.MustJob("orders.charge", func(o order) string { return o.ID },
	func(ctx context.Context, run *pipeline.Run[order]) (int, error) {
		if _, err := pipeline.Step(ctx, "look-up", func(context.Context) (int, error) { return 1, nil }); err != nil {
			return 0, err
		}
		return 0, errcode.New(errcode.Invariant, "the card was refused").WithFix("ask for another card")
	}, pipeline.JobOptions[order, int]{Queue: "billing", Retry: &pipeline.Retry{Attempts: 1}})

// connect answers a client session on a devtools server over pool.
func connect(t *testing.T, admin *pipeline.Admin, manifests []pipeline.Manifest) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ctx := t.Context()
	if _, err := devtools.NewServer(admin, manifests).Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// call calls a tool and decodes its structured answer into out; it answers
// whether the tool reported an error, and the text it answered.
func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any, out any) (bool, string) {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if !res.IsError && out != nil {
		raw, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s answered %s: %v", tool, raw, err)
		}
	}
	return res.IsError, text
}

func TestTheToolsReadADeadRunThroughTheSDKsClient(t *testing.T) {
	pool := fixtures.DB(t)
	ctx := t.Context()
	reg, err := pipeline.NewRegistry(failing)
	if err != nil {
		t.Fatal(err)
	}
	fixtures.StartWorker(t, pool, failing)
	res, err := failing.Enqueue(ctx, pool, order{ID: "o-1"})
	if err != nil {
		t.Fatal(err)
	}
	fixtures.Drain(t, pool)
	admin := pipeline.NewAdmin(pool)
	if err := admin.PauseQueue(ctx, "billing"); err != nil {
		t.Fatal(err)
	}
	if _, err := failing.Enqueue(ctx, pool, order{ID: "o-2"}); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, admin, reg.Manifests())

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for _, tl := range tools.Tools {
		if tl.Annotations == nil || !tl.Annotations.ReadOnlyHint {
			t.Errorf("%s is not declared read-only", tl.Name)
		}
		names = append(names, tl.Name)
	}
	if got := strings.Join(names, " "); got != "jobs.inspect jobs.list jobs.show queue.depth" {
		t.Fatalf("tools %q", got)
	}

	var inspect devtools.InspectResult
	call(t, cs, "jobs.inspect", nil, &inspect)
	if len(inspect.Jobs) != 1 || inspect.Jobs[0].Name != "orders.charge" || inspect.Jobs[0].Queue != "billing" ||
		inspect.Jobs[0].Retry.Attempts != 1 || !inspect.Jobs[0].Idempotent {
		t.Fatalf("jobs.inspect %+v", inspect)
	}
	if isErr, text := call(t, cs, "jobs.inspect", map[string]any{"name": "nope"}, nil); !isErr || !strings.Contains(text, "X_JOB_NOT_FOUND") {
		t.Fatalf("an unknown job: error %v %s", isErr, text)
	}

	var depth devtools.DepthResult
	call(t, cs, "queue.depth", map[string]any{"queue": "billing"}, &depth)
	if len(depth.Queues) != 1 || depth.Queues[0].Dead != 1 || depth.Queues[0].Pending != 1 || !depth.Queues[0].Paused {
		t.Fatalf("queue.depth %+v", depth)
	}

	var page pipeline.Page
	call(t, cs, "jobs.list", map[string]any{"state": "dead"}, &page)
	if len(page.Jobs) != 1 || page.Jobs[0].ID != res.ID {
		t.Fatalf("jobs.list dead %+v", page)
	}
	if isErr, text := call(t, cs, "jobs.list", map[string]any{"state": "sleeping"}, nil); !isErr || !strings.Contains(text, "X_JOB_PAGE_INVALID") {
		t.Fatalf("a wrong state: error %v %s", isErr, text)
	}

	var d pipeline.RunDetail
	call(t, cs, "jobs.show", map[string]any{"id": res.ID}, &d)
	if d.State != pipeline.StateDead || d.LastError == nil || d.LastError.Fix != "ask for another card" ||
		len(d.Steps) != 1 || d.Steps[0].Name != "look-up" {
		t.Fatalf("jobs.show %+v", d)
	}
	if isErr, text := call(t, cs, "jobs.show", map[string]any{"id": "00000000-0000-0000-0000-000000000000"}, nil); !isErr || !strings.Contains(text, "X_JOB_NOT_FOUND") {
		t.Fatalf("an unknown run: error %v %s", isErr, text)
	}
}

func TestJobsShowRedactsASensitiveInput(t *testing.T) {
	pool := fixtures.DB(t)
	secret := pipeline.MustJob("vendor.hook", func(o order) string { return o.ID },
		func(ctx context.Context, run *pipeline.Run[order]) (int, error) { return 0, nil },
		pipeline.JobOptions[order, int]{Sensitive: true})
	res, err := secret.Enqueue(t.Context(), pool, order{ID: "card-4242"})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, pipeline.NewAdmin(pool), nil)
	_, text := call(t, cs, "jobs.show", map[string]any{"id": res.ID}, nil)
	if !strings.Contains(text, `"input":"[redacted]"`) {
		t.Fatalf("jobs.show answers %s", text)
	}
	var d pipeline.RunDetail
	call(t, cs, "jobs.show", map[string]any{"id": res.ID}, &d)
	if string(d.Input) != `"[redacted]"` {
		t.Fatalf("the input is %s", d.Input)
	}
}
