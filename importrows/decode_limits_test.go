package importrows_test

import (
	"bytes"
	"testing"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/importrows"
	"github.com/pipekit/pipe/internal/hostile"
)

// The declared Decoding limits hold for every run, and LimitsOf overrides
// them field by field: a 16 MiB zstd window is refused by default, read
// when declared, refused again when one run lowers it; a Parquet file over
// its ratio is refused at the plan, terminal, before a row is written.
func TestDecodingLimits(t *testing.T) {
	t.Parallel()
	b := setup(t, hostile.BombTable)
	var z bytes.Buffer
	if err := hostile.Zstd(&z, hostile.Rows(1<<20), 16<<20); err != nil {
		t.Fatal(err)
	}
	in := b.put(t, "rows.csv.zst", z.Bytes())

	o := tableOptions("bomb")
	d, _ := run(t, b.pool, importrows.MustNew(fileKey, o), in)
	if lastCode(d) != string(errcode.CompressionWindowTooLarge) || d.Attempt != 1 {
		t.Fatalf("default window: %s after %d attempts, %s", d.State, d.Attempt, lastCode(d))
	}

	o.Name, o.Decoding.MaxWindowBytes = "test.import.declared", 16<<20
	in.Run = "declared"
	if d, _ := run(t, b.pool, importrows.MustNew(fileKey, o), in); d.State != "done" {
		t.Fatalf("declared window: %s, %s", d.State, lastCode(d))
	}

	o.LimitsOf = func(fileIn) importrows.Limits {
		return importrows.Limits{DecodeLimits: importrows.DecodeLimits{MaxWindowBytes: 8 << 20}}
	}
	o.Name, in.Run = "test.import.overridden", "overridden"
	if d, _ := run(t, b.pool, importrows.MustNew(fileKey, o), in); lastCode(d) != string(errcode.CompressionWindowTooLarge) {
		t.Fatalf("overridden window: %s, %s", d.State, lastCode(d))
	}

	pq := setup(t, hostile.ParquetTable)
	d, _ = run(t, pq.pool, importrows.MustNew(fileKey, tableOptions("bomb")), pq.put(t, "big.parquet", hostile.BigPage(64<<20)))
	if lastCode(d) != string(errcode.DecompressedTooLarge) || d.Attempt != 1 {
		t.Fatalf("parquet over the ratio: %s after %d attempts, %s", d.State, d.Attempt, lastCode(d))
	}
}

// A declaration with a decoding limit out of range is refused.
func TestDecodingLimitsDeclarationFaults(t *testing.T) {
	t.Parallel()
	for _, d := range []importrows.DecodeLimits{{MaxRatio: -1}, {MaxWindowBytes: 100}, {MaxWindowBytes: 4 << 30},
		{MaxParquetPageBytes: -1}, {MaxParquetMemory: -1}, {MaxDecodedBytes: -1}} {
		o := tableOptions("t")
		o.Decoding = d
		if _, err := importrows.New(fileKey, o); errcode.CodeOf(err) != errcode.JobDeclarationInvalid {
			t.Errorf("%+v: %v, want X_JOB_DECLARATION_INVALID", d, err)
		}
	}
}
