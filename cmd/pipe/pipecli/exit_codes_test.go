package pipecli_test

import (
	"strings"
	"testing"

	"github.com/pipekit/pipe/importrows"
)

// An import that completed with refused rows exits 3, so that
// `pipe import … --wait && next-step` stops there; its output is the
// result, as on success, and stderr stays empty. One without exits 0.
func TestImportWithRefusedRowsExitsThree(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, `create table n(k int primary key)`)
	r := b.pipe(t, "import", writeFile(t, "bad.csv", "k\nx\ny\n"), "--into", "n", "--wait")
	if r.code != 3 || r.stderr != "" || !strings.Contains(r.stdout, "imported 0 rows (2 refused)") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	r = b.pipe(t, "import", writeFile(t, "some.csv", "k\n1\ny\n"), "--into", "n", "--wait", "--json")
	if r.code != 3 || r.stderr != "" {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if res := decode[importrows.Result](t, r.stdout); res.Rows != 1 || res.Refused != 1 {
		t.Fatalf("result %+v", res)
	}
	wantOK(t, b.pipe(t, "import", writeFile(t, "good.csv", "k\n2\n"), "--into", "n", "--wait"))
}

// Text and --json report a failure alike on stderr: the same code, message
// and fix (and run), as `error CODE: message` / `fix: ...` lines or one
// JSON object a line; stdout stays empty.
func TestErrorsAreOneShapeInTextAndJSON(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, `create table n(k int primary key check (k > 0))`)
	for _, args := range [][]string{
		{"import", writeFile(t, "h.csv", "K\n1\n"), "--into", "n"},
		{"import", writeFile(t, "c.csv", "k\n-1\n"), "--into", "n", "--wait"},
		{"export", "n", "--where", "kk > 1", "--to", t.TempDir()},
		{"import", "x.csv", "--into", "n", "--page-bytes", "1"},
	} {
		text := b.pipe(t, args...)
		js := b.pipe(t, append(args, "--json")...)
		if text.code == 0 || js.code != text.code || text.stdout != "" || js.stdout != "" {
			t.Fatalf("pipe %v: exit %d and %d with --json\n%s%s", args, text.code, js.code, text.stdout, js.stdout)
		}
		e := decode[errorJSON](t, js.stderr)
		want := "error " + e.Code + ": " + e.Message + "\nfix: " + e.Fix + "\n"
		if e.Run != "" {
			want += "run: " + e.Run + " (`pipe jobs show " + e.Run + "`)\n"
		}
		got := text.stderr
		if e.Run != "" { // the two runs have their own ids
			got = strings.ReplaceAll(got, runOf(got), e.Run)
		}
		if got != want {
			t.Fatalf("pipe %v:\ntext:\n%s\njson as text:\n%s", args, text.stderr, want)
		}
	}
}

// runOf answers the run id a text failure names.
func runOf(stderr string) string {
	_, after, _ := strings.Cut(stderr, "\nrun: ")
	id, _, _ := strings.Cut(after, " ")
	return id
}
