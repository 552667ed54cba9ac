package pipecli_test

import (
	"strings"
	"testing"
)

// --into and an export's table over 63 bytes are refused with a code
// saying so: PostgreSQL would cut the name, with only a NOTICE, to the
// table its first 63 bytes name, and that table is left alone.
func TestLongNamesAreRefused(t *testing.T) {
	t.Parallel()
	b := setup(t)
	short := strings.Repeat("t", 63)
	b.exec(t, `create table `+short+`(id int primary key); insert into `+short+` values (1)`)
	long := short + "_archiv"
	path := writeFile(t, "p.csv", "id\n2\n")
	r := b.pipe(t, "import", path, "--into", long, "--wait")
	wantError(t, r, 1, "X_IMPORT_TABLE_INVALID")
	if !strings.Contains(r.stderr, "70 bytes, over PostgreSQL's 63-byte limit") {
		t.Fatalf("stderr:\n%s", r.stderr)
	}
	r = b.pipe(t, "import", path, "--into", "t", "--columns", "id,"+long)
	wantError(t, r, 1, "X_IMPORT_TABLE_INVALID")
	r = b.pipe(t, "export", long, "--to", t.TempDir(), "--wait")
	wantError(t, r, 1, "X_EXPORT_SOURCE_INVALID")
	r = b.pipe(t, "export", "t", "--key", long, "--to", t.TempDir())
	wantError(t, r, 1, "X_EXPORT_SOURCE_INVALID")
	var n int
	if err := b.pool.QueryRow(t.Context(), `select count(*) from `+short).Scan(&n); err != nil || n != 1 {
		t.Fatalf("the table the cut name names holds %d rows (%v)", n, err)
	}
}
