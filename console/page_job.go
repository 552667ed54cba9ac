package console

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"

	"github.com/pipekit/pipe/pipeline"
)

// jobView is one run's page.
type jobView struct {
	Run      *pipeline.RunDetail
	Timeline timeline
	Progress *pipeline.ProgressRecord
	Status   []field
	// Retryable, Cancellable, Promotable and Removable say which actions
	// the run's state allows.
	Retryable, Cancellable, Promotable, Removable bool
}

// field is one top-level member of a status document.
type field struct {
	Name  string
	Value string
}

func (c *Console) jobPage(w http.ResponseWriter, r *http.Request) {
	d, err := c.admin.Show(r.Context(), segmentName(r, "id"))
	if err != nil {
		c.fail(w, r, statusOf(err), err)
		return
	}
	v := jobView{Run: d, Timeline: buildTimeline(d), Status: fields(d.Status)}
	if len(d.Progress) > 0 {
		var p pipeline.ProgressRecord
		if json.Unmarshal(d.Progress, &p) == nil {
			v.Progress = &p
		}
	}
	v.Retryable, v.Cancellable = d.State.Finished(), d.State.Live()
	v.Removable = d.State != pipeline.StateRunning
	v.Promotable = slices.Contains(pipeline.PromotableStates(), d.State)
	c.render(w, r, http.StatusOK, "job", d.Name, v)
}

// fields answers a status document's top-level members, in the document's
// order, each value as compact JSON; nil for a document that is not an
// object.
func fields(raw json.RawMessage) []field {
	if len(raw) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	var out []field
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return out
		}
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return out
		}
		name, _ := key.(string)
		out = append(out, field{Name: name, Value: string(v)})
	}
	return out
}
