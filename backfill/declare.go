package backfill

import (
	"strings"

	"github.com/pipekit/pipe/errcode"
)

func invalid(name, format string, args ...any) *errcode.Error {
	return errcode.New(errcode.BackfillInvalid, "backfill "+label(name)+": "+format, args...).
		WithFix("correct the pass's declaration as the message says")
}

func label(name string) string {
	if strings.TrimSpace(name) == "" {
		return "(unnamed)"
	}
	return name
}

// withDefaults fills the defaults of o, or names every fault of the
// declaration in one X_BACKFILL_INVALID.
func (o Options[In]) withDefaults(name string) (Options[In], error) {
	if f := o.faults(); len(f) > 0 {
		return o, invalid(name, "%s", strings.Join(f, "; "))
	}
	o.Target = orDefault(o.Target, DefaultTarget)
	o.Batch = orDefault(o.Batch, DefaultBatch)
	o.MinBatch = orDefault(o.MinBatch, DefaultMinBatch)
	o.MaxBatch = orDefault(o.MaxBatch, DefaultMaxBatch)
	o.Batch = min(max(o.Batch, o.MinBatch), o.MaxBatch)
	o.LockTimeout = orDefault(o.LockTimeout, DefaultLockTimeout)
	o.StatementTimeout = orDefault(o.StatementTimeout, DefaultStatementTimeout)
	o.Poll = orDefault(o.Poll, DefaultPoll)
	o.Health = o.Health.withDefaults()
	return o, nil
}

func (h Health) withDefaults() Health {
	h.ReplicationLag = orDefault(h.ReplicationLag, DefaultReplicationLag)
	h.TransactionAge = orDefault(h.TransactionAge, DefaultTransactionAge)
	h.XIDAge = orDefault(h.XIDAge, DefaultXIDAge)
	h.Every = orDefault(h.Every, DefaultHealthEvery)
	return h
}

func orDefault[T comparable](v, d T) T {
	var zero T
	if v == zero {
		return d
	}
	return v
}

func (o Options[In]) faults() []string {
	var f []string
	add := func(cond bool, fault string) {
		if cond {
			f = append(f, fault)
		}
	}
	add(o.Table.IsZero() == (strings.TrimSpace(o.Query) == ""), "declare exactly one of Table and Query")
	add(o.Query != "" && o.Key == "", "a Query needs its Key column declared")
	add((o.SQL == "") == (o.Handle == nil), "declare exactly one of SQL and Handle")
	add(o.Args != nil && o.SQL == "", "Args are the values of SQL's parameters and there is no SQL")
	add(o.Columns != nil && o.Handle == nil, "Columns are what a Handle is handed and there is no Handle")
	add(o.Target < 0, "Target is negative")
	add(o.Batch < 0 || o.MinBatch < 0 || o.MaxBatch < 0, "a batch size is negative")
	add(o.MinBatch > 0 && o.MaxBatch > 0 && o.MinBatch > o.MaxBatch, "MinBatch is above MaxBatch")
	add(o.Rate < 0, "Rate is negative")
	add(o.LockTimeout < 0 || o.StatementTimeout < 0 || o.Poll < 0, "a timeout is negative")
	if o.SQL != "" {
		if fault := statementFault(o.SQL); fault != "" {
			f = append(f, fault)
		}
	}
	return f
}
