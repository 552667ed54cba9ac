package console

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/pipekit/pipe/pipeline"
)

// queuesView is the queues page: depth by state, the throughput chart and
// the jobs this pipe runs.
type queuesView struct {
	Queues []pipeline.QueueStats
	Chart  chart
	Jobs   []pipeline.Manifest
}

func (c *Console) queuesPage(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	queues, err := c.admin.Queues(ctx)
	if err != nil {
		c.fail(w, r, statusOf(err), err)
		return
	}
	now := c.opts.Now()
	counters, err := c.admin.Counters(ctx, "", now.Add(-chartMinutes*time.Minute))
	if err != nil {
		c.fail(w, r, statusOf(err), err)
		return
	}
	c.render(w, r, http.StatusOK, "queues", "Queues", queuesView{Queues: withIdle(queues, c.opts.Manifests), Chart: buildChart(counters, now), Jobs: c.opts.Manifests})
}

// withIdle adds the queues of the jobs this pipe runs that hold no open
// run, at zero, so an operator can pause a queue before work arrives.
func withIdle(queues []pipeline.QueueStats, jobs []pipeline.Manifest) []pipeline.QueueStats {
	for _, m := range jobs {
		if !slices.ContainsFunc(queues, func(q pipeline.QueueStats) bool { return q.Queue == m.Queue }) {
			queues = append(queues, pipeline.QueueStats{Queue: m.Queue})
		}
	}
	slices.SortFunc(queues, func(a, b pipeline.QueueStats) int { return strings.Compare(a.Queue, b.Queue) })
	return queues
}
