package pipeline

import "context"

// estimateFinishedSQL answers each queue of $1 with the failed and dead
// runs the statistics of the runs_dead partitions give it, as the planner
// reckons a queue's rows: each analyzed partition's row count times the
// queue's share of it (its most-common-values frequency, else an even part
// of what those leave). It reads the catalog only: one statement for every
// queue, where an EXPLAIN a queue would plan a statement over every
// partition each. A role that may not read a partition sees no statistics
// of it (pg_stats), and the estimate falls back to the count.
const estimateFinishedSQL = `with st as (
    select c.reltuples, coalesce(s.most_common_vals::text::text[], '{}') vals,
           coalesce(s.most_common_freqs, '{}') freqs, s.null_frac,
           case when s.n_distinct < 0 then -s.n_distinct * c.reltuples else s.n_distinct end nd
    from pg_inherits i
    join pg_class c on c.oid = i.inhrelid
    join pg_stats s on s.schemaname = 'pipe' and s.tablename = c.relname and s.attname = 'queue' and not s.inherited
    where i.inhparent = 'pipe.runs_dead'::regclass and c.reltuples > 0
)
select q.queue, coalesce(sum(st.reltuples * coalesce(st.freqs[array_position(st.vals, q.queue)],
        greatest(1 - st.null_frac - (select coalesce(sum(f), 0) from unnest(st.freqs) f), 0)
            / greatest(st.nd - cardinality(st.vals), 1))), 0)::float8
from unnest($1::text[]) q(queue) cross join st
group by q.queue`

// estimateFinished replaces the failed and dead counts of the queues whose
// count reached its cap with the statistics' estimate of their rows, split
// as the count found them, in one statement for all of them.
func estimateFinished(ctx context.Context, db DB, qs []QueueStats) error {
	var capped []string
	at := map[string]int{}
	for i, q := range qs {
		if q.Failed+q.Dead > queueFinishedExact {
			capped = append(capped, q.Queue)
			at[q.Queue] = i
		}
	}
	if len(capped) == 0 {
		return nil
	}
	est := map[string]float64{}
	rows, err := db.Query(ctx, estimateFinishedSQL, capped)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var queue string
		var n float64
		if err := rows.Scan(&queue, &n); err != nil {
			return err
		}
		est[queue] = n
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for _, name := range capped {
		q := &qs[at[name]]
		c := scaleCounts(est[name], q.Failed+q.Dead, q.Failed, q.Dead)
		q.Failed, q.Dead, q.Estimated.Finished = c[0], c[1], true
	}
	return nil
}
