package console

import (
	"net/http"
	"strconv"

	"github.com/pipekit/pipe/pipeline"
)

// jobsView is the jobs page: the filter as asked, and one page.
type jobsView struct {
	Filter pipeline.ListFilter
	States []pipeline.State
	Page   pipeline.Page
}

func (c *Console) jobsPage(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := pipeline.ListFilter{
		Queue: q.Get("queue"), Name: q.Get("name"), State: pipeline.State(q.Get("state")), Tenant: q.Get("tenant"),
		Key: q.Get("key"), ConcurrencyKey: q.Get("concurrency_key"), After: q.Get("after"), Before: q.Get("before"),
	}
	if n, err := strconv.Atoi(q.Get("limit")); err == nil {
		f.Limit = n
	}
	page, err := c.admin.List(r.Context(), f)
	if err != nil {
		c.fail(w, r, statusOf(err), err)
		return
	}
	c.render(w, r, http.StatusOK, "jobs", "Jobs", jobsView{Filter: f, States: pipeline.AllStates(), Page: page})
}
