package subjectbench_test

import (
	"io"
	"testing"

	"github.com/pipekit/pipe/cmd/pipe/bench/subjectbench"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/subject"
)

// The bench at a fifth of its size: the member's 1,000 rows exported and
// erased exactly, and no statement of the erase or export planned as a
// sequential scan of a table over 10,000 rows.
func TestBenchErasesTheMemberWithoutScanningALargeTable(t *testing.T) {
	pool := fixtures.DB(t)
	res, err := subjectbench.Run(t.Context(), pool, subjectbench.Options{Members: 200, Keep: true}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.SeqScans) > 0 {
		t.Errorf("sequential scans of large tables: %v", res.SeqScans)
	}
	if res.Statements < 20 {
		t.Errorf("%d statements planned", res.Statements)
	}
	if res.Export.Rows != subjectbench.PerMember || res.Erase.Rows != subjectbench.PerMember || res.Export.Pages != 1 {
		t.Errorf("export %+v, erase %+v", res.Export, res.Erase)
	}
	if res.Rows != int64(200*(subjectbench.PerMember+subjectbench.Unreached)) {
		t.Errorf("%d rows loaded", res.Rows)
	}
}

// The bench's declaration proves: every canary of a generated member gone
// from the 18 reached tables, the bystander untouched.
func TestBenchDeclarationProves(t *testing.T) {
	pool := fixtures.DB(t)
	if _, err := subjectbench.Run(t.Context(), pool, subjectbench.Options{Members: 3, Keep: true}, io.Discard); err != nil {
		t.Fatal(err)
	}
	rep, err := subject.Proof(t.Context(), pool, subjectbench.Declaration())
	if err != nil {
		t.Fatalf("proof: %v", err)
	}
	if rep.Searched != 18 || len(rep.Tables) != 18 {
		t.Errorf("searched %d tables, reported %d; want 18", rep.Searched, len(rep.Tables))
	}
}
