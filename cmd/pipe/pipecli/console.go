package pipecli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/console"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// consoleFlags are the console's flags, on `pipe console` and `pipe dev`.
type consoleFlags struct {
	addr         string
	token        string
	allowActions bool
	allowHosts   []string
	basePath     string
}

// add declares the flags; prefix names them for a command that serves the
// console beside other things ("console-" on `pipe dev`).
func (f *consoleFlags) add(c *cobra.Command, prefix, addrUsage string) {
	fl := c.Flags()
	fl.StringVar(&f.addr, prefix+"addr", "127.0.0.1:8080", addrUsage)
	fl.StringVar(&f.token, prefix+"token", "", "require this token of every console request (default $PIPE_CONSOLE_TOKEN); required off loopback")
	fl.BoolVar(&f.allowActions, "allow-actions", false, "let the console retry, cancel, promote and remove runs and pause queues and tasks")
	fl.StringArrayVar(&f.allowHosts, prefix+"allow-host", nil, "also answer to this Host name (NAME or NAME:PORT), such as a proxy's public name; repeatable (default: loopback names on the console's port and its --addr)")
	fl.StringVar(&f.basePath, prefix+"base-path", "", "serve the console under this path prefix, such as /ops, as a reverse proxy does")
}

func (a *app) consoleCommand() *cobra.Command {
	var f consoleFlags
	var config string
	c := &cobra.Command{
		Use:   "console",
		Short: "Serve the web console: queues, jobs, a job's steps and journal, tasks, workers",
		Long: "console serves the web console on --addr (loopback by default) until SIGINT or SIGTERM.\n" +
			"Any other address requires a token (--token or PIPE_CONSOLE_TOKEN): open the console once\n" +
			"as http://ADDR/?token=TOKEN, or send Authorization: Bearer TOKEN. It is read-only unless\n" +
			"--allow-actions. --config pipe.json adds the project file's jobs and tasks to its pages.\n" +
			"It answers only to the Host names it serves: localhost, 127.0.0.1 and [::1] on its port, the\n" +
			"host of --addr, and each --allow-host NAME (a proxy's public name); any other is refused with\n" +
			"421 X_HOST_REFUSED. --base-path /PREFIX serves it under a reverse proxy's prefix.",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if err := f.check(); err != nil {
				return err
			}
			if _, err := a.useProject(config); err != nil {
				return err
			}
			pool, err := a.connect(c.Context(), migrated)
			if err != nil {
				return err
			}
			defer pool.Close()
			ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			shutdown, err := a.startConsole(pool, f)
			if err != nil {
				return err
			}
			<-ctx.Done()
			return shutdown()
		},
	}
	f.add(c, "", "listen on this host:port; a non-loopback address requires --token")
	configFlag(c, &config)
	return c
}

// check takes the token from the environment when no flag gave one, and
// refuses a listener beyond loopback without one.
func (f *consoleFlags) check() error {
	if f.token == "" {
		f.token = os.Getenv("PIPE_CONSOLE_TOKEN")
	}
	if !loopback(f.addr) && f.token == "" {
		return errcode.New(errcode.ConfigInvalid, "the console would listen beyond this machine without a token").
			WithFix("pass --token (or set PIPE_CONSOLE_TOKEN), or listen on loopback, such as --addr 127.0.0.1:8080")
	}
	return nil
}

// startConsole listens on f.addr and serves the console over pool, printing
// its address on stderr. It answers the function that shuts it down,
// letting requests in flight finish.
func (a *app) startConsole(pool *pgxpool.Pool, f consoleFlags) (func() error, error) {
	reg, err := a.registry()
	if err != nil {
		return nil, err
	}
	h, err := console.New(pipeline.NewAdmin(pool), console.Options{
		Manifests: reg.Manifests(), Tasks: a.opts.Tasks, AllowActions: f.allowActions, Token: f.token, DB: pool,
		AllowedHosts: append(addrHost(f.addr), f.allowHosts...), BasePath: f.basePath,
	})
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		return nil, errcode.Wrap(err, errcode.ConfigInvalid, "the console cannot listen on that address: %v", err).
			WithFix("pass a free host:port with --addr, such as 127.0.0.1:8081")
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	mode := "read-only"
	if f.allowActions {
		mode = "actions allowed"
	}
	fmt.Fprintf(a.stderr, "console on http://%s%s/ (%s)\n", ln.Addr(), strings.TrimSuffix(f.basePath, "/"), mode)
	return func() error {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
			return srv.Close()
		}
		return nil
	}, nil
}

// addrHost answers the host of the console's address as a name it answers
// to: none for an address on every interface.
func addrHost(addr string) []string {
	host, _, err := net.SplitHostPort(addr)
	if err != nil || host == "" || net.ParseIP(host) != nil && net.ParseIP(host).IsUnspecified() {
		return nil
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return []string{host}
}

// loopback reports whether addr's host is a loopback name or address. An
// empty host listens on every interface.
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil || host == "" {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// consoleFault answers the message of a console that could not start.
func consoleFault(err error) string {
	if e, ok := errcode.As(err); ok {
		return e.Message
	}
	return "it did not start"
}
