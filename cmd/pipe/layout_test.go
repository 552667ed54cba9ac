package main

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/pipekit/pipe/"

// The arrows of docs/architecture.md: nothing outside cmd/ imports cmd/;
// only the stock main imports the bench room; pg imports errcode at most,
// internal/ errcode and pg; the job core imports no room but errcode, pg and
// internal/; the outbox builds on the consumer room and the core alone, and
// its root package links no broker client; webhook imports the core,
// errcode, pg and internal/, and the outbox's root (its staged deliveries)
// only; backfill builds on the job core alone.
func TestTheArrowsPointDown(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	out, err := exec.CommandContext(t.Context(), goCmd, "list", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", module+"...").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg := strings.TrimPrefix(f[0], module)
		for _, imp := range f[1:] {
			dep, ours := strings.CutPrefix(imp, module)
			if !ours {
				continue
			}
			under := func(room string) bool { return dep == room || strings.HasPrefix(dep, room+"/") }
			in := func(room string) bool { return pkg == room || strings.HasPrefix(pkg, room+"/") }
			switch {
			case under("cmd") && !in("cmd"):
				t.Errorf("%s imports %s: nothing outside cmd/ imports cmd/", pkg, dep)
			case under("cmd/pipe/bench") && pkg != "cmd/pipe" && !in("cmd/pipe/bench"):
				t.Errorf("%s imports %s: only the stock main adds the bench room", pkg, dep)
			case pkg == "pg" && dep != "errcode":
				t.Errorf("pg imports %s: pg imports errcode at most", dep)
			case in("internal") && dep != "errcode" && dep != "pg" && !under("internal"):
				t.Errorf("%s imports %s: internal/ imports errcode and pg at most", pkg, dep)
			case pkg == "pipeline" && dep != "errcode" && dep != "pg" && !under("internal"):
				t.Errorf("pipeline imports %s: the job core imports no room", dep)
			case in("devtools") && dep != "pipeline" && dep != "errcode":
				t.Errorf("%s imports %s: the dev tools read through the operator API alone", pkg, dep)
			case in("console") && dep != "pipeline" && dep != "errcode" && dep != "backfill" && dep != "internal/hostrule":
				t.Errorf("%s imports %s: the console reads through the operator API and the factories' public reads alone (and shares the Host rule)", pkg, dep)
			case in("outbox") && !outboxMayImport(pkg, dep):
				t.Errorf("%s imports %s: the outbox builds on the consumer room and the core alone, and its root links no broker", pkg, dep)
			case in("webhook") && dep != "errcode" && dep != "pg" && dep != "pipeline" && dep != "outbox" && !under("internal") && !under("webhook"):
				t.Errorf("%s imports %s: webhook builds on the core, and its staged deliveries on the outbox, alone", pkg, dep)
			case in("backfill") && dep != "pipeline" && dep != "errcode" && dep != "pg" && !under("internal"):
				t.Errorf("%s imports %s: a backfill builds on the job core alone", pkg, dep)
			}
		}
	}
}

// outboxMayImport says whether outbox package pkg may import dep: the core,
// errcode, pg, internal/ and the consumer room; its own sub-packages, but
// not from the root (a publisher is its own package, so that an app links
// only the broker it uses).
func outboxMayImport(pkg, dep string) bool {
	for _, room := range []string{"errcode", "pg", "internal", "pipeline", "consumer"} {
		if dep == room || strings.HasPrefix(dep, room+"/") {
			return true
		}
	}
	return dep == "outbox" || strings.HasPrefix(dep, "outbox/") && pkg != "outbox"
}
