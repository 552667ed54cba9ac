package pipeline

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"

	"github.com/pipekit/pipe/errcode"
)

// checksumOf answers a migration file's checksum: the SHA-256, in hex, of
// its bytes with carriage returns removed, so a checkout that turns line
// ends into CRLF ships the same migration.
func checksumOf(body []byte) string {
	sum := sha256.Sum256(bytes.ReplaceAll(body, []byte("\r"), nil))
	return hex.EncodeToString(sum[:])
}

// appliedMigration is one row of pipe.migrations; checksum is "" for a row
// recorded before migration 13 added the column.
type appliedMigration struct {
	name     string
	checksum string
}

// readApplied answers the database's applied migrations by version. It
// reads the checksum through the row's JSON form, which has no checksum
// before migration 13 added the column.
func readApplied(ctx context.Context, db DB) (map[int]appliedMigration, error) {
	rows, err := db.Query(ctx, `select version, name, coalesce(to_jsonb(m) ->> 'checksum', '') from pipe.migrations m`)
	if err != nil {
		return nil, migrateErr(err, "read versions")
	}
	defer rows.Close()
	done := map[int]appliedMigration{}
	for rows.Next() {
		var v int
		var a appliedMigration
		if err := rows.Scan(&v, &a.name, &a.checksum); err != nil {
			return nil, migrateErr(err, "read versions")
		}
		done[v] = a
	}
	return done, migrateErr(rows.Err(), "read versions")
}

// pendingMigrations answers the migrations of all that the database has not
// applied, refusing first an applied one whose recorded checksum is not its
// file's and a pending one older than the newest applied.
func pendingMigrations(all []migration, done map[int]appliedMigration) ([]migration, error) {
	newest := 0
	for v := range done {
		newest = max(newest, v)
	}
	var pending []migration
	for _, m := range all {
		a, ok := done[m.version]
		switch {
		case ok && a.checksum != "" && a.checksum != m.checksum:
			return nil, changedErr(m, "the database applied a migration %04d (%s) that differs from the file this pipe ships", m.version, a.name)
		case !ok && m.version < newest:
			return nil, changedErr(m, "migration %04d_%s is older than %04d, which the database already applied", m.version, m.name, newest)
		case !ok:
			pending = append(pending, m)
		}
	}
	return pending, nil
}

func changedErr(m migration, format string, args ...any) error {
	return errcode.New(errcode.MigrationChanged, "migrate: "+format, args...).
		WithMeta("version", strconv.Itoa(m.version)).
		WithFix(fmt.Sprintf("released migrations are never edited or inserted below later ones: restore %04d_%s.sql as released "+
			"and ship the change as a new migration, or run the pipe that migrated this database", m.version, m.name))
}

// recordChecksums stores each migration's checksum on its row where none is
// recorded: the rows this Migrate wrote, and those written before migration
// 13 added the column.
func recordChecksums(ctx context.Context, db DB, all []migration) error {
	versions, sums := make([]int32, len(all)), make([]string, len(all))
	for i, m := range all {
		versions[i], sums[i] = int32(m.version), m.checksum
	}
	var missing bool
	err := db.QueryRow(ctx, `select exists (select from pipe.migrations where checksum is null)`).Scan(&missing)
	if err != nil || !missing { // nothing to write: a role that only reads the table may migrate an up-to-date database
		return migrateErr(err, "record checksums")
	}
	_, err = db.Exec(ctx, `update pipe.migrations m set checksum = f.checksum
		from unnest($1::int[], $2::text[]) as f(version, checksum)
		where m.version = f.version and m.checksum is null`, versions, sums)
	return migrateErr(err, "record checksums")
}
