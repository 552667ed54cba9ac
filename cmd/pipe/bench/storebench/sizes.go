package storebench

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Sizes is the store on disk, summed over the leaf partitions
// (pg_total_relation_size: heap, TOAST and indexes).
type Sizes struct {
	// RunsBytes is every partition of pipe.runs, RunsIndexBytes the part
	// of it its indexes take, JournalBytes every partition of
	// pipe.run_events; TotalBytes the two.
	RunsBytes      int64 `json:"runsBytes"`
	RunsIndexBytes int64 `json:"runsIndexBytes"`
	JournalBytes   int64 `json:"journalBytes"`
	TotalBytes     int64 `json:"totalBytes"`
	// FinishedBytes is the finished partitions (runs_done, runs_dead), and
	// BytesPerFinishedRun that over the finished runs;
	// JournalBytesPerFinishedRun is their journal's share likewise.
	FinishedBytes              int64   `json:"finishedBytes"`
	BytesPerFinishedRun        float64 `json:"bytesPerFinishedRun"`
	JournalBytesPerFinishedRun float64 `json:"journalBytesPerFinishedRun"`
	// OpenBytes is pipe.runs_open, the hot table.
	OpenBytes int64 `json:"openBytes"`
	// Partitions counts the leaf partitions of the runs and the journal.
	Partitions int `json:"partitions"`
}

// sqlSizes sums the leaf partitions of the trees $1 names: $2 the runs',
// $3 the journal's, $4 the finished runs' two, $5 their journal's two;
// and the size of $6, the open runs' table.
const sqlSizes = `
with leaves as (
    select t.tree, p.relid
    from unnest($1::text[]) as t(tree)
    cross join lateral pg_partition_tree(t.tree::regclass) p
    where p.isleaf
)
select coalesce(sum(pg_total_relation_size(relid)) filter (where tree = $2), 0)::int8,
       coalesce(sum(pg_indexes_size(relid)) filter (where tree = $2), 0)::int8,
       coalesce(sum(pg_total_relation_size(relid)) filter (where tree = $3), 0)::int8,
       coalesce(sum(pg_total_relation_size(relid)) filter (where tree = any($4)), 0)::int8,
       coalesce(sum(pg_total_relation_size(relid)) filter (where tree = any($5)), 0)::int8,
       pg_total_relation_size($6::text::regclass),
       count(*) filter (where tree in ($2, $3))::int
from leaves`

// measureSizes reads the store's sizes; finished is how many finished runs
// it holds.
func measureSizes(ctx context.Context, pool *pgxpool.Pool, finished int64) (Sizes, error) {
	var s Sizes
	var finishedJournal int64
	trees := []string{"pipe.runs", "pipe.run_events", "pipe.runs_done", "pipe.runs_dead", "pipe.run_events_done", "pipe.run_events_dead"}
	err := pool.QueryRow(ctx, sqlSizes, trees, "pipe.runs", "pipe.run_events",
		[]string{"pipe.runs_done", "pipe.runs_dead"}, []string{"pipe.run_events_done", "pipe.run_events_dead"}, "pipe.runs_open").
		Scan(&s.RunsBytes, &s.RunsIndexBytes, &s.JournalBytes, &s.FinishedBytes, &finishedJournal, &s.OpenBytes, &s.Partitions)
	if err != nil {
		return s, fmt.Errorf("store bench: sizes: %w", err)
	}
	s.TotalBytes = s.RunsBytes + s.JournalBytes
	if finished > 0 {
		s.BytesPerFinishedRun = float64(s.FinishedBytes) / float64(finished)
		s.JournalBytesPerFinishedRun = float64(finishedJournal) / float64(finished)
	}
	return s, nil
}
