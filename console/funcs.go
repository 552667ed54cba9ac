package console

import (
	"bytes"
	"encoding/json"
	"html/template"
	"strconv"
	"time"

	"github.com/pipekit/pipe/pipeline"
)

// funcs are the helpers the templates call.
var funcs = template.FuncMap{
	"stamp":    stamp,
	"stampPtr": stampPtr,
	"pretty":   pretty,
	"since":    func(t time.Time) string { return time.Since(t).Round(time.Second).String() },
	"deref":    func(n *int64) int64 { return *n },
	"round":    func(d *time.Duration) string { return d.Round(time.Second).String() },
	"depth":    depth,
}

// depth renders one of a queue's counts: in full, or as an estimate
// (~1.2M, see pipeline.Estimates).
func depth(n int64, estimated bool) string {
	if estimated {
		return pipeline.FormatEstimate(n)
	}
	return strconv.FormatInt(n, 10)
}

// stamp renders an instant in UTC to the second, or "-".
func stamp(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("2006-01-02 15:04:05Z")
}

func stampPtr(t *time.Time) string {
	if t == nil {
		return "-"
	}
	return stamp(*t)
}

// pretty indents a JSON document for a <pre>; the template escapes it.
func pretty(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var buf bytes.Buffer
	if json.Indent(&buf, raw, "", "  ") != nil {
		return string(raw)
	}
	return buf.String()
}
