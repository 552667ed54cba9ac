package storebench

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"time"

	"github.com/pipekit/pipe/console"
	"github.com/pipekit/pipe/pipeline"
)

// Page is one console page's figure: a GET over HTTP, as a browser loads
// the document, timed to its last byte.
type Page struct {
	Name string `json:"name"`
	// Path is the last sample's path and query.
	Path string `json:"path"`
	Latency
	// Bytes is the last answer's body size.
	Bytes int `json:"bytes"`
}

// pageCase is one page: path answers sample i's path and query.
type pageCase struct {
	name string
	path func(i int) string
}

// query answers /jobs with the filter kv (name, value pairs).
func query(kv ...string) string {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	return "/jobs?" + v.Encode()
}

// pageCases are the console's pages and the filters its jobs page offers,
// their samples spread as the reads' are.
func pageCases(p *picks) []pageCase {
	queues := queueNames()
	withRuns := tenantCount - emptyTenants
	same := func(path string) func(int) string { return func(int) string { return path } }
	cs := []pageCase{
		{"queues (/)", same("/")},
		{"jobs", same("/jobs")},
		{"jobs by name", func(i int) string { return query("name", kinds[i%len(kinds)].name) }},
		{"jobs by queue", func(i int) string { return query("queue", queues[i%len(queues)]) }},
		{"jobs by tenant", func(i int) string { return query("tenant", tenantName(i%withRuns)) }},
		{"jobs by state dead", same(query("state", string(pipeline.StateDead)))},
		{"jobs by state ready", same(query("state", string(pipeline.StateReady)))},
		{"jobs by name and state dead", func(i int) string {
			return query("name", kinds[i%len(kinds)].name, "state", string(pipeline.StateDead))
		}},
		{"jobs by queue and tenant", func(i int) string {
			return query("queue", queues[i%len(queues)], "tenant", tenantName(i*7%withRuns))
		}},
		{"jobs by key", func(i int) string { return query("key", p.keys[i%len(p.keys)]) }},
	}
	if len(p.concKeys) > 0 {
		cs = append(cs, pageCase{"jobs by concurrency key", func(i int) string {
			return query("concurrency_key", p.concKeys[i%len(p.concKeys)])
		}})
	}
	return append(cs,
		pageCase{"a finished run", func(i int) string { return "/jobs/" + p.finishedIDs[i%len(p.finishedIDs)].String() }},
		pageCase{"an open run", func(i int) string { return "/jobs/" + p.openIDs[i%len(p.openIDs)].String() }},
		pageCase{"tasks", same("/tasks")},
		pageCase{"workers", same("/workers")},
	)
}

// measurePages serves the console over the full store on a loopback HTTP
// server and times samples GETs of every page (after one untimed GET each).
func measurePages(ctx context.Context, s *scratch, p *picks, samples int) ([]Page, error) {
	c, err := console.New(pipeline.NewAdmin(s.pool), console.Options{DB: s.pool})
	if err != nil {
		return nil, err
	}
	srv := httptest.NewServer(c)
	defer srv.Close()
	var out []Page
	for _, pc := range pageCases(p) {
		pg := Page{Name: pc.name}
		if _, err := get(ctx, srv, pc.path(samples)); err != nil {
			return out, err
		}
		took := make([]time.Duration, 0, samples)
		for i := range samples {
			pg.Path = pc.path(i)
			t0 := time.Now()
			n, err := get(ctx, srv, pg.Path)
			if err != nil {
				return out, err
			}
			took = append(took, time.Since(t0))
			pg.Bytes = n
		}
		pg.Latency = latency(took)
		out = append(out, pg)
	}
	return out, nil
}

// get answers the size of path's body, read whole; an answer other than
// 200 is an error.
func get(ctx context.Context, srv *httptest.Server, path string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+path, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Accept", "text/html")
	res, err := srv.Client().Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	n, err := io.Copy(io.Discard, res.Body)
	if err == nil && res.StatusCode != http.StatusOK {
		err = fmt.Errorf("store bench: console %s answered %d", path, res.StatusCode)
	}
	return int(n), err
}
