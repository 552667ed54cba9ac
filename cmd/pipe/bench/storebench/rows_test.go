package storebench

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pipekit/pipe/fixtures"
)

// A fixture id is a version 7 UUID carrying its run's created_at, to the
// millisecond, as the list's created range expects.
func TestFixtureIDsCarryTheirTime(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	at := time.Date(2026, 3, 1, 12, 30, 15, 123_456_789, time.UTC)
	for range 100 {
		id := uuid.UUID(uuidV7(at, r))
		if id.Version() != 7 || id.Variant() != uuid.RFC4122 || !uuidTime(id).Equal(at.Truncate(time.Millisecond)) {
			t.Fatalf("id %s: version %d, variant %v, time %v; want 7, RFC 4122, %v", id, id.Version(), id.Variant(), uuidTime(id), at)
		}
	}
}

// The transitions the fill writes in a run's row read back through
// pipe.transitions as the journal's enqueued, claimed and completed.
func TestFixtureTransitionsDecode(t *testing.T) {
	tx := fixtures.Tx(t)
	at := time.Date(2026, 3, 1, 12, 0, 0, 123_000, time.UTC)
	b := appendTransition(nil, transitionEnqueued, 7, 0, at)
	b = appendTransition(b, transitionClaimed, 8, 1, at.Add(time.Second))
	b = appendTransition(b, transitionCompleted, 9, 1, at.Add(2*time.Second))
	rows, err := tx.Query(t.Context(), `select seq, kind, attempt, at from pipe.transitions($1)`, b)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	want := []string{"enqueued", "claimed", "completed"}
	i := 0
	for rows.Next() {
		var seq int64
		var kind string
		var attempt int
		var when time.Time
		if err := rows.Scan(&seq, &kind, &attempt, &when); err != nil {
			t.Fatal(err)
		}
		if seq != int64(7+i) || kind != want[i] || attempt != min(i, 1) || !when.Equal(at.Add(time.Duration(i)*time.Second)) {
			t.Fatalf("transition %d: %d %s %d %v", i, seq, kind, attempt, when)
		}
		i++
	}
	if rows.Err() != nil || i != 3 {
		t.Fatalf("%d transitions (%v), want 3", i, rows.Err())
	}
}

// A plan's scans of a tree's partitions read as one group, with a count.
func TestScansFoldPartitions(t *testing.T) {
	plan := planNode{Type: "Limit", Plans: []planNode{{Type: "Merge Append", SubplansRemoved: 2, Plans: []planNode{
		{Type: "Index Scan", Direction: "Backward", Relation: "runs_done_20260301", Index: "runs_done_20260301_name_id_idx"},
		{Type: "Index Scan", Direction: "Backward", Relation: "runs_done_20260302", Index: "runs_done_20260302_name_id_idx"},
		{Type: "Bitmap Heap Scan", Relation: "runs_dead_old", Plans: []planNode{{Type: "Bitmap Index Scan", Index: "runs_dead_old_name_id_idx"}}},
		{Type: "Seq Scan", Relation: "runs_open"},
	}}}}
	want := "index scan backward on runs_done_* using runs_done_*_name_id_idx ×2; " +
		"bitmap heap scan on runs_dead_* using runs_dead_*_name_id_idx; seq scan on runs_open (2 pruned at run time)"
	if got := scans(plan); got != want {
		t.Fatalf("scans:\n%s\nwant\n%s", got, want)
	}
}

func TestCountAndBytes(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 10_000_000: "10,000,000", -12345: "-12,345"} {
		if got := count(n); got != want {
			t.Errorf("count(%d) = %q, want %q", n, got, want)
		}
	}
	for n, want := range map[int64]string{512: "512 B", 2048: "2.0 KiB", 3 << 30: "3.0 GiB"} {
		if got := bytes(n); got != want {
			t.Errorf("bytes(%d) = %q, want %q", n, got, want)
		}
	}
}
