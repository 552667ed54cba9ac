package consumer

import (
	"fmt"
	"strings"
	"time"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// withDefaults fills the defaults of o, or names every fault of the
// declaration in one X_CONSUMER_INVALID.
func (o Options[T, C]) withDefaults() (Options[T, C], error) {
	faults := o.faults()
	if len(faults) > 0 {
		label := o.Name
		if strings.TrimSpace(label) == "" {
			label = "(unnamed)"
		}
		return o, errcode.New(errcode.ConsumerInvalid, "consumer %s: %s", label, strings.Join(faults, "; ")).
			WithFix("correct the consumer's declaration: " + strings.Join(faults, "; "))
	}
	if o.Batch == 0 {
		o.Batch = DefaultBatch
	}
	if o.Rearm == 0 {
		o.Rearm = DefaultRearm
	}
	if o.LagEvery == 0 {
		o.LagEvery = DefaultLagEvery
	}
	if o.ArmQueue == "" {
		o.ArmQueue = pipeline.DefaultQueue
	}
	if o.Job.Queue == "" {
		o.Job.Queue = o.Name
	}
	return o, nil
}

func (o Options[T, C]) faults() []string {
	var faults []string
	add := func(cond bool, fault string) {
		if cond {
			faults = append(faults, fault)
		}
	}
	add(strings.TrimSpace(o.Name) == "", "Name is empty")
	add(len(o.Name) > 189, "Name is longer than 189 characters")
	add(o.Keys == nil, "Keys is nil")
	add(o.Open == nil, "Open is nil")
	add(o.Handle == nil, "Handle is nil")
	add(o.Cursor.Load == nil, "Cursor.Load is nil")
	add(o.Cursor.Save == nil, "Cursor.Save is nil")
	add(o.Batch < 0, "Batch must be a whole number of 1 or more")
	add(o.LagEvery < 0, "LagEvery is negative")
	if fault := rearmFault(o.Rearm); fault != "" {
		faults = append(faults, fault)
	}
	add(o.Job.Timeout != 0, "Job.Timeout is set: a consumer has no timeout (a run ends when its feed ends or a drain stops it)")
	add(o.Job.Concurrency != nil, "Job.Concurrency is set: a consumer runs one body per key, always")
	add(o.Job.Tenant != nil, "Job.Tenant is set: declare Tenant on the consumer")
	add(o.Job.Compensates, "Job.Compensates is set: a consumer's batches are not steps")
	return faults
}

// rearmFault refuses a rearm that is not whole minutes dividing an hour.
func rearmFault(d time.Duration) string {
	if d == 0 {
		return ""
	}
	if d < 0 || d%time.Minute != 0 || 60%int(d/time.Minute) != 0 || d > time.Hour {
		return fmt.Sprintf("Rearm %s is not whole minutes dividing an hour (1m, 2m, 3m, 4m, 5m, 6m, 10m, 12m, 15m, 20m, 30m or 60m)", d)
	}
	return ""
}

// rearmCron is the supervisor's cron expression for a valid rearm.
func rearmCron(d time.Duration) string {
	m := int(d / time.Minute)
	switch m {
	case 1:
		return "* * * * *"
	case 60:
		return "0 * * * *"
	}
	return fmt.Sprintf("*/%d * * * *", m)
}
