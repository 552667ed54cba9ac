package exportrows

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/errcode"
)

// plan is what a run settles before its first page, stored as the "plan"
// step so that every attempt reads and writes alike: the columns with their
// types, the ordering key, the output settings, the run's directory and
// the start time (the database clock).
type plan struct {
	Name    string    `json:"name"`
	Query   bool      `json:"query,omitempty"`
	Columns []colType `json:"columns"`
	Hidden  []colType `json:"hidden,omitempty"` // key columns read, not exported
	Key     []string  `json:"key"`
	// Snapshot: the run reads the table in storage order, Blocks blocks a
	// page, in one snapshot per attempt (see [Snapshot]).
	Snapshot bool      `json:"snapshot,omitempty"`
	Blocks   int64     `json:"blocks,omitempty"`
	OID      uint32    `json:"oid,omitempty"`
	Settings Settings  `json:"settings"`
	Dir      string    `json:"dir"`
	Started  time.Time `json:"started"`
}

// colType is one column read: its name and type as the server answers them.
type colType struct {
	Name string `json:"name"`
	Type string `json:"type"` // with modifiers: numeric(10,2)
	Base string `json:"base"` // without: numeric, for casts
	OID  uint32 `json:"oid"`
	Mod  int32  `json:"mod"`
	Elem uint32 `json:"elem,omitempty"` // an array's element type
}

// makePlan reads the source's columns and key and settles the plan.
func (a *attempt[In]) makePlan(ctx context.Context, tx pgx.Tx) (plan, error) {
	p := plan{Name: a.src.label(), Query: a.src.Query != "", Key: a.src.Key, Snapshot: a.src.snapshot(), Settings: a.set, Dir: a.dir}
	if err := tx.QueryRow(ctx, sqlNow).Scan(&p.Started); err != nil {
		return p, err
	}
	var types []colType
	var err error
	if p.Query {
		types, err = a.queryColumns(ctx, tx, &p)
	} else {
		types, err = a.tableColumns(ctx, tx, &p)
	}
	if err != nil {
		return p, err
	}
	exported := namesOf(p.Columns)
	for _, t := range types {
		if slices.Contains(p.Key, t.Name) && !slices.Contains(exported, t.Name) {
			p.Hidden = append(p.Hidden, t)
		}
	}
	return p, checkKeyTypes(p)
}

// tableColumns settles the table's exported columns and key.
func (a *attempt[In]) tableColumns(ctx context.Context, tx pgx.Tx, p *plan) ([]colType, error) {
	t, err := readTable(ctx, tx, a.src)
	if err != nil {
		return nil, err
	}
	names, err := chooseColumns(a.asked(), t.Columns, a.ex.o.Sealed, p.Name)
	if err != nil {
		return nil, err
	}
	if p.Snapshot {
		if err := a.snapshotPlan(ctx, tx, t, p); err != nil {
			return nil, err
		}
	} else if err := a.tableKey(t, p); err != nil {
		return nil, err
	}
	read := append(slices.Clone(names), without(p.Key, names)...)
	sql := "select " + quoteAll(read) + " from " + a.src.from() + whereOf(a.src) + " limit 0"
	fds, err := probe(ctx, tx, p.Name, sql, a.src.Args)
	if err != nil {
		return nil, err
	}
	types, err := typesOf(ctx, tx, fds)
	if err == nil {
		p.Columns = types[:len(names)]
	}
	return types, err
}

// tableKey settles the table's key: the declared one, else the primary
// key; one the table can page by, of columns that are not sealed.
func (a *attempt[In]) tableKey(t *table, p *plan) error {
	if len(p.Key) == 0 {
		p.Key = t.Primary
	}
	if err := t.checkKey(p.Key, len(a.src.Key) > 0, p.Name); err != nil {
		return err
	}
	return a.checkSealedKey(p.Key)
}

// queryColumns settles the query's exported columns; its key is declared.
func (a *attempt[In]) queryColumns(ctx context.Context, tx pgx.Tx, p *plan) ([]colType, error) {
	fds, err := probe(ctx, tx, p.Name, "select * from "+a.src.from()+" limit 0", a.src.Args)
	if err != nil {
		return nil, err
	}
	types, err := typesOf(ctx, tx, fds)
	if err != nil {
		return nil, err
	}
	avail := namesOf(types)
	for i, n := range avail {
		if slices.Contains(avail[:i], n) {
			return nil, errcode.New(errcode.ExportSourceInvalid, "export %s: the query answers two columns named %s", p.Name, n).
				WithFix("give every column of the query its own name (AS)")
		}
	}
	names, err := chooseColumns(a.asked(), avail, a.ex.o.Sealed, p.Name)
	if err != nil {
		return nil, err
	}
	if unknown := without(p.Key, avail); len(unknown) > 0 {
		return nil, keyErr("export %s: the key column %s is not a column of the query", p.Name, unknown[0])
	}
	for _, n := range names {
		p.Columns = append(p.Columns, types[slices.Index(avail, n)])
	}
	return types, a.checkSealedKey(p.Key)
}

// asked answers the columns the run asks for: the source's, else the
// declared ones, else nil for all.
func (a *attempt[In]) asked() []string {
	if a.src.Columns != nil {
		return a.src.Columns
	}
	return a.ex.o.Columns
}

func (a *attempt[In]) checkSealedKey(key []string) error {
	for _, k := range key {
		if slices.Contains(a.ex.o.Sealed, k) {
			return errcode.New(errcode.ExportColumnSealed, "export %s: the key column %s is sealed", a.src.label(), k).
				WithFix("order the export by a key of columns that are not sealed: the checkpoint keeps the key's values")
		}
	}
	return nil
}

// chooseColumns answers the exported columns: those asked for, each known
// and not sealed, or every available column but the sealed ones.
func chooseColumns(asked, avail, sealed []string, label string) ([]string, error) {
	if asked == nil {
		asked = without(avail, sealed)
	} else if unknown := without(asked, avail); len(unknown) > 0 {
		return nil, errcode.New(errcode.ExportSourceInvalid, "export %s: no column %s", label, strings.Join(unknown, ", ")).
			WithFix("ask for columns the source has")
	}
	for _, c := range asked {
		if slices.Contains(sealed, c) {
			return nil, errcode.New(errcode.ExportColumnSealed, "export %s: column %s is sealed", label, c).
				WithFix("leave sealed columns out: they are never exported")
		}
	}
	if len(asked) == 0 {
		return nil, errcode.New(errcode.ExportSourceInvalid, "export %s: no column is left to export", label).
			WithFix("ask for at least one column that is not sealed")
	}
	return asked, nil
}

// without answers the names of a not in b, in a's order.
func without(a, b []string) []string {
	var out []string
	for _, n := range a {
		if !slices.Contains(b, n) {
			out = append(out, n)
		}
	}
	return out
}

func namesOf(cols []colType) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.Name
	}
	return out
}
