package pipeline

import (
	"encoding/json"

	"github.com/pipekit/pipe/errcode"
)

// ErrorRecord is an error as a run's row and journal keep it.
type ErrorRecord struct {
	Code     string            `json:"code,omitempty"`
	Message  string            `json:"message"`
	Fix      string            `json:"fix,omitempty"`
	Meta     map[string]string `json:"meta,omitempty"`
	Class    string            `json:"class,omitempty"`
	Attempt  int               `json:"attempt,omitempty"`
	Terminal bool              `json:"terminal,omitempty"`
}

func recordOf(err error) ErrorRecord {
	rec := ErrorRecord{Message: err.Error()}
	if e, ok := errcode.As(err); ok {
		rec.Code, rec.Message, rec.Fix, rec.Meta = string(e.Code), e.Message, e.Fix, e.Meta
		rec.Class = string(errcode.ClassOf(e.Code))
	}
	return rec
}

func errorJSON(err error) json.RawMessage {
	b, _ := json.Marshal(recordOf(err))
	return b
}
