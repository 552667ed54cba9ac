package devtools

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pipekit/pipe/pipeline"
)

// Version is the version the server announces to its clients.
const Version = "1"

// NewServer answers an MCP server holding the read-only dev tools over admin
// and the manifest rows of the jobs this pipe runs (a registry's
// Manifests()).
func NewServer(admin *pipeline.Admin, manifests []pipeline.Manifest) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "pipe", Version: Version}, &mcp.ServerOptions{
		Instructions: "Read-only tools over a pipe fleet: job declarations, queue depth, runs and their journals.",
	})
	t := tools{admin: admin, manifests: manifests}
	mcp.AddTool(s, readOnly("jobs.inspect", "Every job this pipe runs as it declares itself: queue, retry policy, concurrency cap, timeouts, event poll and input schema. Pass name for one job."), t.inspect)
	mcp.AddTool(s, readOnly("queue.depth", "Runs per queue by state: pending (ready or delayed), suspended, running, failed (waiting for a retry) and dead, and whether the queue is paused; estimated names the counts that are estimates (a deep queue's). Pass queue for one queue."), t.depth)
	mcp.AddTool(s, readOnly("jobs.list", "One page of runs, newest first. Filter by queue, name, state, tenant, idempotency key or concurrency key; page with the cursors a page answers."), t.list)
	mcp.AddTool(s, readOnly("jobs.show", "One run in full: state, attempts, input, result, its error with the fix, its steps and journal."), t.show)
	return s
}

// readOnly answers a tool declared read-only and idempotent to clients.
func readOnly(name, description string) *mcp.Tool {
	f := false
	return &mcp.Tool{
		Name: name, Description: description,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &f},
	}
}

// tools holds what the tool handlers read.
type tools struct {
	admin     *pipeline.Admin
	manifests []pipeline.Manifest
}
