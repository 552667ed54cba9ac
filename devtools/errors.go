package devtools

import (
	"encoding/json"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pipekit/pipe/errcode"
)

// ToolError is the body of a tool error: the code, the message and the fix,
// as `pipe --json` prints an error.
type ToolError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Fix     string `json:"fix,omitempty"`
}

// toolError answers err as a tool error the client's model can read: the
// code, the message and the fix as JSON text.
func toolError(err error) (*mcp.CallToolResult, any, error) {
	body := ToolError{Code: string(errcode.CodeOf(err)), Message: err.Error()}
	var e *errcode.Error
	if errors.As(err, &e) {
		body.Message, body.Fix = e.Message, e.Fix
	}
	text, _ := json.Marshal(map[string]ToolError{"error": body})
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: string(text)}}}, nil, nil
}
