package subject

import (
	"context"
	"io"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/blob"
)

// Target holds a person's data outside the declared tables and objects: a
// search index, a cache, another service's records, objects whose keys a
// table lists rather than a prefix builds ([ObjectsOf]), an audit trail
// whose rows are rewritten rather than deleted. An erase calls Erase and
// an export calls Export, each once as one step of the run, in the step's
// transaction: what the target writes through [Person].Tx commits with
// the step's checkpoint, exactly once. What it does elsewhere is done
// again when a killed attempt replays the step, so both must be safe to
// repeat — data already gone counts as erased, a file written again
// replaces the first.
//
// The erase calls targets after the objects and before any table, so a
// target can still read the person's rows.
type Target interface {
	// Erase erases (or rewrites) the person's data the target holds and
	// answers how many items it changed.
	Erase(ctx context.Context, p Person) (int64, error)
	// Export writes the person's data the target holds into the export,
	// through out: files under targets/<name>/.
	Export(ctx context.Context, p Person, out *TargetOut) error
}

// Targets is one Target of a declaration, named. Declaration.Targets lists
// them; they are Go values, absent from a declaration's JSON form.
type Targets struct {
	// Name names the target in the plan, the export (targets/<name>/) and
	// errors: a key segment, no "/". Required.
	Name string
	// Target is the target. Required.
	Target Target
	// Retain, when set, keeps the target's data on erase (it is still
	// exported) and says why. Default: the erase calls Erase.
	Retain string
}

// Person is the person a Target is called for.
type Person struct {
	// Root is the root table; Columns its key columns and Values the
	// person's key values as text, in the same order.
	Root    string
	Columns []string
	Values  []string
	// Tx is the step's transaction: reads see the person's rows (the
	// erase has not reached the tables yet), and writes commit with the
	// step. Never commit or roll it back.
	Tx pgx.Tx
}

// Value answers the person's key value of column, or "" when column is
// not a key column.
func (p Person) Value(column string) string {
	if i := slices.Index(p.Columns, column); i >= 0 {
		return p.Values[i]
	}
	return ""
}

// TargetOut is where a Target's Export writes: files under the export
// run's targets/<name>/ directory, each one recorded in the index.
type TargetOut struct {
	bucket *blob.Bucket
	dir    string
	keys   []string
	bytes  int64
}

// Write writes file, a key under the target's directory ("orders.ndjson",
// "uploads/a.png"), with what fn writes to w. A file written again (a
// replayed step) replaces the first.
func (o *TargetOut) Write(ctx context.Context, file string, fn func(w io.Writer) error) error {
	key, err := blob.JoinKey(o.dir, file)
	if err != nil {
		return err
	}
	cw := &countingWriter{}
	err = o.bucket.Write(ctx, key, blob.WriteOptions{}, func(w io.Writer) error {
		cw.w = w
		return fn(cw)
	})
	if err != nil {
		return err
	}
	if !slices.Contains(o.keys, key) {
		o.keys = append(o.keys, key)
	}
	o.bytes += cw.n
	return nil
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// targetsFaults names what is wrong with the declaration's targets.
func (d Declaration) targetsFaults() []string {
	var faults []string
	names := map[string]bool{}
	for i, t := range d.Targets {
		label := "targets " + itoa(int64(i))
		if t.Name != "" {
			label = "targets " + t.Name
		}
		switch {
		case strings.TrimSpace(t.Name) == "":
			faults = append(faults, label+": name is empty")
		case strings.ContainsAny(t.Name, "/\\") || blob.ValidateKey(t.Name) != nil:
			faults = append(faults, label+": the name is not one key segment (no '/', '..' or control characters)")
		case names[t.Name]:
			faults = append(faults, label+": the name is used twice")
		}
		names[t.Name] = true
		if t.Target == nil {
			faults = append(faults, label+": target is nil")
		}
		if t.Retain != "" && strings.TrimSpace(t.Retain) == "" {
			faults = append(faults, label+": retain is blank: say why the data is kept")
		}
	}
	return faults
}

// PlanTarget is one declared target in a plan.
type PlanTarget struct {
	Name   string `json:"name"`
	Retain string `json:"retain,omitempty"`
}

func planTargets(ts []Targets) []PlanTarget {
	var out []PlanTarget
	for _, t := range ts {
		out = append(out, PlanTarget{Name: t.Name, Retain: t.Retain})
	}
	return out
}
