package exportrows

import (
	"context"
	"strings"

	"github.com/jackc/pgx/v5"
)

// sampleRows is how many sampled keys per range the bounds are chosen from.
const sampleRows = 1000

// rangeBounds answers up to n-1 keys that split the table into n ranges of
// about equal rows: every (k/n)th key of a sample of the table's keys
// (TABLESAMPLE SYSTEM, about sampleRows keys a range), in key order, as
// text each key type reads back. A single-column key of any orderable type
// and a composite key sample alike. A table too small for the sample is
// read whole; fewer keys than ranges give fewer ranges.
func (a *attempt[In]) rangeBounds(ctx context.Context, tx pgx.Tx, n int) ([][]string, error) {
	if _, err := tx.Exec(ctx, sqlSession); err != nil {
		return nil, err
	}
	var tuples float64
	if err := tx.QueryRow(ctx, `select reltuples from pg_class where oid = $1::text::regclass`, a.src.from()).Scan(&tuples); err != nil {
		return nil, err
	}
	pct := 100.0
	if want := float64(sampleRows * n); tuples > want {
		pct = 100 * want / tuples
	}
	keys, err := a.sampleKeys(ctx, tx, pct)
	if err == nil && len(keys) < n*sampleRows/10 && pct < 100 {
		keys, err = a.sampleKeys(ctx, tx, 100) // the statistics were stale
	}
	if err != nil {
		return nil, err
	}
	var bounds [][]string
	for k := 1; k < n; k++ {
		if i := k * len(keys) / n; i > 0 && (len(bounds) == 0 || !equalKey(bounds[len(bounds)-1], keys[i-1])) {
			bounds = append(bounds, keys[i-1])
		}
	}
	return bounds, nil
}

// sampleKeys reads the keys of pct percent of the table's blocks, ordered.
func (a *attempt[In]) sampleKeys(ctx context.Context, tx pgx.Tx, pct float64) ([][]string, error) {
	texts := make([]string, len(a.plan.Key))
	order := make([]string, len(a.plan.Key))
	for i, k := range a.plan.Key {
		texts[i] = "s." + quote(k) + "::text"
		order[i] = "s." + quote(k) // the key's own order, not its text's
	}
	sql := "select " + strings.Join(texts, ", ") + " from (select " + quoteAll(a.plan.Key) + " from " + a.src.from() +
		" tablesample system ($1)) as s order by " + strings.Join(order, ", ")
	rows, err := tx.Query(ctx, sql, pct)
	if err != nil {
		return nil, err
	}
	var keys [][]string
	for rows.Next() {
		vals := rows.RawValues()
		k := make([]string, len(vals))
		for i, v := range vals {
			k[i] = string(v)
		}
		keys = append(keys, k)
	}
	return keys, rows.Err()
}

func equalKey(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
