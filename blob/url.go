package blob

import (
	"net/url"
	"path"
	"path/filepath"
	"strings"

	"github.com/pipekit/pipe/errcode"
)

// The URL schemes [Open] accepts.
const (
	SchemeFile  = "file"
	SchemeMem   = "mem"
	SchemeS3    = "s3"
	SchemeGCS   = "gs"
	SchemeAzure = "azblob"
)

const schemesFix = "use file:///dir, a local path, mem://name, s3://bucket, gs://bucket or azblob://container"

// schemeOf answers the URL scheme of s, or "" when s is a plain local path.
// A scheme is two or more characters before a colon, so a Windows drive
// letter ("C:\data") stays a path.
func schemeOf(s string) string {
	i := strings.IndexByte(s, ':')
	if i < 2 {
		return ""
	}
	for j, c := range s[:i] {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		other := c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'
		if !letter && (j == 0 || !other) {
			return ""
		}
	}
	return strings.ToLower(s[:i])
}

func knownScheme(s string) bool {
	switch s {
	case SchemeFile, SchemeMem, SchemeS3, SchemeGCS, SchemeAzure:
		return true
	}
	return false
}

func urlInvalid(format string, args ...any) *errcode.Error {
	return errcode.New(errcode.BlobURLInvalid, format, args...).WithFix(schemesFix)
}

// parseURL parses a bucket or object URL whose scheme is known.
func parseURL(raw string) (*url.URL, error) {
	if s := schemeOf(raw); !knownScheme(s) {
		return nil, urlInvalid("URL scheme is not supported")
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return nil, urlInvalid("URL does not parse")
	case u.Opaque != "":
		return nil, urlInvalid("URL has no // after the scheme")
	case u.Fragment != "" || strings.Contains(raw, "#"):
		return nil, urlInvalid("URL has a fragment").WithFix("percent-encode # as %23")
	case u.Scheme == SchemeFile && u.Host != "" && u.Host != "." && u.Host != "localhost":
		return nil, urlInvalid("file URL has a host").WithFix("use file:///absolute/dir or file://./relative/dir")
	case u.Scheme != SchemeFile && u.Host == "":
		return nil, urlInvalid("URL names no bucket")
	}
	return u, nil
}

// SplitURL splits an object URL into the URL of its bucket and its key:
//
//	s3://b/dir/f.csv?region=x  ->  s3://b?region=x, dir/f.csv
//	file:///tmp/x/f.csv        ->  file:///tmp/x, f.csv
//	/tmp/x/f.csv, ./f.csv      ->  the directory, the base name
//	mem://name/dir/f.csv       ->  mem://name, dir/f.csv
//
// A file URL or local path splits at its last "/": the key is the base name.
// The key is validated with [ValidateKey]; a URL naming no object is
// X_BLOB_URL_INVALID.
func SplitURL(objectURL string) (bucketURL, key string, err error) {
	if schemeOf(objectURL) == "" {
		bucketURL, key, err = splitPath(objectURL)
	} else {
		bucketURL, key, err = splitObjectURL(objectURL)
	}
	if err != nil {
		return "", "", err
	}
	if err := ValidateKey(key); err != nil {
		return "", "", err
	}
	return bucketURL, key, nil
}

func splitPath(p string) (string, string, error) {
	if p == "" || strings.HasSuffix(p, "/") || strings.HasSuffix(p, string(filepath.Separator)) {
		return "", "", urlInvalid("path names no file")
	}
	return filepath.Dir(p), filepath.Base(p), nil
}

func splitObjectURL(raw string) (string, string, error) {
	u, err := parseURL(raw)
	if err != nil {
		return "", "", err
	}
	var key string
	bucket := *u
	if u.Scheme == SchemeFile {
		bucket.Path, key = path.Dir(u.Path), path.Base(u.Path)
		if u.Path == "" || strings.HasSuffix(u.Path, "/") {
			key = ""
		}
	} else {
		bucket.Path, key = "", strings.TrimPrefix(u.Path, "/")
	}
	if key == "" {
		return "", "", urlInvalid("URL names no object")
	}
	bucket.RawPath = ""
	return bucket.String(), key, nil
}
