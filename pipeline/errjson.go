package pipeline

import (
	"context"
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

// recordOf is err as the row and journal keep it. A raw database failure is
// coded first (errcode.Postgres), so that no stored text quotes the server's
// message, which can hold a row's values.
func recordOf(err error) ErrorRecord {
	if _, coded := errcode.As(err); !coded && errcode.IsPostgres(err) {
		err = errcode.Postgres(context.Background(), err, "a statement")
	}
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
