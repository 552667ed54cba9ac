package devtools_test

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pipekit/pipe/devtools"
	"github.com/pipekit/pipe/pipeline"
)

// An agent lists the tools and reads the manifest. pipe mcp does the same
// over stdin and stdout.
func ExampleNewServer() {
	ctx := context.Background()
	reg, _ := pipeline.NewRegistry(failing)
	// A nil pool serves the manifest alone; pass pipeline.NewAdmin(pool)
	// for the tools that read runs.
	srv := devtools.NewServer(pipeline.NewAdmin(nil), reg.Manifests())
	ct, st := mcp.NewInMemoryTransports()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		panic(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		panic(err)
	}
	defer cs.Close()
	tools, _ := cs.ListTools(ctx, nil)
	for _, t := range tools.Tools {
		fmt.Println(t.Name)
	}
	res, _ := cs.CallTool(ctx, &mcp.CallToolParams{Name: "jobs.inspect", Arguments: map[string]any{"name": "orders.charge"}})
	fmt.Println(res.StructuredContent.(map[string]any)["jobs"].([]any)[0].(map[string]any)["queue"])
	// Output:
	// jobs.inspect
	// jobs.list
	// jobs.show
	// queue.depth
	// billing
}
