package rollup

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/internal/pgcatalog"
	"github.com/pipekit/pipe/pg"
)

// declaration is a checked rollup: the options with the zone loaded and
// the names split.
type declaration[In any] struct {
	o     Options[In]
	loc   *time.Location
	into  pg.Relation
	src   pg.Relation // the SQL source's table; zero for Points
	stmt  string      // the SQL source's statement; "" for Points
	dated string      // the statement for a bucket column of type date; "" below a day
	lockK string      // the advisory lock's key: one upsert of a rollup at a time
}

// check names every fault of o in one X_JOB_ROLLUP_INVALID.
func check[In any](o Options[In]) (*declaration[In], error) {
	d := &declaration[In]{o: o, lockK: "pipe.rollup:" + o.Name}
	var f faults
	f.add(strings.TrimSpace(o.Name) == "", "Name is empty")
	d.into = f.relation("Into", o.Into)
	f.names("Key", o.Key)
	d.loc = f.bucket(o.Bucket, o.Key)
	f.add(o.Lookback == 0, "Lookback is missing: say how late a row may arrive and still count")
	f.add(o.Lookback < 0, "Lookback is negative")
	switch {
	case o.Source == nil && o.Points == nil:
		f.add(true, "neither Source nor Points is given: declare where the rows come from")
	case o.Source != nil && o.Points != nil:
		f.add(true, "both Source and Points are given: declare one")
	case o.Source != nil:
		d.src = f.source(*o.Source, o.Key, o.Bucket.Column)
	}
	if err := f.err(o.Name); err != nil {
		return nil, err
	}
	if o.Source != nil {
		d.stmt = statement(d.into, d.src, *o.Source, o.Bucket, false)
		if o.Bucket.Unit.Daily() {
			d.dated = statement(d.into, d.src, *o.Source, o.Bucket, true)
		}
	}
	return d, nil
}

// faults collects what is wrong with a declaration.
type faults []string

func (f *faults) add(cond bool, fault string) {
	if cond {
		*f = append(*f, fault)
	}
}

func (f faults) err(name string) error {
	if len(f) == 0 {
		return nil
	}
	label := name
	if strings.TrimSpace(label) == "" {
		label = "(unnamed)"
	}
	return errcode.New(errcode.JobRollupInvalid, "rollup %s: %s", label, strings.Join(f, "; ")).
		WithFix("correct the rollup's declaration: " + strings.Join(f, "; "))
}

// names refuses an empty list, blank and repeated names.
func (f *faults) names(field string, names []string) {
	f.add(len(names) == 0, field+" names no column")
	seen := map[string]bool{}
	for _, n := range names {
		f.add(strings.TrimSpace(n) == "", field+" has a blank column name")
		f.add(n != "" && seen[n], field+" names "+n+" twice")
		seen[n] = true
	}
}

// relation refuses an empty relation, and one PostgreSQL would not name
// as given.
func (f *faults) relation(field string, r pg.Relation) pg.Relation {
	if r.IsZero() {
		f.add(true, field+" is empty: name the table")
	} else if err := r.Check(); err != nil {
		f.add(true, field+": "+pgcatalog.Fault(err))
	}
	return r
}

// bucket checks the unit, loads the zone and checks the column.
func (f *faults) bucket(b Bucket, key []string) *time.Location {
	switch {
	case b.Unit == "":
		f.add(true, "Bucket.Unit is missing")
	case !b.Unit.Valid():
		f.add(true, fmt.Sprintf("Bucket.Unit %q is not minute, hour, day, week, month, quarter or year", string(b.Unit)))
	}
	loc, fault := LoadZone(b.Zone)
	f.add(fault != "", "Bucket.Zone: "+fault)
	f.add(strings.TrimSpace(b.Column) == "", "Bucket.Column is empty: name the target column that holds the bucket")
	f.add(b.Column != "" && !slices.Contains(key, b.Column), "Bucket.Column "+b.Column+" is not one of the Key's columns")
	return loc
}

// source checks the SQL source against the key.
func (f *faults) source(s Source, key []string, bucketCol string) pg.Relation {
	r := f.relation("Source.Table", s.Table)
	f.add(strings.TrimSpace(s.Time) == "", "Source.Time is empty: name the table's timestamptz column")
	for _, g := range s.GroupBy {
		f.add(strings.TrimSpace(g) == "", "Source.GroupBy has a blank column name")
	}
	want := append(slices.Clone(s.GroupBy), bucketCol)
	f.add(!sameSet(want, key), "Key must be the Source.GroupBy columns and Bucket.Column, no more and no fewer")
	f.add(len(s.Aggregates) == 0, "Source.Aggregates is empty: declare at least one value")
	into := map[string]bool{}
	for i, a := range s.Aggregates {
		at := fmt.Sprintf("Source.Aggregates[%d]", i)
		f.add(!slices.Contains(Funcs(), a.Func), fmt.Sprintf("%s.Func %q is not count, sum, min, max or avg", at, string(a.Func)))
		f.add(a.Column == "" && a.Func != Count && a.Func != "", at+".Column is empty: only count counts rows")
		f.add(strings.TrimSpace(a.Into) == "", at+".Into is empty: name the target column")
		f.add(a.Into != "" && into[a.Into], at+".Into "+a.Into+" is written twice")
		f.add(slices.Contains(key, a.Into), at+".Into "+a.Into+" is a Key column")
		f.add(a.Into == rowsAlias, at+".Into "+rowsAlias+" is the name pipe counts rows under")
		into[a.Into] = true
	}
	return r
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(slices.Compact(a), slices.Compact(b)) && len(a) == len(b)
}

// LoadZone loads an IANA zone and answers a fault, or "" when it loads.
// The empty name and Local (the host's zone) are refused: a bucket must not
// depend on the machine that runs it.
func LoadZone(name string) (*time.Location, string) {
	switch strings.TrimSpace(name) {
	case "":
		return nil, "the zone is empty (name an IANA zone such as UTC or Europe/Berlin)"
	case "Local":
		return nil, "the zone Local depends on the host: name an IANA zone"
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Sprintf("the zone %q is not a known IANA zone", name)
	}
	return loc, ""
}
