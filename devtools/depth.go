package devtools

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pipekit/pipe/pipeline"
)

// DepthArgs are queue.depth's arguments.
type DepthArgs struct {
	Queue string `json:"queue,omitempty" jsonschema:"one queue; every queue when empty"`
}

// QueueDepth is one queue's runs by state.
type QueueDepth struct {
	Queue string `json:"queue"`
	// Pending counts runs waiting for a worker: ready or delayed.
	Pending   int64 `json:"pending"`
	Suspended int64 `json:"suspended"`
	Running   int64 `json:"running"`
	// Failed counts runs whose attempt failed and that wait for a retry.
	Failed int64 `json:"failed"`
	Dead   int64 `json:"dead"`
	Paused bool  `json:"paused"`
	// Estimated says which counts are estimates: open covers Pending and
	// Suspended, finished Failed and Dead (see pipeline.Admin.Queues).
	Estimated pipeline.Estimates `json:"estimated,omitzero"`
}

// DepthResult is what queue.depth answers.
type DepthResult struct {
	Queues []QueueDepth `json:"queues"`
}

func (t tools) depth(ctx context.Context, _ *mcp.CallToolRequest, in DepthArgs) (*mcp.CallToolResult, any, error) {
	stats, err := t.admin.Queues(ctx)
	if err != nil {
		return toolError(err)
	}
	out := DepthResult{Queues: []QueueDepth{}}
	for _, q := range stats {
		if in.Queue != "" && q.Queue != in.Queue {
			continue
		}
		out.Queues = append(out.Queues, QueueDepth{
			Queue: q.Queue, Pending: q.Ready + q.Delayed, Suspended: q.Suspended,
			Running: q.Running, Failed: q.Failed, Dead: q.Dead, Paused: q.Paused, Estimated: q.Estimated,
		})
	}
	return nil, out, nil
}
