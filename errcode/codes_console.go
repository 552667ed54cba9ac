package errcode

// The codes of the web console (package console). None is a job's: they
// answer a request.
const (
	// ConsoleUnauthorized: the console asks a token and the request carried
	// none, or the wrong one (HTTP 401).
	ConsoleUnauthorized Code = "X_CONSOLE_UNAUTHORIZED"
	// ConsoleForbidden: a POST without the page's CSRF token, from another
	// site, or an action on a read-only console (HTTP 403).
	ConsoleForbidden Code = "X_CONSOLE_FORBIDDEN"
)

func init() {
	for _, c := range []Code{ConsoleUnauthorized, ConsoleForbidden} {
		Register(c, Terminal)
	}
}
