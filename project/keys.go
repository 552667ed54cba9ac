package project

import (
	"regexp"
	"strings"

	"github.com/pipekit/pipe/errcode"
)

// goField matches the Go field paths the factories name their faults by
// (rollup.Options, views.Options, backfill.Options, pipeline.JobOptions),
// for the fields a project file declares.
var goField = regexp.MustCompile(`\b(Source\.Aggregates\[[0-9]+\]\.(?:Func|Column|Into)|Source\.(?:Aggregates|Table|Time|GroupBy|Where)|Bucket\.(?:Unit|Zone|Column)|Retry\.Attempts|Into|Key|Lookback|Name|View|Timeout|Queue|Table|Query|SQL|MinBatch|MaxBatch|Batch|Rate|Target)\b`)

// fileKeys maps a Go field path to its pipe.json key.
var fileKeys = strings.NewReplacer("Source.", "source.", "Aggregates", "aggregates", "Func", "func", "Column", "column",
	"Into", "into", "Table", "table", "Time", "time", "GroupBy", "groupBy", "Where", "where", "Bucket.", "bucket.",
	"Unit", "unit", "Zone", "zone", "Retry.Attempts", "attempts", "Key", "key", "Lookback", "lookback", "Name", "name",
	"View", "view", "Timeout", "timeout", "Queue", "queue", "Query", "query", "SQL", "sql",
	"MinBatch", "minBatch", "MaxBatch", "maxBatch", "Batch", "batch", "Rate", "rate", "Target", "target")

// inFileKeys answers err with the Go field paths of its message and fix
// written as the file's keys under at ("rollups[0]"): Bucket.Unit becomes
// rollups[0].bucket.unit. label is the message's opening ("rollup daily: "),
// the declaration's own name, left as written. Another error is answered as
// it is.
func inFileKeys(err error, at, label string) error {
	e, ok := errcode.As(err)
	if !ok || err == nil {
		return err
	}
	keys := func(s string) string {
		return goField.ReplaceAllStringFunc(s, func(f string) string { return at + "." + fileKeys.Replace(f) })
	}
	msg := e.Message
	if rest, ok := strings.CutPrefix(msg, label); ok {
		msg = label + keys(rest)
	} else {
		msg = keys(msg)
	}
	out := errcode.Wrap(err, e.Code, "%s", msg).WithFix(keys(e.Fix))
	for k, v := range e.Meta {
		out = out.WithMeta(k, v)
	}
	return out
}
