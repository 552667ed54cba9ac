package rollup_test

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/rollup"
)

// agreementZones are zones with whole-hour DST, half- and quarter-hour
// offsets, a 30-minute DST shift (Lord Howe) and DST at local midnight
// (Santiago, Havana: midnight is skipped on the spring-forward day).
var agreementZones = []string{
	"UTC", "America/New_York", "Europe/London", "Asia/Kolkata", "Asia/Kathmandu", "Australia/Adelaide",
	"Australia/Lord_Howe", "America/Santiago", "America/Havana", "Pacific/Chatham", "America/St_Johns",
}

// Go's Unit.Start and the SQL function the statements group by,
// pipe.bucket_start, answer the same instant for every unit and zone: on
// thousands of instants spread over ten years and packed around every DST
// transition of 2026.
func TestGoAndSQLBucketsAgree(t *testing.T) {
	tx := fixtures.Tx(t)
	ctx := context.Background()
	instants := sampleInstants()
	for _, zone := range agreementZones {
		loc := mustZone(t, zone)
		for _, u := range rollup.Units() {
			rows, err := tx.Query(ctx, `select pipe.bucket_start($1, ts, $2) from unnest($3::timestamptz[]) with ordinality as u(ts, n) order by n`,
				string(u), zone, instants)
			if err != nil {
				t.Fatal(err)
			}
			i, bad := 0, 0
			for rows.Next() {
				var got time.Time
				if err := rows.Scan(&got); err != nil {
					t.Fatal(err)
				}
				if want := u.Start(instants[i], loc); !want.Equal(got) && bad < 3 {
					bad++
					t.Errorf("%s %s of %s: SQL %s, Go %s", zone, u, instants[i].UTC(), got.UTC(), want.UTC())
				}
				i++
			}
			if rows.Err() != nil || i != len(instants) {
				t.Fatalf("%s %s: %d rows: %v", zone, u, i, rows.Err())
			}
		}
	}
}

// Start answers an instant at or before t whose bucket holds t, and Next
// the start of the following bucket, after t. The documented exception is
// an hour bucket in Australia/Lord_Howe, whose DST shift is 30 minutes: the
// hour after a transition is keyed at its wall-clock start at the new
// offset, half an hour before the transition.
func TestStartAndNextBracketTheInstant(t *testing.T) {
	for _, zone := range agreementZones {
		loc := mustZone(t, zone)
		for _, u := range rollup.Units() {
			if zone == "Australia/Lord_Howe" && u == rollup.Hour {
				continue
			}
			for _, ts := range sampleInstants() {
				s, n := u.Start(ts, loc), u.Next(ts, loc)
				if s.After(ts) || !n.After(ts) || !u.Start(s, loc).Equal(s) {
					t.Fatalf("%s %s of %s: start %s next %s", zone, u, ts.UTC(), s.UTC(), n.UTC())
				}
			}
		}
	}
}

// sampleInstants answers random instants over 2020-2029 and instants every
// 7 minutes 13 seconds through March, April, September, October and
// November 2026, where the sample zones change their clocks.
func sampleInstants() []time.Time {
	rnd := rand.New(rand.NewPCG(7, 7))
	var out []time.Time
	lo := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	hi := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	for range 2000 {
		out = append(out, time.UnixMicro(lo+rnd.Int64N(hi-lo)).UTC())
	}
	for _, m := range []time.Month{3, 4, 9, 10, 11} {
		for ts := time.Date(2026, m, 1, 0, 0, 0, 0, time.UTC); ts.Month() == m; ts = ts.Add(7*time.Minute + 13*time.Second) {
			out = append(out, ts)
		}
	}
	return out
}

// Go's bucketing of one instant, hour and day, in a zone with DST.
func BenchmarkUnitStart(b *testing.B) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		b.Fatal(err)
	}
	ts := time.Date(2026, 11, 1, 5, 30, 0, 0, time.UTC)
	for _, u := range []rollup.Unit{rollup.Hour, rollup.Day, rollup.Month} {
		b.Run(string(u), func(b *testing.B) {
			for b.Loop() {
				ts = u.Start(ts.Add(time.Minute), ny).Add(time.Hour)
			}
		})
	}
}
