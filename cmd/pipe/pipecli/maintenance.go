package pipecli

import (
	"slices"

	"github.com/pipekit/pipe/pipeline"
)

// maintenanceName is the stock maintenance job's name, and its task's.
const maintenanceName = "pipe.maintain"

// The stock hourly maintenance: pipeline.MaintenanceJob at the default
// retention (done and cancelled runs 14 days, dead and failed 90) and the
// task that enqueues it at the top of every hour, UTC.
var (
	maintenanceJob  = pipeline.MaintenanceJob(pipeline.Retention{})
	maintenanceTask = pipeline.MaintenanceTask(maintenanceJob)
)

// withMaintenance answers opts with the stock maintenance job and task
// added, each unless opts declares one of its name (an application's own,
// at the retention it wants) or NoMaintenance is set: the stock pipe keeps
// its tables bounded without a cron of its own.
func withMaintenance(opts Options) Options {
	if opts.NoMaintenance {
		return opts
	}
	if !slices.ContainsFunc(opts.Jobs, func(j pipeline.Registrable) bool { return j.Name() == maintenanceName }) {
		opts.Jobs = append(slices.Clip(opts.Jobs), maintenanceJob)
	}
	if !slices.ContainsFunc(opts.Tasks, func(t *pipeline.Task) bool { return t.Name() == maintenanceName }) {
		opts.Tasks = append(slices.Clip(opts.Tasks), maintenanceTask)
	}
	return opts
}
