package exportrows_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/exportrows"
	"github.com/pipekit/pipe/fixtures"
)

// object is one stored object of a run, named relative to the run's
// directory so that runs compare.
type object struct {
	Name   string
	Rows   int64 // from the manifest; -1 for the manifest itself
	Bytes  int64
	SHA256 string
}

// Killed after each of its steps — the plan, every page, the manifest —
// an export resumes and ends with exactly the objects a clean run writes:
// every part present once, each matching its manifest entry.
func TestCrashAtEveryBoundaryLeavesTheCleanRunsObjects(t *testing.T) {
	for _, tc := range []struct {
		format exportrows.Format
		comp   blob.Compression
	}{{exportrows.CSV, blob.CompressionGzip}, {exportrows.Parquet, blob.CompressionZstd}, {exportrows.NDJSON, blob.CompressionNone}} {
		t.Run(string(tc.format), func(t *testing.T) {
			b := setup(t, ordersDDL+` where i <= 25`)
			in := b.in(t, "orders")
			in.Format, in.Compression, in.PageRows = tc.format, string(tc.comp), 10
			bk := openBucket(t, b.bucket)
			fixtures.MustCrashProof(t, b.pool, exportrows.MustNew(exportKey, options()), in, fixtures.CrashProofOptions{
				Reset:   func(ctx context.Context) error { return removeAll(ctx, bk, "exports/") },
				Effects: func(ctx context.Context) (any, error) { return runObjects(ctx, bk, "exports/") },
			})
		})
	}
}

func removeAll(ctx context.Context, b *blob.Bucket, prefix string) error {
	objs, err := b.List(ctx, prefix)
	for _, o := range objs {
		if err == nil {
			err = b.Delete(ctx, o.Key)
		}
	}
	return err
}

// runObjects answers the objects of the one run under prefix, checked
// against its manifest: each part stored once with the manifest's size and
// checksum, nothing stored that the manifest does not name.
func runObjects(ctx context.Context, b *blob.Bucket, prefix string) ([]object, error) {
	objs, err := b.List(ctx, prefix)
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(objs, func(o blob.Object) bool { return strings.HasSuffix(o.Key, "/"+exportrows.ManifestName) })
	if i < 0 {
		return nil, fmt.Errorf("no manifest among %d objects", len(objs))
	}
	dir := strings.TrimSuffix(objs[i].Key, exportrows.ManifestName)
	m, err := exportrows.ReadManifest(ctx, b, objs[i].Key)
	if err != nil {
		return nil, err
	}
	var out []object
	for _, p := range m.Parts {
		data, err := b.NewReader(ctx, p.Key)
		if err != nil {
			return nil, fmt.Errorf("part %s is missing: %w", p.Key, err)
		}
		sum := sha256.New()
		n, err := io.Copy(sum, data)
		data.Close()
		if err != nil || n != p.Bytes || hex.EncodeToString(sum.Sum(nil)) != p.SHA256 {
			return nil, fmt.Errorf("part %s: %d bytes, not the manifest's %d, or another checksum (%v)", p.Key, n, p.Bytes, err)
		}
		out = append(out, object{Name: strings.TrimPrefix(p.Key, dir), Rows: p.Rows, Bytes: p.Bytes, SHA256: p.SHA256})
	}
	if len(objs) != len(m.Parts)+1 {
		return nil, fmt.Errorf("%d objects stored for %d parts and the manifest: a part is doubled or unnamed", len(objs), len(m.Parts))
	}
	return out, nil
}
