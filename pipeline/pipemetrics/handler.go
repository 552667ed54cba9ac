package pipemetrics

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Handler answers an HTTP handler serving c, with the Go runtime and process
// metrics beside it, from a registry of its own: nothing is registered with
// prometheus.DefaultRegisterer. more are served beside them (the outbox's,
// outbox/outboxmetrics); their metric names must be distinct. To serve c
// with other metrics, register it with your own registry instead.
func Handler(c *Collector, more ...prometheus.Collector) http.Handler {
	reg := prometheus.NewRegistry()
	// c's descriptions are fixed and distinct from the runtime's: registering
	// cannot fail.
	reg.MustRegister(c, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	reg.MustRegister(more...)
	return promhttp.HandlerFor(reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError})
}
