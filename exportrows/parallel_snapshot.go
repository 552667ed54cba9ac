package exportrows

import (
	"context"
	"errors"
	"regexp"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// SnapshotApplication is the application_name of the connection a parallel
// export's parent holds its snapshot on: what an operator sees of it in
// pg_stat_activity.
const SnapshotApplication = "pipe export snapshot"

// exportedSnapshot is a parallel export's parent's REPEATABLE READ,
// read-only transaction, on a connection of its own (outside the pool and
// its budget of held connections), and the snapshot it exported with
// pg_export_snapshot, as pg_dump -j does: each child reads in it with SET
// TRANSACTION SNAPSHOT while the transaction stays open.
type exportedSnapshot struct {
	conn *pgx.Conn
	tx   pgx.Tx
	id   string
}

// exportSnapshot opens the parent's snapshot on a new connection to the
// worker's database.
func exportSnapshot(ctx context.Context, name string) (*exportedSnapshot, error) {
	cfg := pipeline.Pool(ctx).Config().ConnConfig.Copy()
	cfg.RuntimeParams["application_name"] = SnapshotApplication
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, errcode.Postgres(ctx, err, "export "+name+": connect for the snapshot")
	}
	s := &exportedSnapshot{conn: conn}
	if s.tx, err = conn.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}); err == nil {
		err = s.tx.QueryRow(ctx, `select pg_export_snapshot()`).Scan(&s.id)
	}
	if err != nil {
		s.close()
		return nil, errcode.Postgres(ctx, err, "export "+name+": export the snapshot")
	}
	return s, nil
}

// alive answers X_EXPORT_SNAPSHOT_LOST when the snapshot's connection is
// gone (the server ended it, or the network did).
func (s *exportedSnapshot) alive(ctx context.Context) error {
	if _, err := s.tx.Exec(ctx, `select 1`); err != nil {
		if ctx.Err() != nil {
			return errcode.Postgres(ctx, context.Cause(ctx), "export: hold the snapshot")
		}
		return errcode.New(errcode.ExportSnapshotLost, "export: the export's snapshot is lost: the connection holding it ended").
			WithFix("export again; keep the worker running the parent (its connection holds the snapshot) up until the ranges finish")
	}
	return nil
}

func (s *exportedSnapshot) close() {
	if s != nil && s.conn != nil {
		_ = s.conn.Close(context.Background())
	}
}

// snapshotID is the form of pg_export_snapshot's answer; SET TRANSACTION
// SNAPSHOT takes a literal, never a parameter, so anything else is refused
// before it is spliced in.
var snapshotID = regexp.MustCompile(`^[0-9A-F]{1,16}(-[0-9A-F]{1,16}){1,2}$`)

// importedSnapshot begins a child's read: a REPEATABLE READ, read-only
// transaction on a held connection, in its parent's snapshot. A snapshot
// its parent no longer holds is X_EXPORT_SNAPSHOT_LOST.
func (a *attempt[In]) importedSnapshot(ctx context.Context) (pgx.Tx, func(), error) {
	id := a.rng.Snapshot
	if !snapshotID.MatchString(id) {
		return nil, nil, errcode.New(errcode.JobInputInvalid, "export %s: the range's snapshot is not one pg_export_snapshot names", a.plan.Name).
			WithFix("enqueue a parallel export through its parent run, not a range by hand")
	}
	tx, free, err := a.heldSnapshot(ctx)
	if err != nil {
		return nil, nil, err
	}
	if _, err := tx.Exec(ctx, "set transaction snapshot '"+id+"'"); err != nil {
		_ = tx.Rollback(context.Background())
		free()
		var pe *pgconn.PgError
		if errors.As(err, &pe) && pe.Code == "22023" { // invalid snapshot identifier
			return nil, nil, snapshotLost(a.plan.Name, "its parent no longer holds it")
		}
		return nil, nil, errcode.Postgres(ctx, err, "export "+a.plan.Name+": take the parent's snapshot")
	}
	return tx, free, nil
}
