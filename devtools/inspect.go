package devtools

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// InspectArgs are jobs.inspect's arguments.
type InspectArgs struct {
	Name string `json:"name,omitempty" jsonschema:"one job's name; every job when empty"`
}

// InspectResult is what jobs.inspect answers.
type InspectResult struct {
	Jobs []pipeline.Manifest `json:"jobs"`
}

func (t tools) inspect(_ context.Context, _ *mcp.CallToolRequest, in InspectArgs) (*mcp.CallToolResult, any, error) {
	if in.Name == "" {
		return nil, InspectResult{Jobs: t.manifests}, nil
	}
	for _, m := range t.manifests {
		if m.Name == in.Name {
			return nil, InspectResult{Jobs: []pipeline.Manifest{m}}, nil
		}
	}
	return toolError(errcode.New(errcode.JobNotFound, "jobs.inspect: this pipe runs no job of that name").
		WithFix("call jobs.inspect without a name to list the jobs this pipe runs"))
}
