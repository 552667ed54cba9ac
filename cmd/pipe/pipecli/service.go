package pipecli

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/outbox/outboxmetrics"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/pipeline/pipemetrics"
)

// metricsShutdown bounds closing the metrics endpoint once the worker has
// drained.
const metricsShutdown = time.Second

// service is what `pipe worker` and `pipe dev` run in the foreground: a
// worker, the scheduler when this pipe declares tasks, and the metrics
// endpoint when one is asked for.
type service struct {
	cfg     pipeline.WorkerConfig
	worker  *pipeline.Worker
	sched   *pipeline.Scheduler
	metrics *http.Server
}

// serve runs the service until ctx ends or a SIGINT/SIGTERM arrives, then
// drains it within drain. watch, when not nil, runs in the foreground while
// the service runs and must return once its context ends.
func (a *app) serve(ctx context.Context, pool *pgxpool.Pool, cfg pipeline.WorkerConfig, metricsAddr string,
	drain time.Duration, watch func(context.Context, *service)) error {
	sigCtx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	s, err := a.newService(pool, cfg, metricsAddr)
	if err != nil {
		return err
	}
	if err := s.start(sigCtx); err != nil {
		if sigCtx.Err() != nil {
			return nil // stopped (SIGINT, SIGTERM, the caller) while it started: nothing ran
		}
		return err
	}
	if watch != nil {
		watch(sigCtx, s)
	}
	<-sigCtx.Done()
	stop() // from here a second signal ends the process
	return s.stop(drain)
}

// newService builds the worker and the scheduler, and listens on
// metricsAddr when it is set, without starting anything.
func (a *app) newService(pool *pgxpool.Pool, cfg pipeline.WorkerConfig, metricsAddr string) (*service, error) {
	var err error
	if cfg.ListenConfig, err = a.listenConfig(); err != nil {
		return nil, err
	}
	s := &service{cfg: cfg}
	if s.worker, err = pipeline.NewWorker(pool, cfg); err != nil {
		return nil, err
	}
	if len(a.opts.Tasks) > 0 {
		s.sched, err = pipeline.NewScheduler(pool, pipeline.SchedulerConfig{Tasks: a.opts.Tasks, Logger: cfg.Logger})
		if err != nil {
			return nil, err
		}
	}
	if metricsAddr != "" {
		ln, err := net.Listen("tcp", metricsAddr)
		if err != nil {
			return nil, errcode.Wrap(err, errcode.ConfigInvalid, "--metrics-addr: %v", err).
				WithFix("pass a free host:port to listen on, such as :9090 or 127.0.0.1:9090")
		}
		mux := http.NewServeMux()
		mux.Handle("/metrics", pipemetrics.Handler(pipemetrics.New(pool, s.worker), outboxmetrics.New(pool)))
		s.metrics = &http.Server{Addr: ln.Addr().String(), Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		go s.serveMetrics(ln)
	}
	return s, nil
}

// serveMetrics serves the metrics endpoint on ln until stop closes it.
func (s *service) serveMetrics(ln net.Listener) {
	s.cfg.Logger.Info("pipe.metrics.serving", "addr", s.metrics.Addr, "path", "/metrics")
	if err := s.metrics.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		s.cfg.Logger.Error("pipe.metrics.failed", "err", err)
	}
}

// start starts the worker, then the scheduler.
func (s *service) start(ctx context.Context) error {
	if err := s.worker.Start(ctx); err != nil {
		s.closeMetrics()
		return err
	}
	if s.sched != nil {
		if err := s.sched.Start(ctx); err != nil {
			_ = s.worker.Shutdown(ctx)
			s.closeMetrics()
			return err
		}
	}
	return nil
}

// stop stops the scheduler, drains the worker within drain, and closes the
// metrics endpoint last, so that the drain can be watched.
func (s *service) stop(drain time.Duration) error {
	s.cfg.Logger.Info("pipe.worker.draining", "worker", s.worker.ID(), "timeout", drain.String())
	ctx, cancel := context.WithTimeout(context.Background(), drain)
	defer cancel()
	if s.sched != nil {
		if err := s.sched.Stop(ctx); err != nil {
			s.cfg.Logger.Warn("pipe.scheduler.stop_failed", "err", err)
		}
	}
	err := s.worker.Shutdown(ctx)
	s.closeMetrics()
	if err != nil {
		return errcode.Wrap(err, errcode.Draining, "the drain timeout (%s) passed with bodies still running; their leases lapse and another worker takes them", drain).
			WithFix("raise --drain-timeout, or make job bodies return sooner once their context is cancelled")
	}
	return nil
}

func (s *service) closeMetrics() {
	if s.metrics == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), metricsShutdown)
	defer cancel()
	if err := s.metrics.Shutdown(ctx); err != nil {
		_ = s.metrics.Close()
	}
}
