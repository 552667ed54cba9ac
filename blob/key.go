package blob

import (
	"strings"
	"unicode/utf8"

	"github.com/pipekit/pipe/errcode"
)

// MaxKeyLen is the longest key, in bytes, that [ValidateKey] accepts. It is
// the S3 and GCS limit.
const MaxKeyLen = 1024

const keyFix = "use a relative key of /-separated names, such as dir/file.csv"

// ValidateKey checks that key names one object and cannot climb out of its
// bucket or be read two ways. It refuses, with X_BLOB_KEY_INVALID: the empty
// key; a key longer than [MaxKeyLen] bytes; invalid UTF-8; control
// characters (below 0x20, and 0x7f); backslashes; a leading or trailing
// "/"; and empty, "." and ".." segments. The error says what is wrong and
// never quotes the key.
func ValidateKey(key string) error {
	if reason := keyProblem(key); reason != "" {
		return errcode.New(errcode.BlobKeyInvalid, "key %s", reason).WithFix(keyFix)
	}
	return nil
}

// keyProblem answers what is wrong with key, or "" when nothing is.
func keyProblem(key string) string {
	switch {
	case key == "":
		return "is empty"
	case len(key) > MaxKeyLen:
		return "is longer than 1024 bytes"
	case !utf8.ValidString(key):
		return "is not valid UTF-8"
	case strings.ContainsFunc(key, isControl):
		return "contains a control character"
	case strings.Contains(key, `\`):
		return "contains a backslash"
	case key[0] == '/':
		return "starts with /"
	case key[len(key)-1] == '/':
		return "ends with /"
	}
	return segmentProblem(key)
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

// segmentProblem answers what is wrong with key's /-separated segments.
func segmentProblem(key string) string {
	for seg := range strings.SplitSeq(key, "/") {
		switch seg {
		case "":
			return "has an empty segment"
		case ".":
			return "has a . segment"
		case "..":
			return "has a .. segment"
		}
	}
	return ""
}

// JoinKey joins parts with "/" and validates the result. Empty parts are
// skipped and one trailing "/" is dropped from each part, so a prefix may be
// written "exports/" or "exports". Nothing is cleaned: a part holding ".."
// or "a//b" makes the key invalid rather than silently changing it.
func JoinKey(parts ...string) (string, error) {
	kept := make([]string, 0, len(parts))
	for _, p := range parts {
		if p = strings.TrimSuffix(p, "/"); p != "" {
			kept = append(kept, p)
		}
	}
	key := strings.Join(kept, "/")
	if err := ValidateKey(key); err != nil {
		return "", err
	}
	return key, nil
}
