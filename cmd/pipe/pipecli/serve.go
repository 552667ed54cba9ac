package pipecli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/pipeline/pipemetrics"
	"github.com/pipekit/pipe/webhook"
)

// Receiver is an inbound webhook `pipe serve` mounts: a
// *webhook.Receiver[P] of any payload. Its job runs in `pipe worker` with
// the others.
type Receiver interface {
	Name() string
	Path() string
	Job() pipeline.Registrable
	Handler(db pipeline.DB) *webhook.Door
}

func (a *app) serveCommand() *cobra.Command {
	var addr string
	var hosts []string
	var drain time.Duration
	c := &cobra.Command{
		Use:   "serve [--addr ADDR]",
		Short: "Serve the registered webhook receivers, /metrics and /healthz until SIGINT or SIGTERM",
		Long: "serve listens on --addr and mounts every webhook receiver this pipe was built with at its\n" +
			"path: each request is verified, queued durably, then acknowledged (pipe worker runs the\n" +
			"receivers' jobs). /metrics serves the queues' Prometheus metrics and /healthz answers 200\n" +
			"while the database answers, else 503. On SIGINT or SIGTERM it stops accepting and lets the\n" +
			"requests in flight finish within --drain-timeout. With --allow-host NAME (repeatable) it answers\n" +
			"only to those Host names, loopback names on its port and its own address, refusing any other\n" +
			"with 421 X_HOST_REFUSED; without it, every Host is served (senders authenticate by signature).",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			pool, err := a.connect(c.Context(), migrated)
			if err != nil {
				return err
			}
			defer pool.Close()
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return errcode.Wrap(err, errcode.ConfigInvalid, "--addr: the address cannot be listened on").
					WithFix("pass a free host:port, such as :8080 or 127.0.0.1:8080")
			}
			sigCtx, stop := signal.NotifyContext(c.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return a.serveHTTP(sigCtx, pool, ln, drain, hosts)
		},
	}
	c.Flags().StringVar(&addr, "addr", ":8080", "the host:port to listen on")
	c.Flags().DurationVar(&drain, "drain-timeout", 10*time.Second, "how long requests in flight may finish on shutdown")
	c.Flags().StringArrayVar(&hosts, "allow-host", nil, "answer only to this Host name (NAME or NAME:PORT), loopback names and the server's own address; repeatable (default: every Host)")
	return c
}

// serveHTTP serves the doors on ln until ctx ends, then shuts down. With
// hosts, only those Host names (and loopback, and ln's address) are served.
func (a *app) serveHTTP(ctx context.Context, pool *pgxpool.Pool, ln net.Listener, drain time.Duration, hosts []string) error {
	mux, doors := a.serveMux(pool)
	var h http.Handler = mux
	if len(hosts) > 0 {
		var err error
		if h, err = webhook.OnlyHosts(mux, hosts...); err != nil {
			_ = ln.Close()
			for _, d := range doors {
				d.Close()
			}
			return err
		}
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	if err := a.emit(map[string]any{"addr": ln.Addr().String(), "receivers": len(doors)},
		fmt.Sprintf("serving %d webhook receivers on %s", len(doors), ln.Addr())); err != nil {
		_ = srv.Close()
		return err
	}
	var err error
	select {
	case <-ctx.Done():
	case err = <-served:
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), drain)
	defer cancel()
	if serr := srv.Shutdown(sctx); serr != nil {
		_ = srv.Close()
	}
	for _, d := range doors {
		d.Close()
	}
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// serveMux mounts every receiver, /metrics and /healthz.
func (a *app) serveMux(pool *pgxpool.Pool) (*http.ServeMux, []*webhook.Door) {
	mux := http.NewServeMux()
	var doors []*webhook.Door
	for _, r := range a.opts.Receivers {
		d := r.Handler(pool)
		mux.Handle(r.Path(), d)
		doors = append(doors, d)
	}
	mux.Handle("GET /metrics", pipemetrics.Handler(pipemetrics.New(pool)))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := pool.Ping(ctx); err != nil {
			http.Error(w, `{"ok":false}`, http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"ok":true}`))
	})
	return mux, doors
}

// receiverJobs are the registered receivers' jobs not also listed in Jobs.
func (a *app) receiverJobs() []pipeline.Registrable {
	var out []pipeline.Registrable
	for _, r := range a.opts.Receivers {
		if !slices.ContainsFunc(a.opts.Jobs, func(j pipeline.Registrable) bool { return j.Name() == r.Name() }) {
			out = append(out, r.Job())
		}
	}
	return out
}
