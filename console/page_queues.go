package console

import (
	"net/http"
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
	c.render(w, r, http.StatusOK, "queues", "Queues", queuesView{Queues: queues, Chart: buildChart(counters, now), Jobs: c.opts.Manifests})
}
