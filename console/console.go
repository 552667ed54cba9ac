package console

import (
	"crypto/rand"
	"embed"
	"html/template"
	"io/fs"
	"net/http"
	"time"

	"github.com/pipekit/pipe/errcode"
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
	// Now is the clock the pages read. Default time.Now.
	Now func() time.Time
}

// Console is the console's http.Handler.
type Console struct {
	admin *pipeline.Admin
	opts  Options
	pages map[string]*template.Template
	csrf  string
	mux   *http.ServeMux
}

// New answers a console over admin. The handler serves its pages from its
// root: mount it with http.StripPrefix to serve it under a path.
func New(admin *pipeline.Admin, o Options) (*Console, error) {
	if admin == nil {
		return nil, errcode.New(errcode.ConfigInvalid, "console: no operator API").
			WithFix("pass pipeline.NewAdmin(pool)")
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	pages, err := parsePages()
	if err != nil {
		return nil, err
	}
	c := &Console{admin: admin, opts: o, pages: pages, csrf: rand.Text(), mux: http.NewServeMux()}
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

// ServeHTTP answers one request: the security headers, the token, then the
// page or action.
func (c *Console) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	secureHeaders(w.Header())
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
