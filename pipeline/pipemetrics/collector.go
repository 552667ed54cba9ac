package pipemetrics

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/pipekit/pipe/pipeline"
)

// ScrapeTimeout bounds the database reads of one scrape.
const ScrapeTimeout = 5 * time.Second

// CountersWindow is how far back jobs_24h and jobs_done_seconds_24h look.
const CountersWindow = 24 * time.Hour

// Collector is a prometheus.Collector over one pool and the workers of this
// process. It is safe for concurrent scrapes.
type Collector struct {
	admin   *pipeline.Admin
	workers []*pipeline.Worker

	queueDepth, queueDemand, queuePaused, jobs24h, doneSeconds, storeUp *prometheus.Desc
	jobsTotal, leasesLost, inFlight, capacity                           *prometheus.Desc
}

// New answers a collector that reads queue depths and job counters from
// pool and the live counts of workers. Pass no workers from a process that
// only watches the database.
func New(pool *pgxpool.Pool, workers ...*pipeline.Worker) *Collector {
	return &Collector{
		admin:   pipeline.NewAdmin(pool),
		workers: workers,
		queueDepth: prometheus.NewDesc("queue_depth",
			"Runs in the queue by state (ready, delayed, suspended, running), fleet-wide.", []string{"queue", "state"}, nil),
		queueDemand: prometheus.NewDesc("queue_demand",
			"Slots the queue could use now: runs due (their run time passed) plus runs running, fleet-wide. What an autoscaler reads.", []string{"queue"}, nil),
		queuePaused: prometheus.NewDesc("queue_paused",
			"1 while the queue is paused fleet-wide.", []string{"queue"}, nil),
		jobs24h: prometheus.NewDesc("jobs_24h",
			"Runs of the job in the last 24 h by outcome (done, retried, failed, dead), fleet-wide.", []string{"job", "outcome"}, nil),
		doneSeconds: prometheus.NewDesc("jobs_done_seconds_24h",
			"Summed duration of the job's runs done in the last 24 h, fleet-wide.", []string{"job"}, nil),
		storeUp: prometheus.NewDesc("job_store_up",
			"1 when this scrape read the database; 0 leaves the fleet-wide metrics out.", nil, nil),
		jobsTotal: prometheus.NewDesc("jobs_total",
			"Attempts settled by this process's workers since they started, by queue and outcome.", []string{"queue", "outcome"}, nil),
		leasesLost: prometheus.NewDesc("job_leases_lost_total",
			"Leases this process's workers lost (no renewal landed for a whole lease window), by queue.", []string{"queue"}, nil),
		inFlight: prometheus.NewDesc("job_worker_in_flight",
			"Runs the worker holds now.", []string{"worker"}, nil),
		capacity: prometheus.NewDesc("job_worker_capacity",
			"The worker's slots: its process cap, else the sum of its queues' slots.", []string{"worker"}, nil),
	}
}

// Describe sends every metric's description.
func (c *Collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.queueDepth, c.queueDemand, c.queuePaused, c.jobs24h, c.doneSeconds, c.storeUp,
		c.jobsTotal, c.leasesLost, c.inFlight, c.capacity} {
		ch <- d
	}
}

// Collect reads the database and the workers and sends their metrics.
func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	c.collectWorkers(ch)
	ctx, cancel := context.WithTimeout(context.Background(), ScrapeTimeout)
	defer cancel()
	up := 1.0
	if err := c.collectQueues(ctx, ch); err != nil {
		up = 0
	}
	if err := c.collectCounters(ctx, ch); err != nil {
		up = 0
	}
	ch <- prometheus.MustNewConstMetric(c.storeUp, prometheus.GaugeValue, up)
}

func (c *Collector) collectQueues(ctx context.Context, ch chan<- prometheus.Metric) error {
	queues, err := c.admin.Queues(ctx)
	if err != nil {
		return err
	}
	for _, q := range queues {
		for state, n := range map[string]int64{"ready": q.Ready, "delayed": q.Delayed, "suspended": q.Suspended, "running": q.Running} {
			ch <- prometheus.MustNewConstMetric(c.queueDepth, prometheus.GaugeValue, float64(n), q.Queue, state)
		}
		ch <- prometheus.MustNewConstMetric(c.queueDemand, prometheus.GaugeValue, float64(q.Due+q.Running), q.Queue)
		ch <- prometheus.MustNewConstMetric(c.queuePaused, prometheus.GaugeValue, boolValue(q.Paused), q.Queue)
	}
	return nil
}

func (c *Collector) collectCounters(ctx context.Context, ch chan<- prometheus.Metric) error {
	totals, err := c.admin.CounterTotals(ctx, time.Now().Add(-CountersWindow))
	if err != nil {
		return err
	}
	for _, t := range totals {
		for outcome, n := range map[string]int64{"done": t.Done, "retried": t.Retried, "failed": t.Failed, "dead": t.Dead} {
			ch <- prometheus.MustNewConstMetric(c.jobs24h, prometheus.GaugeValue, float64(n), t.Job, outcome)
		}
		ch <- prometheus.MustNewConstMetric(c.doneSeconds, prometheus.GaugeValue, float64(t.DurationMs)/1000, t.Job)
	}
	return nil
}

func (c *Collector) collectWorkers(ch chan<- prometheus.Metric) {
	if len(c.workers) == 0 {
		return
	}
	outcomes := map[[2]string]int64{}
	lost := map[string]int64{}
	for _, w := range c.workers {
		for queue, byOutcome := range w.Outcomes() {
			for outcome, n := range byOutcome {
				outcomes[[2]string{queue, outcome}] += n
			}
		}
		for _, queue := range w.Queues() {
			lost[queue] += 0 // every served queue reports, losses or none
		}
		for queue, n := range w.LeasesLost() {
			lost[queue] += n
		}
		ch <- prometheus.MustNewConstMetric(c.inFlight, prometheus.GaugeValue, float64(w.InFlight()), w.ID())
		ch <- prometheus.MustNewConstMetric(c.capacity, prometheus.GaugeValue, float64(w.Capacity()), w.ID())
	}
	for key, n := range outcomes {
		ch <- prometheus.MustNewConstMetric(c.jobsTotal, prometheus.CounterValue, float64(n), key[0], key[1])
	}
	for queue, n := range lost {
		ch <- prometheus.MustNewConstMetric(c.leasesLost, prometheus.CounterValue, float64(n), queue)
	}
}

func boolValue(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
