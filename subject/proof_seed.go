package subject

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pipekit/pipe/errcode"
)

// seeder seeds the proof's rows in its transaction.
type seeder struct {
	g       *graph
	tx      pgx.Tx
	o       ProofOptions
	seq     int
	order   []*node // parents first
	report  map[*node]*ProofTable
	fillers map[uint32]map[string]string // a row of a table outside the reach, per table
}

// seededRow is one row the proof inserted: where it is, and the text of
// each of its columns.
type seededRow struct {
	ctid string
	vals map[string]string
	text string // the whole row's text after seeding (bystander rows)
}

// people are one generated person's rows.
type people struct {
	who   string
	token string
	key   []string
	rows  map[*node][]*seededRow
}

func newSeeder(g *graph, tx pgx.Tx, o ProofOptions) *seeder {
	s := &seeder{g: g, tx: tx, o: o, report: map[*node]*ProofTable{}, fillers: map[uint32]map[string]string{}}
	order := g.eraseOrder()
	slices.Reverse(order)
	s.order = order
	for _, n := range order {
		s.report[n] = &ProofTable{Table: n.t.Name, Treatment: string(n.kind)}
	}
	return s
}

// seedPerson inserts a root row and Rows rows in every other reached
// table, parents first, then points the cleared keys of loops at the
// person's own rows, so the erase has them to clear.
func (s *seeder) seedPerson(ctx context.Context, who string) (*people, error) {
	p := &people{who: who, token: token(), rows: map[*node][]*seededRow{}}
	for _, n := range s.order {
		count := s.o.Rows
		if n.root {
			count = 1
		}
		seen := map[string]bool{}
		for i := range count {
			set, err := s.assigned(ctx, n, p, i)
			if err != nil {
				return nil, err
			}
			if sig := uniqueSignature(n.t, set); sig != "" && seen[sig] {
				break // a unique key made of assigned columns (a one-to-one table) holds one row per parent
			} else if sig != "" {
				seen[sig] = true
			}
			row, err := s.insertRow(ctx, n, p, set)
			if err != nil {
				return nil, err
			}
			p.rows[n] = append(p.rows[n], row)
		}
		s.report[n].Rows = len(p.rows[n])
		if n.root {
			for _, c := range s.g.key {
				p.key = append(p.key, p.rows[n][0].vals[c])
			}
		}
	}
	return p, s.pointLoops(ctx, p)
}

// uniqueSignature answers the values set gives the columns of t's unique
// indexes made only of columns set decides, or "" when there is none.
func uniqueSignature(t *table, set map[string]*string) string {
	var sig []string
	for _, u := range t.Uniques {
		if !allSet(set, u) {
			continue
		}
		for _, c := range u {
			if v := set[c]; v != nil {
				sig = append(sig, c+"="+*v)
			}
		}
		sig = append(sig, "|")
	}
	return strings.Join(sig, ",")
}

// insertRow inserts a row of n with the columns set decides and the others
// generated for p, and reads it back.
func (s *seeder) insertRow(ctx context.Context, n *node, p *people, set map[string]*string) (*seededRow, error) {
	var cols, exprs []string
	var args []any
	for _, c := range n.t.Columns {
		expr, arg, ok, err := s.value(n, &c, p, set)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		cols = append(cols, quote(c.Name))
		if arg != nil {
			args = append(args, *arg)
			expr = strings.ReplaceAll(expr, "$?", "$"+itoa(int64(len(args))))
		}
		exprs = append(exprs, expr)
	}
	sql := "insert into " + n.t.ident() + " as t "
	if len(cols) == 0 {
		sql += "default values"
	} else {
		sql += "(" + strings.Join(cols, ", ") + ") values (" + strings.Join(exprs, ", ") + ")"
	}
	return s.readBack(ctx, n.t, sql+" returning "+s.returning(n.t), args)
}

// returning answers the RETURNING list: the ctid, then every column as
// text.
func (s *seeder) returning(t *table) string {
	out := []string{"t.ctid::text"}
	for _, c := range t.Columns {
		out = append(out, "t."+quote(c.Name)+"::text")
	}
	return strings.Join(out, ", ")
}

// readBack runs an insert or update returning s.returning(t).
func (s *seeder) readBack(ctx context.Context, t *table, sql string, args []any) (*seededRow, error) {
	vals := make([]*string, len(t.Columns)+1)
	dest := make([]any, len(vals))
	for i := range vals {
		dest[i] = &vals[i]
	}
	if err := s.tx.QueryRow(ctx, sql, args...).Scan(dest...); err != nil {
		return nil, unseedable(t, err)
	}
	row := &seededRow{ctid: *vals[0], vals: map[string]string{}}
	for i, c := range t.Columns {
		if v := vals[i+1]; v != nil {
			row.vals[c.Name] = *v
		}
	}
	return row, nil
}

// assigned answers the columns of row i of n that keys decide: a followed
// key takes the person's row of its parent, a declared Columns entry the
// person's key, and any other key a row it can reference.
func (s *seeder) assigned(ctx context.Context, n *node, p *people, i int) (map[string]*string, error) {
	set := map[string]*string{}
	for _, fk := range n.via {
		parent := s.g.parentOf(fk)
		switch {
		case slices.Contains(n.detach, fk) || n.root:
			for _, c := range fk.ChildCols {
				if _, ok := set[c]; !ok {
					set[c] = nil // pointed at after (loops), or left null (other people's root rows)
				}
			}
		case fk.Virtual:
			for j, c := range fk.ChildCols {
				set[c] = &p.key[slices.Index(s.g.key, fk.ParentCols[j])]
			}
		default:
			rows := p.rows[parent]
			s.take(set, fk, rows[i%len(rows)].vals)
		}
	}
	for _, fk := range s.g.fks {
		if fk.Child != n.t.OID || slices.Contains(n.via, fk) || fk.Virtual || allSet(set, fk.ChildCols) {
			continue
		}
		if err := s.otherKey(ctx, n, fk, p, i, set); err != nil {
			return nil, err
		}
	}
	return set, nil
}

// otherKey fills the columns of a key the walk does not follow: the
// person's row of a table already seeded, else NULL when the key allows,
// else an existing row, else a filler row made for the purpose.
func (s *seeder) otherKey(ctx context.Context, n *node, fk *foreignKey, p *people, i int, set map[string]*string) error {
	if parent := s.g.byOID[fk.Parent]; parent != nil && len(p.rows[parent]) > 0 {
		rows := p.rows[parent]
		s.take(set, fk, rows[i%len(rows)].vals)
		return nil
	}
	if s.g.clearable(fk) {
		return nil
	}
	vals, err := s.filler(ctx, fk.Parent, 0)
	if err != nil {
		return err
	}
	s.take(set, fk, vals)
	return nil
}

func (s *seeder) take(set map[string]*string, fk *foreignKey, vals map[string]string) {
	for j, c := range fk.ChildCols {
		if v, ok := vals[fk.ParentCols[j]]; ok {
			set[c] = &v
		}
	}
}

func allSet(set map[string]*string, cols []string) bool {
	for _, c := range cols {
		if _, ok := set[c]; !ok {
			return false
		}
	}
	return true
}

// pointLoops points each cleared key of a loop at the person's own rows of
// the table it references, so that the erase's clear has work to do.
func (s *seeder) pointLoops(ctx context.Context, p *people) error {
	for _, n := range s.order {
		for _, fk := range n.detach {
			if n.root || fk.setNullByDatabase() && !s.g.clearable(fk) {
				continue
			}
			parent := p.rows[s.g.parentOf(fk)]
			for i, row := range p.rows[n] {
				if err := s.point(ctx, n, fk, row, parent[(i+1)%len(parent)]); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (s *seeder) point(ctx context.Context, n *node, fk *foreignKey, row, parent *seededRow) error {
	var sets []string
	args := []any{row.ctid}
	for j, c := range fk.ChildCols {
		args = append(args, parent.vals[fk.ParentCols[j]])
		sets = append(sets, quote(c)+" = $"+itoa(int64(len(args)))+"::text::"+n.t.column(c).Base)
	}
	sql := "update " + n.t.ident() + " as t set " + strings.Join(sets, ", ") + " where t.ctid = $1::tid returning " + s.returning(n.t)
	next, err := s.readBack(ctx, n.t, sql, args)
	if err != nil {
		return err
	}
	*row = *next
	return nil
}

// filler answers a row of a table outside the reach for a key to
// reference: an existing one, else one inserted for the purpose.
func (s *seeder) filler(ctx context.Context, oid uint32, depth int) (map[string]string, error) {
	if vals := s.fillers[oid]; vals != nil {
		return vals, nil
	}
	tables, err := readTables(ctx, s.tx, []uint32{oid})
	if err != nil {
		return nil, err
	}
	t := tables[oid]
	if t == nil || depth > 4 {
		return nil, errcode.New(errcode.SubjectProofUnseedable, "subject proof: no row can be made for a key to reference").
			WithFix("give the referencing column a value in the proof's values")
	}
	row, err := s.readBack(ctx, t, "select "+s.returning(t)+" from "+t.ident()+" t limit 1", nil)
	if err != nil && errcode.CodeOf(err) != errcode.SubjectProofUnseedable {
		return nil, err
	}
	if row == nil {
		if row, err = s.insertFiller(ctx, t, depth); err != nil {
			return nil, err
		}
	}
	s.fillers[oid] = row.vals
	return row.vals, nil
}

// insertFiller inserts a generated row into t, outside the reach.
func (s *seeder) insertFiller(ctx context.Context, t *table, depth int) (*seededRow, error) {
	n := &node{t: t}
	p := &people{who: "filler", token: token(), rows: map[*node][]*seededRow{}}
	set := map[string]*string{}
	for _, fk := range s.g.fks {
		if fk.Child != t.OID || fk.Virtual || s.g.clearableIn(t, fk) {
			continue
		}
		vals, err := s.filler(ctx, fk.Parent, depth+1)
		if err != nil {
			return nil, err
		}
		s.take(set, fk, vals)
	}
	return s.insertRow(ctx, n, p, set)
}

// clearableIn is clearable for a table outside the reach.
func (g *graph) clearableIn(t *table, fk *foreignKey) bool {
	for _, c := range fk.ChildCols {
		if col := t.column(c); col != nil && !col.NotNull {
			return true
		}
	}
	return false
}

// unseedable codes a refused insert: the table, the SQLSTATE and the
// constraint or column the server names (names, never values).
func unseedable(t *table, err error) error {
	var pg *pgconn.PgError
	if !errors.As(err, &pg) {
		if errors.Is(err, pgx.ErrNoRows) {
			return errcode.New(errcode.SubjectProofUnseedable, "subject proof: table %s has no row", t.Name)
		}
		return err
	}
	return errcode.Wrap(err, errcode.SubjectProofUnseedable, "subject proof: table %s refused the generated row (%s)", t.Name, errcode.ServerDetail(pg)).
		WithFix("give the refused columns values in the proof's values (ProofOptions.Values, or \"proof\": {\"values\": ...} in the file)")
}
