package blob_test

import (
	"strings"
	"testing"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/blob/blobtest"
	"github.com/pipekit/pipe/errcode"
)

func TestValidateKeyRefusesHostileKeys(t *testing.T) {
	t.Parallel()
	for name, key := range blobtest.HostileKeys() {
		err := blob.ValidateKey(key)
		blobtest.RequireCode(t, err, errcode.BlobKeyInvalid)
		if e, _ := errcode.As(err); len(key) > 2 && strings.Contains(e.Message, key) {
			t.Errorf("%s: message %q quotes the refused key", name, e.Message)
		}
	}
}

func TestValidateKeyAccepts(t *testing.T) {
	t.Parallel()
	for _, key := range []string{
		"f.csv", "dir/sub/f.csv.gz", "a b/ç.txt", "..x/y..", ".hidden", "a/.b",
		strings.Repeat("k", blob.MaxKeyLen), "日本/データ.csv",
	} {
		blobtest.RequireNoError(t, blob.ValidateKey(key))
	}
}

func TestJoinKey(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		parts []string
		want  string
	}{
		{[]string{"exports/", "2024", "f.csv"}, "exports/2024/f.csv"},
		{[]string{"exports", "f.csv"}, "exports/f.csv"},
		{[]string{"", "f.csv"}, "f.csv"},
		{[]string{"a/b/", "", "c"}, "a/b/c"},
	} {
		got, err := blob.JoinKey(c.parts...)
		blobtest.RequireNoError(t, err)
		if got != c.want {
			t.Errorf("JoinKey(%q) = %q, want %q", c.parts, got, c.want)
		}
	}
	for _, parts := range [][]string{
		{"exports", "../etc"}, {"/abs", "f"}, {"a//", "f"}, {"", ""}, {"a", "./f"}, {`a\b`, "f"},
	} {
		_, err := blob.JoinKey(parts...)
		blobtest.RequireCode(t, err, errcode.BlobKeyInvalid)
	}
}
