// Package console is pipe's web console: the fleet in a browser, read and
// steered through the operator API ([pipeline.Admin]) alone.
//
// Pages: queues (depth by state, paused, fleet throughput from the counters),
// jobs (the filters and keyset pages of `pipe jobs list`), one job (state,
// attempts, input, result, error with its fix, a step timeline drawn from the
// journal, the journal, progress and status), tasks (next run in its zone) and
// workers. Actions — retry (from a step), cancel, promote, remove, pause and
// resume a queue or a task — are refused unless [Options.AllowActions].
//
// The pages are server-rendered from html/template with embedded assets: no
// build step, every value escaped, readable without JavaScript. A small
// embedded script refreshes the page's content every two seconds. Every
// path segment of a link or form is escaped, and decoded back by the
// routes. Every response carries a strict Content-Security-Policy. A
// request whose Host is not a loopback name on the console's port, the
// address it arrived at, or one of [Options.AllowedHosts] is refused with
// X_HOST_REFUSED (421) before anything runs, against DNS rebinding. Every
// POST carries a CSRF token bound to the browser's session cookie
// (HttpOnly, SameSite=Strict, Secure over TLS; 8 hours at most), spent by
// the post; with [Options.Token] set, every request must carry the token
// (as a bearer token, or a cookie that ?token= sets once).
//
// `pipe console` serves it (loopback by default; any other address needs a
// token); an application mounts [New]'s handler on its own mux, under
// [Options.BasePath] for a prefix.
package console
