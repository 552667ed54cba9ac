package devtools

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pipekit/pipe/pipeline"
)

// ListArgs are jobs.list's arguments: the filters of `pipe jobs list`.
type ListArgs struct {
	Queue          string `json:"queue,omitempty" jsonschema:"only runs in this queue"`
	Name           string `json:"name,omitempty" jsonschema:"only runs of this job"`
	State          string `json:"state,omitempty" jsonschema:"only runs in this state: ready, delayed, running, suspended, done, failed, dead or cancelled"`
	Tenant         string `json:"tenant,omitempty" jsonschema:"only runs of this tenant"`
	Key            string `json:"key,omitempty" jsonschema:"only runs with this idempotency key"`
	ConcurrencyKey string `json:"concurrencyKey,omitempty" jsonschema:"only runs with this concurrency key"`
	Limit          int    `json:"limit,omitempty" jsonschema:"rows per page, 1 to 200; default 50"`
	After          string `json:"after,omitempty" jsonschema:"the page after this cursor (a page's next)"`
	Before         string `json:"before,omitempty" jsonschema:"the page before this cursor (a page's prev)"`
}

func (t tools) list(ctx context.Context, _ *mcp.CallToolRequest, in ListArgs) (*mcp.CallToolResult, any, error) {
	page, err := t.admin.List(ctx, pipeline.ListFilter{
		Queue: in.Queue, Name: in.Name, State: pipeline.State(in.State), Tenant: in.Tenant,
		Key: in.Key, ConcurrencyKey: in.ConcurrencyKey, Limit: in.Limit, After: in.After, Before: in.Before,
	})
	if err != nil {
		return toolError(err)
	}
	if page.Jobs == nil {
		page.Jobs = []pipeline.JobRow{}
	}
	return nil, page, nil
}

// ShowArgs are jobs.show's arguments.
type ShowArgs struct {
	ID string `json:"id" jsonschema:"the run's id, as jobs.list answers it"`
}

func (t tools) show(ctx context.Context, _ *mcp.CallToolRequest, in ShowArgs) (*mcp.CallToolResult, any, error) {
	d, err := t.admin.Show(ctx, in.ID)
	if err != nil {
		return toolError(err)
	}
	return nil, d, nil
}
