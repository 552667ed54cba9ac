package consumer_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pipekit/pipe/consumer"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// Every fault of a declaration is named in one X_CONSUMER_INVALID: no
// cursor, a timeout, a batch below 1, a rearm that is not whole minutes
// dividing an hour, a job option the consumer owns.
func TestDeclarationFaultsAreNamed(t *testing.T) {
	fs := &feeds{}
	cases := []struct {
		name  string
		edit  func(*consumer.Options[item, int64])
		fault string
	}{
		{"no name", func(o *consumer.Options[item, int64]) { o.Name = " " }, "Name is empty"},
		{"no load", func(o *consumer.Options[item, int64]) { o.Cursor.Load = nil }, "Cursor.Load is nil"},
		{"no save", func(o *consumer.Options[item, int64]) { o.Cursor.Save = nil }, "Cursor.Save is nil"},
		{"no keys", func(o *consumer.Options[item, int64]) { o.Keys = nil }, "Keys is nil"},
		{"no open", func(o *consumer.Options[item, int64]) { o.Open = nil }, "Open is nil"},
		{"no handle", func(o *consumer.Options[item, int64]) { o.Handle = nil }, "Handle is nil"},
		{"timeout", func(o *consumer.Options[item, int64]) { o.Job.Timeout = time.Minute }, "a consumer has no timeout"},
		{"batch", func(o *consumer.Options[item, int64]) { o.Batch = -1 }, "Batch must be a whole number of 1 or more"},
		{"rearm 7m", func(o *consumer.Options[item, int64]) { o.Rearm = 7 * time.Minute }, "Rearm 7m0s is not whole minutes dividing an hour"},
		{"rearm 90s", func(o *consumer.Options[item, int64]) { o.Rearm = 90 * time.Second }, "Rearm 1m30s is not whole minutes"},
		{"rearm 2h", func(o *consumer.Options[item, int64]) { o.Rearm = 2 * time.Hour }, "Rearm 2h0m0s is not whole minutes"},
		{"rearm negative", func(o *consumer.Options[item, int64]) { o.Rearm = -time.Minute }, "is not whole minutes"},
		{"lag every", func(o *consumer.Options[item, int64]) { o.LagEvery = -time.Second }, "LagEvery is negative"},
		{"concurrency", func(o *consumer.Options[item, int64]) {
			o.Job.Concurrency = &pipeline.Concurrency[consumer.Input]{Limit: 2}
		}, "Job.Concurrency is set"},
		{"tenant", func(o *consumer.Options[item, int64]) {
			o.Job.Tenant = func(consumer.Input) string { return "t" }
		}, "Job.Tenant is set"},
		{"compensates", func(o *consumer.Options[item, int64]) { o.Job.Compensates = true }, "Job.Compensates is set"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := options("declared", fs, "k")
			tc.edit(&o)
			_, err := consumer.New(o)
			if !errors.Is(err, errcode.ConsumerInvalid) || !strings.Contains(err.Error(), tc.fault) {
				t.Fatalf("New answered %v; want X_CONSUMER_INVALID naming %q", err, tc.fault)
			}
		})
	}
	o := options("declared", fs, "k")
	o.Batch, o.Rearm, o.Job.Timeout, o.Cursor.Save = -5, 45*time.Minute, time.Second, nil
	_, err := consumer.New(o)
	for _, fault := range []string{"Batch", "Rearm", "timeout", "Cursor.Save"} {
		if err == nil || !strings.Contains(err.Error(), fault) {
			t.Fatalf("New answered %v; want every fault named, %s among them", err, fault)
		}
	}
}

// Every rearm that divides an hour is a cron on the minute, UTC; the
// defaults are a batch of 100, a rearm of one minute and a queue named for
// the consumer.
func TestRearmsAndDefaults(t *testing.T) {
	fs := &feeds{}
	from := time.Date(2026, 3, 1, 10, 7, 30, 0, time.UTC)
	for _, m := range []int{1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30, 60} {
		o := options("rearmed", fs, "k")
		o.Rearm = time.Duration(m) * time.Minute
		c, err := consumer.New(o)
		if err != nil {
			t.Fatalf("rearm %dm: %v", m, err)
		}
		next := c.Supervisor().Next(from)
		if next.Minute()%m != 0 || next.Second() != 0 || !next.After(from) || next.Sub(from) > time.Duration(m)*time.Minute {
			t.Fatalf("rearm %dm: next after %s is %s", m, from, next)
		}
	}
	o := options("defaults", fs, "k")
	o.Batch = 0
	c := consumer.MustNew(o)
	if c.Supervisor().Name() != "defaults.supervisor" || c.Supervisor().Cron() != "* * * * *" || c.Supervisor().Zone().String() != "UTC" {
		t.Fatalf("supervisor %s %q %s", c.Supervisor().Name(), c.Supervisor().Cron(), c.Supervisor().Zone())
	}
	var names []string
	for _, j := range c.Jobs() {
		m := j.Describe()
		names = append(names, m.Name+"@"+m.Queue)
	}
	if strings.Join(names, ",") != "defaults@defaults,defaults.arm@default" {
		t.Fatalf("jobs %v", names)
	}
}

// A key that cannot be a run's is X_CONSUMER_KEY_INVALID, before anything
// is queued.
func TestKeyRules(t *testing.T) {
	c := consumer.MustNew(options("keyed", &feeds{}, "k"))
	for _, key := range []string{"", strings.Repeat("k", consumer.MaxKeyLen+1)} {
		if _, err := c.Enqueue(context.Background(), nil, key); !errors.Is(err, errcode.ConsumerKeyInvalid) {
			t.Fatalf("Enqueue of a %d-character key: %v", len(key), err)
		}
	}
}
