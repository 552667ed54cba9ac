package console

import (
	"bytes"
	"errors"
	"html/template"
	"net/http"
	"strings"

	"github.com/pipekit/pipe/errcode"
)

// view is what the layout renders around a page's content.
type view struct {
	Title   string
	Nav     string
	CSRF    string
	Actions bool
	// Backfills: the backfills page is served (Options.DB is set).
	Backfills bool
	Notice    string
	Data      any
}

// pageNames are the templates that render a page into the layout.
var pageNames = []string{"queues", "jobs", "job", "tasks", "workers", "backfills", "error"}

// parsePages parses every page, its links under base.
func parsePages(base string) (map[string]*template.Template, error) {
	pages := map[string]*template.Template{}
	for _, name := range pageNames {
		t, err := template.New("layout.tmpl").Funcs(funcs).Funcs(template.FuncMap{"href": hrefUnder(base)}).ParseFS(templateFS, "templates/layout.tmpl", "templates/"+name+".tmpl")
		if err != nil {
			return nil, errcode.Wrap(err, errcode.Invariant, "console: the %s template does not parse", name)
		}
		pages[name] = t
	}
	return pages, nil
}

// render writes page with data: the whole document, or only its main
// content when the page's own script asks for a refresh.
func (c *Console) render(w http.ResponseWriter, r *http.Request, status int, page, title string, data any) {
	v := view{Title: title, Nav: page, Actions: c.opts.AllowActions, Backfills: c.opts.DB != nil, Notice: notice(r), Data: data}
	if c.opts.AllowActions && page != "error" { // an error page, a 401's among them, starts no session
		v.CSRF = c.csrfToken(w, r)
	}
	name := "layout.tmpl"
	if r.Header.Get("X-Console-Fragment") == "1" {
		name = "main"
	}
	var buf bytes.Buffer
	if err := c.pages[page].ExecuteTemplate(&buf, name, v); err != nil {
		http.Error(w, "X_INVARIANT: the page did not render", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = buf.WriteTo(w)
}

// failure is the error page's content.
type failure struct {
	Code, Message, Fix string
}

// fail renders err as the error page with status.
func (c *Console) fail(w http.ResponseWriter, r *http.Request, status int, err error) {
	f := failure{Code: string(errcode.CodeOf(err)), Message: "the request failed"}
	var e *errcode.Error
	if errors.As(err, &e) {
		f.Message, f.Fix = e.Message, e.Fix
	}
	c.render(w, r, status, "error", f.Code, f)
}

// statusOf answers the HTTP status an operator API error deserves.
func statusOf(err error) int {
	switch errcode.CodeOf(err) {
	case errcode.JobNotFound:
		return http.StatusNotFound
	case errcode.IDInvalid, errcode.JobPageInvalid:
		return http.StatusBadRequest
	case errcode.JobNotRequeueable, errcode.JobNotCancellable, errcode.JobNotRemovable, errcode.JobDuplicate, errcode.JobUnknown:
		return http.StatusConflict
	}
	if strings.HasPrefix(string(errcode.CodeOf(err)), "X_POSTGRES_") {
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

// notices are the lines an action's redirect names with ?done=.
var notices = map[string]string{
	"retry": "Queued again.", "cancel": "Cancelled.", "promote": "Promoted: it runs now.",
	"remove": "Removed.", "pause": "Paused.", "resume": "Resumed.",
}

func notice(r *http.Request) string { return notices[r.URL.Query().Get("done")] }
