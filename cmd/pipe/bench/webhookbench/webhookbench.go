// Package webhookbench is `pipe bench webhooks`: outbound deliveries a
// second beside a plain keep-alive net/http POST loop to the same server at
// the same concurrency, and inbound acknowledgements a second (each after a
// durable commit) beside a naive receiver that commits one INSERT per
// request, with the ack latency at a fixed rate.
package webhookbench

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Options size the bench. Zero fields take the defaults named.
type Options struct {
	// Deliveries is how many outbound deliveries are timed. Default
	// 20,000.
	Deliveries int
	// Concurrency is the outbound runs (and anchor loops) at once.
	// Default 256.
	Concurrency int
	// Requests is how many inbound requests are timed. Default 10,000.
	Requests int
	// Senders is the inbound senders at once. Default 64.
	Senders int
	// Rate is the request rate of the latency figure. Default 500/s.
	Rate int
	// RateFor is how long the latency figure sends. Default 5s.
	RateFor time.Duration
	// Logger receives the worker's warnings. Default none.
	Logger *slog.Logger
}

func (o Options) withDefaults() Options {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&o.Deliveries, 20000)
	def(&o.Concurrency, 256)
	def(&o.Requests, 10000)
	def(&o.Senders, 64)
	def(&o.Rate, 500)
	if o.RateFor == 0 {
		o.RateFor = 5 * time.Second
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// Result are the figures, each beside its anchor.
type Result struct {
	Concurrency    int     `json:"concurrency"`
	OutboundPerSec float64 `json:"outboundDeliveriesPerSec"`
	OutboundAnchor float64 `json:"outboundPlainPostsPerSec"`
	OutboundRatio  float64 `json:"outboundRatio"`
	// The CPU time of one delivery, in µs: this process's (worker, HTTP
	// server and client) and its database sessions' (when the database
	// runs on this machine: DBCPUKnown); and of one anchor POST (client and
	// server).
	OutboundCPUUs   float64 `json:"outboundCpuUs"`
	OutboundDBCPUUs float64 `json:"outboundDatabaseCpuUs"`
	DBCPUKnown      bool    `json:"databaseCpuKnown"`
	AnchorCPUUs     float64 `json:"anchorCpuUs"`
	// The same deliveries staged through the outbox (webhook.Staged): a
	// second, and the CPU time of one (this process's and its database
	// sessions').
	StagedPerSec  float64 `json:"stagedDeliveriesPerSec"`
	StagedRatio   float64 `json:"stagedRatio"`
	StagedCPUUs   float64 `json:"stagedCpuUs"`
	StagedDBCPUUs float64 `json:"stagedDatabaseCpuUs"`
	// A no-op job's runs a second on the same worker, and the CPU time of
	// one run, in µs (this process's and its database sessions'): the job
	// core's own share of a delivery.
	NoopPerSec        float64 `json:"noopRunsPerSec"`
	NoopCPUUs         float64 `json:"noopCpuUs"`
	NoopDBCPUUs       float64 `json:"noopDatabaseCpuUs"`
	Senders           int     `json:"senders"`
	InboundPerSec     float64 `json:"inboundAcksPerSec"`
	InboundAnchor     float64 `json:"inboundNaiveAcksPerSec"`
	InboundRatio      float64 `json:"inboundRatio"`
	Rate              int     `json:"rate"`
	AckP50Ms          float64 `json:"ackP50Ms"`
	AckP99Ms          float64 `json:"ackP99Ms"`
	AnchorAckP99Ms    float64 `json:"naiveAckP99Ms"`
	InboundTargetPass bool    `json:"inboundTargetsMet"`
}

// Run measures every figure and prints each line to out.
func Run(ctx context.Context, pool *pgxpool.Pool, o Options, out io.Writer) (Result, error) {
	o = o.withDefaults()
	r := Result{Concurrency: o.Concurrency, Senders: o.Senders, Rate: o.Rate}
	if err := outbound(ctx, pool, o, &r); err != nil {
		return r, err
	}
	r.OutboundRatio = r.OutboundPerSec / r.OutboundAnchor
	fmt.Fprintf(out, "outbound, %d at once: %.0f deliveries/s (10 endpoints of the stock store, ledger on) vs %.0f plain keep-alive POSTs/s = %.2fx\n",
		o.Concurrency, r.OutboundPerSec, r.OutboundAnchor, r.OutboundRatio)
	printCPU(out, r)
	r.StagedRatio = r.StagedPerSec / r.OutboundAnchor
	fmt.Fprintf(out, "outbound staged through the outbox (webhook.Staged at its defaults, 64 at once; its relay in batches of %d, as docs/webhooks.md declares it): %.0f deliveries/s = %.2fx the POSTs\n",
		StagedRelayBatch, r.StagedPerSec, r.StagedRatio)
	printStagedCPU(out, r)
	if err := jobFloor(ctx, pool, o, &r); err != nil {
		return r, err
	}
	printFloor(out, r)
	if err := inbound(ctx, pool, o, &r); err != nil {
		return r, err
	}
	r.InboundRatio = r.InboundPerSec / r.InboundAnchor
	r.InboundTargetPass = r.InboundPerSec >= 3000 && r.AckP99Ms <= 25
	fmt.Fprintf(out, "inbound, %d senders: %.0f acks/s (each after its commit) vs %.0f naive (one INSERT commit a request) = %.2fx; target 3,000/s: %.2fx\n",
		o.Senders, r.InboundPerSec, r.InboundAnchor, r.InboundRatio, r.InboundPerSec/3000)
	fmt.Fprintf(out, "inbound ack at %d req/s: p50 %.1f ms, p99 %.1f ms (naive p99 %.1f ms); target p99 25 ms: %.2fx\n",
		o.Rate, r.AckP50Ms, r.AckP99Ms, r.AnchorAckP99Ms, r.AckP99Ms/25)
	return r, nil
}

// server serves h on loopback with keep-alive until the answer's stop.
func server(h http.Handler) (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String(), func() { _ = srv.Close() }, nil
}

// client is a keep-alive client with conns connections per host.
func client(conns int) *http.Client {
	return &http.Client{Transport: &http.Transport{MaxIdleConns: conns * 2, MaxIdleConnsPerHost: conns, IdleConnTimeout: time.Minute}}
}

// loop runs n calls of fn over conc goroutines and answers calls/s.
func loop(n, conc int, fn func(i int) error) (float64, error) {
	next := make(chan int, n)
	for i := range n {
		next <- i
	}
	close(next)
	errs := make(chan error, conc)
	start := time.Now()
	for range conc {
		go func() {
			var first error
			for i := range next {
				if err := fn(i); err != nil && first == nil {
					first = err
				}
			}
			errs <- first
		}()
	}
	var err error
	for range conc {
		if e := <-errs; e != nil && err == nil {
			err = e
		}
	}
	return float64(n) / time.Since(start).Seconds(), err
}

// printCPU prints what a delivery and a plain POST cost the machine's CPU,
// and the ratio that leaves where the two share its cores.
func printCPU(out io.Writer, r Result) {
	printDeliveryCPU(out, r, "a delivery", r.OutboundCPUUs, r.OutboundDBCPUUs)
}

// printStagedCPU prints what a staged delivery costs the machine's CPU.
func printStagedCPU(out io.Writer, r Result) {
	printDeliveryCPU(out, r, "a staged delivery", r.StagedCPUUs, r.StagedDBCPUUs)
}

func printDeliveryCPU(out io.Writer, r Result, what string, processUs, databaseUs float64) {
	if !r.DBCPUKnown {
		fmt.Fprintf(out, "CPU %s: %.0f µs in this process (the database's share unknown: it is not on this machine), a plain POST %.0f µs\n",
			what, processUs, r.AnchorCPUUs)
		return
	}
	total := processUs + databaseUs
	fmt.Fprintf(out, "CPU %s: %.0f µs in this process + %.0f µs in its database sessions = %.0f µs, a plain POST %.0f µs: on cores they share, at most %.2fx\n",
		what, processUs, databaseUs, total, r.AnchorCPUUs, r.AnchorCPUUs/total)
}

// printFloor prints what a run of a no-op job costs on the same worker, and
// the ratio its CPU time alone, added to a plain POST's, would leave.
func printFloor(out io.Writer, r Result) {
	if !r.DBCPUKnown {
		fmt.Fprintf(out, "a no-op job on the same worker: %.0f runs/s, %.0f µs of CPU a run in this process\n", r.NoopPerSec, r.NoopCPUUs)
		return
	}
	total := r.NoopCPUUs + r.NoopDBCPUUs
	fmt.Fprintf(out, "a no-op job on the same worker: %.0f runs/s, %.0f µs + %.0f µs of CPU a run = %.0f µs: a POST with nothing but the job core's work, at most %.2fx\n",
		r.NoopPerSec, r.NoopCPUUs, r.NoopDBCPUUs, total, r.AnchorCPUUs/(total+r.AnchorCPUUs))
}
