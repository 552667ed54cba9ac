package project

import (
	"strings"
	"testing"
	"time"

	"github.com/pipekit/pipe/backfill"
)

// A file's health limits become backfill.Health as the Go API means them:
// a duration as written, off as a negative (the check off), an xidAge of
// -1 off, a limit left out zero (its default).
func TestAFilesHealthLimitsBecomeTheJobsHealth(t *testing.T) {
	age, off := int64(1_500_000_000), int64(-1)
	for _, c := range []struct {
		in   *BackfillHealth
		want backfill.Health
	}{
		{nil, backfill.Health{}},
		{&BackfillHealth{}, backfill.Health{}},
		{&BackfillHealth{ReplicationLag: "30s", TransactionAge: "1h30m", XIDAge: &age, Every: "250ms"},
			backfill.Health{ReplicationLag: 30 * time.Second, TransactionAge: 90 * time.Minute, XIDAge: 1_500_000_000, Every: 250 * time.Millisecond}},
		{&BackfillHealth{ReplicationLag: "off", TransactionAge: "off", XIDAge: &off},
			backfill.Health{ReplicationLag: -1, TransactionAge: -1, XIDAge: -1}},
		{&BackfillHealth{TransactionAge: "5m"}, backfill.Health{TransactionAge: 5 * time.Minute}},
	} {
		got, faults := c.in.health()
		if got != c.want || len(faults) > 0 {
			t.Errorf("%+v became %+v (%s); want %+v", c.in, got, strings.Join(faults, "; "), c.want)
		}
	}
}
