package consumer

import (
	"encoding/json"
	"time"

	"github.com/pipekit/pipe/pipeline"
)

// Status is what `pipe jobs show` reports about a consumer's run.
type Status struct {
	// Key is the key the run follows.
	Key string `json:"key"`
	// LastBatchAt is when the run's last batch committed, by the database
	// clock; nil before the first.
	LastBatchAt *time.Time `json:"lastBatchAt"`
	// Lag is how many items were behind the cursor at the last measure; nil
	// when the consumer declares no Lag or has not measured it yet.
	Lag *int64 `json:"lag"`
	// Items and Batches count what the run committed, over all its
	// attempts.
	Items   int64 `json:"items"`
	Batches int64 `json:"batches"`
}

// StatusOf answers the consumer status of a run, and false when d is not a
// consumer's run or has committed nothing yet.
func StatusOf(d *pipeline.RunDetail) (Status, bool) {
	var doc statusDoc
	if len(d.Status) == 0 || json.Unmarshal(d.Status, &doc) != nil || doc.Consumer.Key == "" {
		return Status{}, false
	}
	s := Status{Key: doc.Consumer.Key, LastBatchAt: d.StatusAt, Items: doc.Consumer.Items, Batches: doc.Consumer.Batches}
	var p pipeline.ProgressRecord
	if len(d.Progress) > 0 && json.Unmarshal(d.Progress, &p) == nil {
		lag := p.Total - p.Done
		s.Lag = &lag
	}
	return s, true
}

// statusDoc is the run's status document as the batches write it: under
// "consumer", so that the document says whose it is.
type statusDoc struct {
	Consumer docBody `json:"consumer"`
}

type docBody struct {
	Key     string `json:"key"`
	Items   int64  `json:"items"`
	Batches int64  `json:"batches"`
}

// runStatus is the run's counts, as committed.
type runStatus struct {
	doc statusDoc
}

// next answers the document after one more batch of n items.
func (s *runStatus) next(n int) statusDoc {
	d := s.doc
	d.Consumer.Items += int64(n)
	d.Consumer.Batches++
	return d
}

func (s *runStatus) result() Result {
	return Result{Items: s.doc.Consumer.Items, Batches: s.doc.Consumer.Batches}
}
