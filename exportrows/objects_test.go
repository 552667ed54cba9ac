package exportrows_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"testing"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/exportrows"
)

// openBucket opens url for the test.
func openBucket(t testing.TB, url string) *blob.Bucket {
	t.Helper()
	b, err := blob.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b
}

// readAll answers the object at key, as stored.
func readAll(t testing.TB, b *blob.Bucket, key string) []byte {
	t.Helper()
	r, err := b.NewReader(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// decoded answers the object at key, decompressed.
func decoded(t testing.TB, b *blob.Bucket, key string) []byte {
	t.Helper()
	r, err := b.NewReader(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	plain, _, err := blob.Decompress(r, blob.CompressionAuto)
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	data, err := io.ReadAll(plain)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// manifestOf reads the result's manifest and checks it against the bucket:
// every object under the run's directory is a part or the manifest, each
// part's size and SHA-256 are the stored object's, and the rows add up.
func manifestOf(t testing.TB, res exportrows.Result) (*blob.Bucket, *exportrows.Manifest) {
	t.Helper()
	b := openBucket(t, res.Bucket)
	m, err := exportrows.ReadManifest(context.Background(), b, res.Manifest)
	if err != nil {
		t.Fatal(err)
	}
	dir := res.Manifest[:len(res.Manifest)-len(exportrows.ManifestName)]
	objs, err := b.List(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) != len(m.Parts)+1 {
		t.Fatalf("%d objects under %s for %d parts and the manifest", len(objs), dir, len(m.Parts))
	}
	var rows, size int64
	for _, p := range m.Parts {
		data := readAll(t, b, p.Key)
		sum := sha256.Sum256(data)
		if int64(len(data)) != p.Bytes || hex.EncodeToString(sum[:]) != p.SHA256 {
			t.Fatalf("part %s: %d bytes sha256 %x; the manifest says %d bytes sha256 %s", p.Key, len(data), sum, p.Bytes, p.SHA256)
		}
		rows, size = rows+p.Rows, size+p.Bytes
	}
	if rows != m.Rows || size != m.Bytes || m.Rows != res.Rows || len(m.Parts) != res.Parts || m.Bytes != res.Bytes {
		t.Fatalf("manifest %d rows %d bytes in %d parts; parts sum %d rows %d bytes; result %+v", m.Rows, m.Bytes, len(m.Parts), rows, size, res)
	}
	return b, m
}
