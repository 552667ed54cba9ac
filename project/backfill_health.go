package project

import (
	"time"

	"github.com/pipekit/pipe/backfill"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// BackfillHealth is when a backfill pass waits for the database: before
// each batch, while a limit is passed, the pass waits and its ledger says
// why. A limit left out is its default; a duration written off, or an
// xidAge of -1, turns its check off.
type BackfillHealth struct {
	// ReplicationLag is the largest replay lag a replica streaming from the
	// server may have (pg_stat_replication's replay_lag, read on the
	// primary), such as 30s, or off. Default 10s.
	ReplicationLag string `json:"replicationLag,omitempty" jsonschema:"pattern=^(off|([0-9]+(ms|s|m|h|d|w))+)$"`
	// TransactionAge is how long a transaction of the pass's own database
	// may hold back vacuum, such as 5m, or off; another database's
	// transactions are not counted. Default 10m.
	TransactionAge string `json:"transactionAge,omitempty" jsonschema:"pattern=^(off|([0-9]+(ms|s|m|h|d|w))+)$"`
	// XIDAge is the largest age of the oldest database's frozen transaction
	// id, as wraparound nears (it is near 2147483648), or -1 for off.
	// Default 1000000000.
	XIDAge *int64 `json:"xidAge,omitempty" jsonschema:"minimum=-1"`
	// Every is how often the health is read, such as 5s. Default 1s.
	Every string `json:"every,omitempty" jsonschema:"pattern=^([0-9]+(ms|s|m|h|d|w))+$"`
}

// health answers the limits h declares as backfill.Health, and its faults,
// each opening with its key under health (health.every: ...). A nil h is
// every default.
func (h *BackfillHealth) health() (backfill.Health, []string) {
	if h == nil {
		return backfill.Health{}, nil
	}
	var faults []string
	out := backfill.Health{
		ReplicationLag: healthLimit("replicationLag", h.ReplicationLag, "30s", true, &faults),
		TransactionAge: healthLimit("transactionAge", h.TransactionAge, "5m", true, &faults),
		Every:          healthLimit("every", h.Every, "5s", false, &faults),
	}
	if h.XIDAge != nil {
		out.XIDAge = *h.XIDAge
		if out.XIDAge == 0 || out.XIDAge < -1 {
			faults = append(faults, "health.xidAge is neither above zero nor -1 (write an age such as 1000000000, or -1 to turn the check off)")
		}
	}
	return out, faults
}

// healthLimit reads the duration s of key, off answering -1 (the check
// off) when off is allowed; "" answers 0, the default. A duration that
// does not parse, or a zero one, is a fault; example shows how to write it.
func healthLimit(key, s, example string, off bool, faults *[]string) time.Duration {
	how := "write it as " + example
	if off {
		how += ", or off to turn the check off"
		if s == "off" {
			return -1
		}
	}
	if s == "" {
		return 0
	}
	d, err := pipeline.ParseDuration(s)
	switch {
	case err != nil:
		*faults = append(*faults, "health."+key+": "+errcode.CodeOf(err).Error()+" ("+how+")")
	case d == 0:
		*faults = append(*faults, "health."+key+" is zero ("+how+")")
	}
	return d
}
