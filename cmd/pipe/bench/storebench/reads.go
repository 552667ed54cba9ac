package storebench

import (
	"context"
	"fmt"
	"time"

	"github.com/pipekit/pipe/pipeline"
)

// Read is one operator read's figure: what `pipe jobs list`, `pipe jobs
// show`, `pipe queues list`, the console's pages and the MCP tools ask
// pipeline.Admin for.
type Read struct {
	Name string `json:"name"`
	// Call is the Admin call, with the filter it varies per sample.
	Call string `json:"call"`
	Latency
	// Rows is how many rows the last call answered: a page's runs, one for
	// a show, the queues, the counters.
	Rows int `json:"rows"`
	// Plans summarize the scans of each statement the call sent, from
	// EXPLAIN (FORMAT JSON) of that statement, captured as Admin sent it,
	// with its arguments.
	Plans []string `json:"plans"`
}

// readCase is one read: do makes sample i's call and answers its rows.
type readCase struct {
	name, call string
	do         func(ctx context.Context, adm *pipeline.Admin, i int) (int, error)
}

// listing is a read of one page whose filter sample i gives.
func listing(name, call string, filter func(i int) pipeline.ListFilter) readCase {
	return readCase{name: name, call: call, do: func(ctx context.Context, adm *pipeline.Admin, i int) (int, error) {
		p, err := adm.List(ctx, filter(i))
		return len(p.Jobs), err
	}}
}

// fixed answers a filter that is the same for every sample.
func fixed(f pipeline.ListFilter) func(int) pipeline.ListFilter {
	return func(int) pipeline.ListFilter { return f }
}

// readCases answers the reads, their samples spread over the fixture's
// jobs, queues, tenants and the runs the fill picked. cursor and back are
// the first page's next cursor and the second's previous one.
func readCases(p *picks, plan fillPlan, cursor, back string) []readCase {
	queues := queueNames()
	withRuns := tenantCount - emptyTenants
	cs := []readCase{
		listing("list", "List{}", fixed(pipeline.ListFilter{})),
		listing("list, next page", "List{After: page 1's next}", fixed(pipeline.ListFilter{After: cursor})),
		listing("list, previous page", "List{Before: page 2's prev}", fixed(pipeline.ListFilter{Before: back})),
		listing("list by name", "List{Name}", func(i int) pipeline.ListFilter {
			return pipeline.ListFilter{Name: kinds[i%len(kinds)].name}
		}),
		listing("list by queue", "List{Queue}", func(i int) pipeline.ListFilter {
			return pipeline.ListFilter{Queue: queues[i%len(queues)]}
		}),
		listing("list by tenant", "List{Tenant}", func(i int) pipeline.ListFilter {
			return pipeline.ListFilter{Tenant: tenantName(i % withRuns)}
		}),
		listing("list by tenant with no runs", "List{Tenant}", func(i int) pipeline.ListFilter {
			return pipeline.ListFilter{Tenant: tenantName(withRuns + i%emptyTenants)}
		}),
	}
	for _, st := range pipeline.AllStates() {
		cs = append(cs, listing("list by state "+string(st), "List{State}", fixed(pipeline.ListFilter{State: st})))
	}
	hours := int(plan.span / time.Hour)
	cs = append(cs,
		listing("list by id prefix", "List{IDPrefix: 8 hex digits}", func(i int) pipeline.ListFilter {
			return pipeline.ListFilter{IDPrefix: p.finishedIDs[i%len(p.finishedIDs)].String()[:8]}
		}),
		listing("list created in an hour", "List{CreatedFrom, CreatedTo}", func(i int) pipeline.ListFilter {
			from := plan.from.Add(time.Duration(i*7919%hours) * time.Hour)
			return pipeline.ListFilter{CreatedFrom: from, CreatedTo: from.Add(time.Hour)}
		}),
		listing("list by name and state dead", "List{Name, State}", func(i int) pipeline.ListFilter {
			return pipeline.ListFilter{Name: kinds[i%len(kinds)].name, State: pipeline.StateDead}
		}),
		listing("list by queue and tenant", "List{Queue, Tenant}", func(i int) pipeline.ListFilter {
			return pipeline.ListFilter{Queue: queues[i%len(queues)], Tenant: tenantName(i * 7 % withRuns)}
		}),
		listing("list by key", "List{Key}", func(i int) pipeline.ListFilter {
			return pipeline.ListFilter{Key: p.keys[i%len(p.keys)]}
		}),
	)
	if len(p.concKeys) > 0 {
		cs = append(cs, listing("list by concurrency key", "List{ConcurrencyKey}", func(i int) pipeline.ListFilter {
			return pipeline.ListFilter{ConcurrencyKey: p.concKeys[i%len(p.concKeys)]}
		}))
	}
	cs = append(cs,
		readCase{name: "show a finished run", call: "Show", do: func(ctx context.Context, adm *pipeline.Admin, i int) (int, error) {
			_, err := adm.Show(ctx, p.finishedIDs[i%len(p.finishedIDs)].String())
			return 1, err
		}},
		readCase{name: "show an open run", call: "Show", do: func(ctx context.Context, adm *pipeline.Admin, i int) (int, error) {
			_, err := adm.Show(ctx, p.openIDs[i%len(p.openIDs)].String())
			return 1, err
		}},
		readCase{name: "queue stats", call: "Queues", do: func(ctx context.Context, adm *pipeline.Admin, _ int) (int, error) {
			qs, err := adm.Queues(ctx)
			return len(qs), err
		}},
		readCase{name: "counters, last hour", call: "Counters", do: func(ctx context.Context, adm *pipeline.Admin, _ int) (int, error) {
			cs, err := adm.Counters(ctx, "", plan.now.Add(-time.Hour))
			return len(cs), err
		}},
	)
	return cs
}

// measureReads times samples calls of every read (after one untimed call
// each) through Admin over a recorder on s, and reads the plan of each
// statement the last call sent.
func measureReads(ctx context.Context, s *scratch, p *picks, plan fillPlan, samples int) ([]Read, error) {
	rec := &recorder{pool: s.pool}
	adm := pipeline.NewAdmin(rec)
	first, err := adm.List(ctx, pipeline.ListFilter{})
	if err != nil {
		return nil, err
	}
	second, err := adm.List(ctx, pipeline.ListFilter{After: first.Next})
	if err != nil {
		return nil, err
	}
	if first.Next == "" || second.Prev == "" {
		return nil, fmt.Errorf("store bench: the store has fewer than two pages of runs")
	}
	var out []Read
	for _, c := range readCases(p, plan, first.Next, second.Prev) {
		r, err := measureRead(ctx, s, rec, adm, c, samples)
		if err != nil {
			return out, fmt.Errorf("store bench: %s: %w", c.name, err)
		}
		out = append(out, r)
	}
	return out, nil
}

func measureRead(ctx context.Context, s *scratch, rec *recorder, adm *pipeline.Admin, c readCase, samples int) (Read, error) {
	r := Read{Name: c.name, Call: c.call}
	if _, err := c.do(ctx, adm, samples); err != nil {
		return r, err
	}
	took := make([]time.Duration, 0, samples)
	for i := range samples {
		rec.take()
		t0 := time.Now()
		n, err := c.do(ctx, adm, i)
		if err != nil {
			return r, err
		}
		took = append(took, time.Since(t0))
		r.Rows = n
	}
	r.Latency = latency(took)
	var err error
	r.Plans, err = explainAll(ctx, s.pool, rec.take())
	return r, err
}
