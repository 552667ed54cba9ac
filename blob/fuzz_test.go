package blob_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pipekit/pipe/blob"
)

func FuzzValidateKey(f *testing.F) {
	for _, key := range []string{"f.csv", "a/b/c", "../x", "a//b", "/x", "x/", "a\\b", "a\x00b", ".", "..a", "\xff"} {
		f.Add(key)
	}
	f.Fuzz(func(t *testing.T, key string) {
		if blob.ValidateKey(key) == nil {
			requireSafeKey(t, key)
		}
		if joined, err := blob.JoinKey("prefix/", key); err == nil {
			requireSafeKey(t, joined)
		}
	})
}

func FuzzSplitURL(f *testing.F) {
	for _, u := range []string{
		"s3://b/dir/f.csv?region=x", "file:///tmp/x/f.csv", "./f.csv", "/tmp/f.csv", "mem://m/k",
		"s3://b/a/../b", "file://h/x", "gs://b//x", "s3://b/%2e%2e/x", "C:\\x\\f.csv", "s3://b/a#b",
	} {
		f.Add(u)
	}
	f.Fuzz(func(t *testing.T, objectURL string) {
		bucketURL, key, err := blob.SplitURL(objectURL)
		if err != nil {
			return
		}
		requireSafeKey(t, key)
		if bucketURL == "" {
			t.Fatalf("SplitURL(%q) accepted with no bucket URL", objectURL)
		}
	})
}

// requireSafeKey fails t if an accepted key could escape or alias.
func requireSafeKey(t *testing.T, key string) {
	t.Helper()
	for _, seg := range strings.Split(key, "/") {
		if seg == "" || seg == "." || seg == ".." {
			t.Fatalf("accepted key %q has segment %q", key, seg)
		}
	}
	if strings.HasPrefix(key, "/") || strings.Contains(key, "//") || strings.ContainsAny(key, "\\\x00") ||
		!utf8.ValidString(key) || len(key) > blob.MaxKeyLen {
		t.Fatalf("accepted key %q is unsafe", key)
	}
}
