// Package outboxmetrics serves the outbox's state as Prometheus metrics,
// read from pipe.outbox at each scrape (fleet-wide, whichever process
// serves them): per stream, the rows waiting for the relay and the age of
// the oldest, the publish rate over the last minute, and the dead and held
// rows. `pipe worker --metrics-addr` serves them beside the job metrics.
package outboxmetrics

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/pipekit/pipe/outbox"
)

// scrapeTimeout bounds the status query of one scrape.
const scrapeTimeout = 5 * time.Second

// Collector reads the outbox's status at each scrape. It is safe for
// concurrent scrapes.
type Collector struct {
	pool                                  *pgxpool.Pool
	lagRows, lagSeconds, rate, dead, held *prometheus.Desc
}

// New answers a collector reading pool's database.
func New(pool *pgxpool.Pool) *Collector {
	stream := []string{"stream"}
	return &Collector{
		pool:       pool,
		lagRows:    prometheus.NewDesc("outbox_lag_rows", "Rows committed to the stream and not yet published (dead and held rows apart).", stream, nil),
		lagSeconds: prometheus.NewDesc("outbox_lag_seconds", "Age of the stream's oldest row not yet published; 0 when none waits.", stream, nil),
		rate:       prometheus.NewDesc("outbox_published_per_second", "Rows of the stream published per second over the last minute.", stream, nil),
		dead:       prometheus.NewDesc("outbox_dead_rows", "Rows of the stream the broker refused for good, waiting for `pipe outbox retry`.", stream, nil),
		held:       prometheus.NewDesc("outbox_held_rows", "Rows of the stream held behind a dead row.", stream, nil),
	}
}

// Describe sends every metric's description.
func (c *Collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.lagRows, c.lagSeconds, c.rate, c.dead, c.held} {
		ch <- d
	}
}

// Collect reads the status and sends each stream's metrics; a database
// that does not answer sends none.
func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), scrapeTimeout)
	defer cancel()
	streams, err := outbox.Status(ctx, c.pool)
	if err != nil {
		return
	}
	for _, s := range streams {
		ch <- prometheus.MustNewConstMetric(c.lagRows, prometheus.GaugeValue, float64(s.LagRows), s.Stream)
		ch <- prometheus.MustNewConstMetric(c.lagSeconds, prometheus.GaugeValue, s.LagSeconds, s.Stream)
		ch <- prometheus.MustNewConstMetric(c.rate, prometheus.GaugeValue, s.PublishedPerSecond, s.Stream)
		ch <- prometheus.MustNewConstMetric(c.dead, prometheus.GaugeValue, float64(s.Dead), s.Stream)
		ch <- prometheus.MustNewConstMetric(c.held, prometheus.GaugeValue, float64(s.Held), s.Stream)
	}
}
