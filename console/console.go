package console

import (
	"embed"
	"html/template"
	"io/fs"
	"net/http"
	"time"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/internal/hostrule"
	"github.com/pipekit/pipe/pipeline"
)

//go:embed templates/*.tmpl
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// Options configure a console.
type Options struct {
	// Manifests are the jobs this pipe runs (a registry's Manifests()),
	// shown on the queues page. Default none.
	Manifests []pipeline.Manifest
	// Tasks are the tasks this pipe declares, whose next run the tasks page
	// shows. Default none.
	Tasks []*pipeline.Task
	// AllowActions lets the console retry, cancel, promote and remove runs
	// and pause and resume queues and tasks. Default read-only.
	AllowActions bool
	// Token, when set, is required of every request: as
	// "Authorization: Bearer TOKEN", or the cookie a visit to ?token=TOKEN
	// sets. Default none, for a console bound to loopback.
	Token string
	// DB is the database the factories' own ledgers are read from: with it
	// the console serves the backfills page (the backfill room's ledger,
	// live). Default none.
	DB pipeline.DB
	// AllowedHosts are the Host names the console answers to beyond the
	// loopback names (localhost, 127.0.0.1, [::1]) on the port a request
	// arrived at and the address it arrived at: each "name" (any port) or
	// "name:port", such as the public name of a proxy that passes the
	// browser's Host through. Any other Host is refused with
	// X_HOST_REFUSED (421) before any page or action runs, so a page whose
	// DNS name was rebound to the console's address reads nothing. Default
	// none.
	AllowedHosts []string
	// BasePath is the path prefix a reverse proxy serves the console under,
	// such as "/ops": every link, form, asset, redirect and cookie carries
	// it, and a request is served with or without it (a proxy that strips
	// the prefix and one that passes it both work). Default none: the
	// console's pages are at the root.
	BasePath string
	// Now is the clock the pages read. Default time.Now.
	Now func() time.Time
}

// Console is the console's http.Handler.
type Console struct {
	admin    *pipeline.Admin
	opts     Options
	hosts    hostrule.Rule
	base     string
	pages    map[string]*template.Template
	sessions *sessions
	mux      *http.ServeMux
}

// New answers a console over admin. The handler serves its pages from its
// root, or under Options.BasePath.
func New(admin *pipeline.Admin, o Options) (*Console, error) {
	if admin == nil {
		return nil, errcode.New(errcode.ConfigInvalid, "console: no operator API").
			WithFix("pass pipeline.NewAdmin(pool)")
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	hosts, err := hostrule.New(o.AllowedHosts...)
	if err != nil {
		return nil, err
	}
	base, err := basePath(o.BasePath)
	if err != nil {
		return nil, err
	}
	pages, err := parsePages(base)
	if err != nil {
		return nil, err
	}
	c := &Console{admin: admin, opts: o, hosts: hosts, base: base, pages: pages, sessions: newSessions(), mux: http.NewServeMux()}
	c.routes()
	return c, nil
}

func (c *Console) routes() {
	static, _ := fs.Sub(staticFS, "static")
	c.mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	c.mux.HandleFunc("GET /{$}", c.queuesPage)
	c.mux.HandleFunc("GET /jobs", c.jobsPage)
	c.mux.HandleFunc("GET /jobs/{id}", c.jobPage)
	c.mux.HandleFunc("GET /tasks", c.tasksPage)
	c.mux.HandleFunc("GET /workers", c.workersPage)
	c.mux.HandleFunc("GET /backfills", c.backfillsPage)
	c.mux.HandleFunc("POST /backfills/{run}/{action}", c.backfillAction)
	c.mux.HandleFunc("POST /jobs/{id}/{action}", c.jobAction)
	c.mux.HandleFunc("POST /queues/{queue}/{action}", c.queueAction)
	c.mux.HandleFunc("POST /tasks/{task}/{action}", c.taskAction)
}

// ServeHTTP answers one request: the security headers, the Host, the
// token, the CSRF token of a POST, then the page or action.
func (c *Console) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	secureHeaders(w.Header())
	if !c.hosts.Allows(r) {
		refuseHost(w)
		return
	}
	r = c.underBase(r)
	if !c.authorized(w, r) {
		return
	}
	if r.Method == http.MethodPost && !c.csrfOK(r) {
		c.fail(w, r, http.StatusForbidden, errcode.New(errcode.ConsoleForbidden, "console: the form's CSRF token is missing or wrong").
			WithFix("reload the page and press the button again"))
		return
	}
	c.mux.ServeHTTP(w, r)
}
