package pipeline

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// sqlNeedsVacuum names the open runs' tables (the hot set every settle
// leaves dead rows in, as a row moves to its finished partition) whose dead
// rows outnumber their live ones by 10,000 and that no vacuum has visited
// for ten minutes: a server whose autovacuum is off or behind.
const sqlNeedsVacuum = `select relname::text from pg_stat_user_tables
	where schemaname = 'pipe' and relname in ('runs_open', 'run_events_open')
	  and n_dead_tup > n_live_tup + 10000
	  and coalesce(greatest(last_vacuum, last_autovacuum), '-infinity') < now() - interval '10 minutes'`

// vacuumOpen vacuums the open runs' tables when they need it. VACUUM
// cannot run in a transaction: given one, it does nothing.
func vacuumOpen(ctx context.Context, db DB) error {
	if _, ok := db.(pgx.Tx); ok {
		return nil
	}
	rows, err := db.Query(ctx, sqlNeedsVacuum)
	if err != nil {
		return adminErr("vacuum", err)
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return adminErr("vacuum", err)
	}
	for _, n := range names {
		if _, err := db.Exec(ctx, `vacuum (analyze) `+pgx.Identifier{"pipe", n}.Sanitize()); err != nil {
			return adminErr("vacuum", err)
		}
	}
	return nil
}
