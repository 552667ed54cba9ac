package storebench

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"golang.org/x/sync/errgroup"
)

// chunkRuns is how many runs one COPY of the fill writes; the streams take
// chunks in turn, oldest first.
const chunkRuns = 100_000

// seqsPerRun is how many journal sequence numbers a chunk sets aside per
// run: three transitions and a journal row at most.
const seqsPerRun = 4

// fillPlan is what the fill writes: finished runs spread evenly over the
// whole UTC days [from, from+span), and open runs enqueued within the hour
// before now.
type fillPlan struct {
	finished, open int
	days           int
	from           time.Time
	span           time.Duration
	now            time.Time
}

// finishedAt answers the finish time of finished run i, u (0 to 1) its
// place within its share of the span.
func (p fillPlan) finishedAt(i int, u float64) time.Time {
	at := p.from.Add(time.Duration((float64(i) + u) * float64(p.span) / float64(p.finished)))
	return minTime(at, p.from.Add(p.span-time.Microsecond))
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// chunk is one COPY's runs: [lo, hi) of the finished or of the open ones.
type chunk struct {
	index  int
	lo, hi int
	open   bool
}

// chunks answers the plan's chunks, the finished ones first.
func (p fillPlan) chunks() []chunk {
	var out []chunk
	for _, part := range []struct {
		n    int
		open bool
	}{{p.finished, false}, {p.open, true}} {
		for lo := 0; lo < part.n; lo += chunkRuns {
			out = append(out, chunk{index: len(out), lo: lo, hi: min(lo+chunkRuns, part.n), open: part.open})
		}
	}
	return out
}

// Fill is how the store was filled.
type Fill struct {
	// Finished and Open are the runs written, JournalRows the journal rows
	// beside them.
	Finished    int64 `json:"finished"`
	Open        int64 `json:"open"`
	JournalRows int64 `json:"journalRows"`
	// CopyMs is the time the COPY streams took, RowsPerSecond the runs and
	// journal rows they wrote a second, RunsPerSecond the runs alone.
	CopyMs        float64 `json:"copyMs"`
	RowsPerSecond float64 `json:"rowsPerSecond"`
	RunsPerSecond float64 `json:"runsPerSecond"`
	Streams       int     `json:"streams"`
	// VacuumMs is the VACUUM (ANALYZE) of the runs and the journal after.
	VacuumMs float64 `json:"vacuumMs"`
}

// fill writes the plan's rows into s with streams COPY streams, each on a
// connection of its own (synchronous_commit off), then sets the journal's
// sequence past the numbers it used and vacuums and analyzes the runs and
// the journal. It answers the figure and the values it picked for the
// reads.
func fill(ctx context.Context, s *scratch, p fillPlan, streams int) (Fill, *picks, error) {
	chunks := p.chunks()
	work := make(chan chunk)
	var set pickSet
	counts := make([]Fill, streams)
	rate := pickRate(p.finished)
	openRate := pickRate(p.open)
	start := time.Now()
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		defer close(work)
		for _, c := range chunks {
			select {
			case work <- c:
			case <-gctx.Done():
				return gctx.Err()
			}
		}
		return nil
	})
	for i := range streams {
		g.Go(func() error {
			conn, err := pgx.ConnectConfig(gctx, s.connConfig())
			if err != nil {
				return fmt.Errorf("fill: connect: %w", err)
			}
			defer conn.Close(context.WithoutCancel(gctx))
			if _, err := conn.Exec(gctx, `set synchronous_commit = off`); err != nil {
				return err
			}
			for c := range work {
				r := rate
				if c.open {
					r = openRate
				}
				cg := newGen(c.index, int64(c.index)*chunkRuns*seqsPerRun, r)
				if err := copyChunk(gctx, conn, p, c, cg, &counts[i]); err != nil {
					return err
				}
				set.add(&cg.picks)
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return Fill{}, nil, err
	}
	var f Fill
	for _, c := range counts {
		f.Finished, f.Open, f.JournalRows = f.Finished+c.Finished, f.Open+c.Open, f.JournalRows+c.JournalRows
	}
	d := time.Since(start)
	f.CopyMs, f.Streams = ms(d), streams
	f.RowsPerSecond = float64(f.Finished+f.Open+f.JournalRows) / d.Seconds()
	f.RunsPerSecond = float64(f.Finished+f.Open) / d.Seconds()
	if _, err := s.pool.Exec(ctx, `select setval('pipe.journal_seq', $1)`, int64(len(chunks))*chunkRuns*seqsPerRun+1); err != nil {
		return f, nil, err
	}
	start = time.Now()
	if _, err := s.pool.Exec(ctx, `vacuum (analyze) pipe.runs, pipe.run_events`); err != nil {
		return f, nil, fmt.Errorf("fill: vacuum: %w", err)
	}
	f.VacuumMs = ms(time.Since(start))
	return f, &set.p, nil
}

// copyChunk copies one chunk's runs into pipe.runs, then their journal
// rows into pipe.run_events, adding the counts to f.
func copyChunk(ctx context.Context, conn *pgx.Conn, p fillPlan, c chunk, g *gen, f *Fill) error {
	src := &runSource{g: g, p: p, c: c, i: c.lo, row: make([]any, len(runColumns))}
	n, err := conn.CopyFrom(ctx, pgx.Identifier{"pipe", "runs"}, runColumns, src)
	if err != nil {
		return fmt.Errorf("fill: copy runs: %w", err)
	}
	if c.open {
		f.Open += n
	} else {
		f.Finished += n
	}
	n, err = conn.CopyFrom(ctx, pgx.Identifier{"pipe", "run_events"}, journalColumns, pgx.CopyFromRows(g.journal))
	if err != nil {
		return fmt.Errorf("fill: copy journal: %w", err)
	}
	f.JournalRows += n
	return nil
}

// runSource makes a chunk's runs one at a time, as COPY reads them.
type runSource struct {
	g   *gen
	p   fillPlan
	c   chunk
	i   int
	r   runRow
	row []any
}

func (s *runSource) Next() bool {
	if s.i >= s.c.hi {
		return false
	}
	if s.c.open {
		s.g.open(&s.r, s.p.now)
	} else {
		s.g.finished(&s.r, s.p.finishedAt(s.i, s.g.rng.Float64()))
	}
	s.r.values(s.row)
	s.i++
	return true
}

func (s *runSource) Values() ([]any, error) { return s.row, nil }

func (s *runSource) Err() error { return nil }
