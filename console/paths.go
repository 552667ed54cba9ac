package console

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"github.com/pipekit/pipe/errcode"
)

// baseShape is a base path: segments of unreserved characters.
var baseShape = regexp.MustCompile(`^(/[A-Za-z0-9._~-]+)+$`)

// basePath answers Options.BasePath without its trailing slash ("" for
// the root), or X_CONFIG_INVALID.
func basePath(p string) (string, error) {
	p = strings.TrimSuffix(p, "/")
	if p == "" {
		return "", nil
	}
	ok := baseShape.MatchString(p)
	for _, seg := range strings.Split(p, "/") {
		ok = ok && seg != "." && seg != ".."
	}
	if !ok {
		return "", errcode.New(errcode.ConfigInvalid, "console: the base path is not a path such as /ops").
			WithFix("pass a path of letters, digits and - . _ ~ segments, starting with /, such as /ops or /pipe/console")
	}
	return p, nil
}

// underBase answers r with the base path taken off its path, as the
// routes know it; a request without the prefix (a proxy stripped it) is
// served as it came.
func (c *Console) underBase(r *http.Request) *http.Request {
	if c.base == "" {
		return r
	}
	rest, ok := strings.CutPrefix(r.URL.Path, c.base)
	if !ok || rest != "" && rest[0] != '/' {
		return r
	}
	r2 := new(http.Request)
	*r2 = *r
	r2.URL = new(url.URL)
	*r2.URL = *r.URL
	r2.URL.Path = "/" + strings.TrimPrefix(rest, "/")
	r2.URL.RawPath = ""
	if raw, ok := strings.CutPrefix(r.URL.RawPath, c.base); ok {
		r2.URL.RawPath = "/" + strings.TrimPrefix(raw, "/")
	}
	return r2
}

// path answers the console's path of segs under its base, each segment
// escaped; no segment is the root.
func (c *Console) path(segs ...string) string {
	return hrefUnder(c.base)(segs...)
}

// hrefUnder answers the templates' href: the path of segs under base.
func hrefUnder(base string) func(segs ...string) string {
	return func(segs ...string) string {
		if len(segs) == 0 {
			return base + "/"
		}
		var b strings.Builder
		b.WriteString(base)
		for _, s := range segs {
			b.WriteByte('/')
			b.WriteString(escapeSegment(s))
		}
		return b.String()
	}
}

// escapeSegment escapes one path segment: every character a path gives
// meaning (/ ? # %, a space) escaped. A name a browser or the router would
// not keep as a segment of its own — empty, or dots alone, which a browser
// reads as . or .. however escaped — is written after a ~, as is a name that
// starts with one; segmentName takes it off.
func escapeSegment(s string) string {
	if s == "" || strings.Trim(s, ".") == "" || s[0] == '~' {
		s = "~" + s
	}
	return url.PathEscape(s)
}

// segmentName answers the name a route's segment key carries, as
// escapeSegment wrote it.
func segmentName(r *http.Request, key string) string {
	return strings.TrimPrefix(r.PathValue(key), "~")
}

func (c *Console) cookiePath() string {
	if c.base == "" {
		return "/"
	}
	return c.base
}
