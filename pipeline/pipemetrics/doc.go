// Package pipemetrics exposes pipe's job core to Prometheus.
//
// A [Collector] reads everything on each scrape and keeps no state of its
// own: there are no package-level metrics, so any number of collectors (one
// per pool, say) can live in one process.
//
//	w, _ := pipeline.NewWorker(pool, cfg)
//	http.Handle("/metrics", pipemetrics.Handler(pipemetrics.New(pool, w)))
//
// `pipe worker --metrics-addr :9090` does exactly this.
//
// # Metrics
//
// From the database, fleet-wide (one query each per scrape):
//
//	queue_depth{queue,state}          runs per queue in ready, delayed, suspended and running
//	queue_paused{queue}               1 while the queue is paused
//	jobs_24h{job,outcome}             runs done, retried, failed and dead in the last 24 h, from pipe.job_counters
//	jobs_done_seconds_24h{job}        summed duration of the runs done in the last 24 h
//	job_store_up                      1 when this scrape read the database, else 0
//
// From the workers passed to [New], for this process only:
//
//	jobs_total{queue,outcome}         settled attempts since the workers started: completed, retried,
//	                                  dead_lettered, failed, interrupted, suspended, deferred
//	job_leases_lost_total             leases lost to another claimant
//	job_worker_in_flight{worker}      runs the worker holds now
//	job_worker_capacity{worker}       the worker's slots
//
// jobs_total counts what this process's workers settled (see
// [pipeline.Worker.Outcomes]); sum it across instances for the fleet. For
// per-job history use jobs_24h, which every worker's settling statement
// moves.
//
// # Failures
//
// A scrape never fails as a whole: when the database cannot be read, the
// database metrics are left out, job_store_up is 0, and the worker metrics
// are served as usual. Each scrape bounds its reads by [ScrapeTimeout].
package pipemetrics
