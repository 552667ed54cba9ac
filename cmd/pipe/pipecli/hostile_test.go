package pipecli_test

import (
	"bytes"
	"compress/gzip"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pipekit/pipe/fixtures"
)

// hostileSecret is planted in every hostile input. Nothing pipe prints or
// stores may hold it.
const hostileSecret = "zq7secretvalue9x"

// hostileImport is one hostile file: what it holds, the table it is
// imported into (created by ddl, which names it target), the flags, and
// the code the attempt must end with.
type hostileImport struct {
	name, file string
	data       func() []byte
	ddl        string
	flags      []string
	code       string
}

// The table every hostile import writes into, unless the case makes its own.
const hostileTarget = `create table target(id int primary key, v text not null, n int)`

func hostileImports() []hostileImport {
	s := hostileSecret
	raise := `create function refuse() returns trigger language plpgsql as $$
		begin raise exception 'refusing row %', new.v; end $$;`
	return []hostileImport{
		{name: "no header line", file: "a.csv", data: text("1," + s + ",3\n2,b,4\n"), code: "X_IMPORT_HEADER_MISMATCH"},
		{name: "random binary", file: "b.csv", data: binary(1), code: "X_IMPORT_HEADER_MISMATCH"},
		{name: "random binary after a header", file: "c.csv", data: func() []byte { return append([]byte("id,v,n\n"), binary(2)()...) },
			flags: []string{"--max-row-errors", "0"}, code: "X_IMPORT_TOO_MANY_ERRORS"},
		{name: "a trigger raising the row", file: "d.csv", data: text("id,v,n\n1," + s + ",3\n"),
			ddl: hostileTarget + ";" + raise + "create trigger refuse before insert on target for each row execute function refuse()", code: "X_IMPORT_WRITE_REFUSED"},
		{name: "a deferred trigger raising the row", file: "e.csv", data: text("id,v,n\n1," + s + ",3\n"),
			ddl:  hostileTarget + ";" + raise + "create constraint trigger refuse after insert on target deferrable initially deferred for each row execute function refuse()",
			code: "X_IMPORT_WRITE_REFUSED"},
		{name: "a cast in a trigger", file: "f.csv", data: text("id,v,n\n1," + s + ",3\n"),
			ddl: hostileTarget + `; create function cast_v() returns trigger language plpgsql as $$ begin perform new.v::int; return new; end $$;
				create trigger cast_v before insert on target for each row execute function cast_v()`, code: "X_IMPORT_WRITE_REFUSED"},
		{name: "a check constraint", file: "g.csv", data: text("id,v,n\n1," + s + ",3\n"),
			ddl: `create table target(id int primary key, v text not null check (v = 'ok'), n int)`, code: "X_IMPORT_WRITE_REFUSED"},
		{name: "a deferred unique key", file: "h.csv", data: text("id,v,n\n1," + s + ",3\n2," + s + ",4\n"),
			ddl: `create table target(id int primary key, v text not null, n int, unique (v) deferrable initially deferred)`, code: "X_IMPORT_WRITE_REFUSED"},
		{name: "a value the column refuses", file: "i.csv", data: text("id,v,n\n1,a," + s + "\n"), flags: []string{"--max-row-errors", "0"},
			code: "X_IMPORT_TOO_MANY_ERRORS"},
		{name: "an unclosed quote", file: "j.csv", data: text("id,v,n\n1,\"" + strings.Repeat(s, 5000) + "\n"), code: "X_IMPORT_RECORD_TOO_LARGE"},
		{name: "broken json", file: "k.ndjson", data: text(`{"id": 1, "v": "` + s + `", "n": }` + "\n"), flags: []string{"--max-row-errors", "0"},
			code: "X_IMPORT_TOO_MANY_ERRORS"},
		{name: "an unknown json key", file: "l.ndjson", data: text(`{"id": 1, "v": "a", "` + s + `": 1}` + "\n"), flags: []string{"--max-row-errors", "0"},
			code: "X_IMPORT_TOO_MANY_ERRORS"},
		{name: "a truncated gzip", file: "m.csv.gz", data: truncatedGzip("id,v,n\n" + strings.Repeat("1,"+s+",3\n", 5000)), code: "X_COMPRESSION_INVALID"},
		{name: "odd utf-16", file: "n.csv", data: func() []byte { return append([]byte{0xff, 0xfe}, []byte("i\x00d\x00,"+s)...) }, code: "X_ENCODING_INVALID"},
		{name: "not parquet", file: "o.parquet", data: binary(3), code: ""},
	}
}

// hostileExport is one hostile export: the source made by ddl, the
// command's arguments after the table, and the code it must end with.
type hostileExport struct {
	name, ddl, table string
	flags            []string
}

func hostileExports() []hostileExport {
	rows := `create table src(id int primary key, v text, d int); insert into src values (1, '7', 1), (2, '` + hostileSecret + `', 0);`
	return []hostileExport{
		{name: "a view whose cast fails", ddl: rows + `create view cooked as select id, v::int as n from src`, table: "cooked", flags: []string{"--key", "id"}},
		{name: "a filter whose cast fails", ddl: rows, table: "src", flags: []string{"--where", "v::int > 0"}},
		{name: "a filter dividing by zero", ddl: rows, table: "src", flags: []string{"--where", "10 / d > 1"}},
		{name: "a filter that raises the row", ddl: rows + `create function refuse(v text) returns bool language plpgsql as $$
			begin if v <> '7' then raise exception 'refusing %', v; end if; return true; end $$`, table: "src", flags: []string{"--where", "refuse(v)"}},
		{name: "a filter that writes", ddl: rows + `create sequence s`, table: "src", flags: []string{"--where", "nextval('s') > 0"}},
		{name: "a filter that writes, in one snapshot", ddl: rows + `create sequence s`, table: "src", flags: []string{"--where", "nextval('s') > 0", "--order", "snapshot"}},
	}
}

// Hostile inputs — files that are not what they claim, rows a table or a
// trigger refuses, sources that fail on a row — each end in a coded error,
// write nothing to the target, and leave the secret planted in their data
// nowhere pipe prints (the commands' output, `pipe jobs show`, `pipe jobs
// list`) or stores (every table and view of the pipe schema).
func TestHostileInputsEndCodedAndQuoteNoRow(t *testing.T) {
	t.Parallel()
	b := setup(t)
	var printed bytes.Buffer
	var ids []string
	for _, c := range hostileImports() {
		t.Run("import "+c.name, func(t *testing.T) {
			b.exec(t, "drop table if exists target cascade; drop function if exists refuse, cast_v cascade; "+cmpOr(c.ddl, hostileTarget))
			path := filepath.Join(t.TempDir(), c.file)
			if err := os.WriteFile(path, c.data(), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, format := range [][]string{nil, {"--json"}} {
				r := b.pipe(t, append(append([]string{"import", path, "--into", "target", "--wait"}, c.flags...), format...)...)
				printed.WriteString(r.stdout + r.stderr)
				ids = append(ids, wantCoded(t, r, c.code, format != nil)...)
			}
			var n int
			if err := b.pool.QueryRow(t.Context(), `select count(*) from target`).Scan(&n); err != nil || n != 0 {
				t.Fatalf("%d rows written to the target (%v)", n, err)
			}
		})
	}
	for _, c := range hostileExports() {
		t.Run("export "+c.name, func(t *testing.T) {
			b.exec(t, "drop table if exists src cascade; drop sequence if exists s; drop function if exists refuse cascade; "+c.ddl)
			dir := t.TempDir()
			r := b.pipe(t, append([]string{"export", c.table, "--to", dir, "--wait"}, c.flags...)...)
			printed.WriteString(r.stdout + r.stderr)
			ids = append(ids, wantCoded(t, r, "X_EXPORT_SOURCE_INVALID", false)...)
			if files := filesUnder(t, dir); len(files) != 0 {
				t.Fatalf("the export wrote %v", files)
			}
		})
	}
	for _, id := range ids {
		r := b.pipe(t, "jobs", "show", id)
		wantOK(t, r)
		printed.WriteString(r.stdout + r.stderr)
	}
	for _, args := range [][]string{{"jobs", "list", "--limit", "200"}, {"jobs", "list", "--json", "--limit", "200"}} {
		r := b.pipe(t, args...)
		wantOK(t, r)
		printed.WriteString(r.stdout)
	}
	if strings.Contains(printed.String(), hostileSecret) {
		i := strings.Index(printed.String(), hostileSecret)
		t.Fatalf("pipe printed the secret: ...%s...", printed.String()[max(0, i-300):i+len(hostileSecret)])
	}
	if where := fixtures.Holding(t, b.pool, hostileSecret); len(where) > 0 {
		t.Fatalf("the secret is stored in %v", where)
	}
}

var runID = regexp.MustCompile(`run ([0-9a-f-]{36})`)

// wantCoded fails the test unless r failed with a coded error (code, when
// given), and answers the ids of the runs it names.
func wantCoded(t *testing.T, r result, code string, json bool) []string {
	t.Helper()
	if r.code != 1 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	got := ""
	if json {
		got = decodeLoose[errorJSON](t, r.stderr[strings.LastIndex(strings.TrimSpace(r.stderr), "\n")+1:]).Code
	} else if m := regexp.MustCompile(`(?m)^error (X_[A-Z_]+): `).FindStringSubmatch(r.stderr); m != nil {
		got = m[1]
	}
	if !strings.HasPrefix(got, "X_") || got == "X_INVARIANT" || code != "" && got != code {
		t.Fatalf("ended %q, want %s\nstderr:\n%s", got, cmpOr(code, "a code"), r.stderr)
	}
	t.Logf("ended %s", got)
	var ids []string
	for _, m := range runID.FindAllStringSubmatch(r.stderr, -1) {
		ids = append(ids, m[1])
	}
	return ids
}

// filesUnder answers the files under dir, at any depth (a file bucket
// leaves the run's directory it made, empty).
func filesUnder(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func text(s string) func() []byte { return func() []byte { return []byte(s) } }

// binary answers 64 KiB of random bytes from seed with the secret planted
// through them.
func binary(seed uint64) func() []byte {
	return func() []byte {
		rng := rand.New(rand.NewPCG(seed, seed))
		var out []byte
		for range 64 {
			chunk := make([]byte, 1000)
			for i := range chunk {
				chunk[i] = byte(rng.UintN(256))
			}
			out = append(append(out, chunk...), hostileSecret...)
		}
		return out
	}
}

// truncatedGzip answers s gzipped, cut in the middle.
func truncatedGzip(s string) func() []byte {
	return func() []byte {
		var buf bytes.Buffer
		z := gzip.NewWriter(&buf)
		_, _ = z.Write([]byte(s))
		_ = z.Close()
		return buf.Bytes()[:buf.Len()/2]
	}
}
