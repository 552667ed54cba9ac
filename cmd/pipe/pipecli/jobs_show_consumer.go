package pipecli

import (
	"fmt"
	"io"
	"strconv"

	"github.com/pipekit/pipe/backfill"
	"github.com/pipekit/pipe/consumer"
	"github.com/pipekit/pipe/pipeline"
)

// runJSON is what `pipe jobs show --json` prints: the run, and for a
// consumer's run its status under "consumer" ({key, lastBatchAt, lag,
// items, batches}), for a backfill pass its ledger row under "backfill".
type runJSON struct {
	*pipeline.RunDetail
	Consumer *consumer.Status `json:"consumer,omitempty"`
	// Backfill is a backfill pass's ledger row.
	Backfill *backfill.Pass `json:"backfill,omitempty"`
}

func showJSON(d *pipeline.RunDetail) runJSON {
	out := runJSON{RunDetail: d}
	if st, ok := consumer.StatusOf(d); ok {
		out.Consumer = &st
	}
	return out
}

// renderConsumer writes a consumer run's status: the key, when its last
// batch committed, its lag and counts. Other runs print nothing.
func renderConsumer(w io.Writer, d *pipeline.RunDetail) error {
	st, ok := consumer.StatusOf(d)
	if !ok {
		return nil
	}
	fmt.Fprintln(w, "\nconsumer")
	lag := "-"
	if st.Lag != nil {
		lag = strconv.FormatInt(*st.Lag, 10)
	}
	t := newTable(w, "  key", truncate(st.Key, headerValueWidth))
	t.row("  last batch", stampPtr(st.LastBatchAt))
	t.row("  lag", lag)
	t.row("  items", strconv.FormatInt(st.Items, 10))
	t.row("  batches", strconv.FormatInt(st.Batches, 10))
	return t.flush()
}
