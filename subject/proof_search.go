package subject

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/errcode"
)

// snapshot keeps the text of every bystander row, to compare after.
func (s *seeder) snapshot(ctx context.Context, p *people) error {
	for _, n := range s.order {
		for _, row := range p.rows[n] {
			text, err := s.rowText(ctx, n.t, row.ctid)
			if err != nil {
				return err
			}
			row.text = text
		}
	}
	return nil
}

// rowText answers the text of the row at ctid, or "" when none is there.
func (s *seeder) rowText(ctx context.Context, t *table, ctid string) (string, error) {
	var text string
	err := s.tx.QueryRow(ctx, "select t::text from "+t.ident()+" t where t.ctid = $1::tid", ctid).Scan(&text)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	return text, err
}

// search looks for the person after the erase: their canary in every
// column of every reached table not retained (every table, Everywhere),
// their rows left in deleted tables; and for any bystander row changed.
func (s *seeder) search(ctx context.Context, person, bystander *people, objs []seededObject) (*ProofReport, error) {
	rep := &ProofReport{Root: s.g.root.t.Name}
	var found []string
	tables, err := s.searchTables(ctx)
	if err != nil {
		return nil, err
	}
	for _, t := range tables {
		cols, err := s.canaryColumns(ctx, t, person.token)
		if err != nil {
			return nil, err
		}
		for _, c := range cols {
			found = append(found, "the person's canary is still in "+t.Name+"."+c)
		}
	}
	rep.Searched = len(tables)
	for _, n := range s.order {
		if n.kind != kindDelete {
			continue
		}
		left, err := s.rowsLeft(ctx, n, person)
		if err != nil {
			return nil, err
		}
		if left > 0 {
			found = append(found, itoa(int64(left))+" of the person's rows are still in "+n.t.Name)
		}
	}
	found = append(found, s.objectsLeft(ctx, objs)...)
	if len(found) > 0 {
		return nil, incomplete(rep.Root, found)
	}
	if err := s.bystanderTouched(ctx, bystander, objs); err != nil {
		return nil, err
	}
	for _, n := range slices.Backward(s.order) {
		rep.Tables = append(rep.Tables, *s.report[n])
	}
	rep.Objects = countPersons(objs)
	return rep, nil
}

// searchTables answers the tables searched: the reached ones not retained,
// or with Everywhere every table of the database but the retained ones.
func (s *seeder) searchTables(ctx context.Context) ([]*table, error) {
	var out []*table
	skip := map[uint32]bool{}
	for _, n := range s.g.nodes {
		if n.kind == kindRetain {
			skip[n.t.OID] = true
		} else if !s.o.Everywhere {
			out = append(out, n.t)
		}
	}
	if !s.o.Everywhere {
		return out, nil
	}
	rows, _ := s.tx.Query(ctx, sqlAllTables)
	oids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, err
	}
	var want []uint32
	for _, o := range oids {
		if !skip[uint32(o)] {
			want = append(want, uint32(o))
		}
	}
	tables, err := readTables(ctx, s.tx, want)
	for _, o := range want {
		if t := tables[o]; t != nil && t.May.Select {
			out = append(out, t)
		}
	}
	return out, err
}

// canaryColumns answers the columns of t holding token: every column that
// can hold text, but those an anonymize of the table keeps.
func (s *seeder) canaryColumns(ctx context.Context, t *table, token string) ([]string, error) {
	var cols, exprs []string
	var keep map[string]string
	if n := s.g.byOID[t.OID]; n != nil {
		keep = n.treat.Keep
	}
	for _, c := range t.Columns {
		if _, kept := keep[c.Name]; canaryType(&c) && !kept {
			cols = append(cols, c.Name)
			exprs = append(exprs, "count(*) filter (where t."+quote(c.Name)+"::text like $1)")
		}
	}
	if len(cols) == 0 {
		return nil, nil
	}
	counts := make([]int64, len(cols))
	dest := make([]any, len(cols))
	for i := range counts {
		dest[i] = &counts[i]
	}
	sql := "select " + strings.Join(exprs, ", ") + " from " + t.ident() + " t"
	if err := s.tx.QueryRow(ctx, sql, "%"+token+"%").Scan(dest...); err != nil {
		return nil, err
	}
	var out []string
	for i, n := range counts {
		if n > 0 {
			out = append(out, cols[i])
		}
	}
	return out, nil
}

// rowsLeft counts the person's seeded rows of a deleted table still
// stored, by their primary key (or ctid).
func (s *seeder) rowsLeft(ctx context.Context, n *node, p *people) (int, error) {
	left := 0
	for _, row := range p.rows[n] {
		var sql string
		var args []any
		if usesCTID(n) {
			sql, args = "select count(*) from "+n.t.ident()+" t where t.ctid = $1::tid", []any{row.ctid}
		} else {
			id := rowID(n)
			params := make([]string, len(id))
			for i, c := range id {
				args = append(args, row.vals[c])
				params[i] = "$" + itoa(int64(i+1)) + "::text::" + n.t.column(c).Base
			}
			sql = "select count(*) from " + n.t.ident() + " t where (" + colList("t", id) + ") = (" + strings.Join(params, ", ") + ")"
		}
		var c int
		if err := s.tx.QueryRow(ctx, sql, args...).Scan(&c); err != nil {
			return 0, err
		}
		left += c
	}
	return left, nil
}

// bystanderTouched refuses a bystander row changed or removed, naming the
// tables; and a bystander object removed.
func (s *seeder) bystanderTouched(ctx context.Context, p *people, objs []seededObject) error {
	var touched []string
	for _, n := range s.order {
		for _, row := range p.rows[n] {
			text, err := s.rowText(ctx, n.t, row.ctid)
			if err != nil {
				return err
			}
			if text != row.text && !slices.Contains(touched, n.t.Name) {
				touched = append(touched, n.t.Name)
			}
		}
	}
	for _, o := range objs {
		if o.bystander && !s.objectThere(ctx, o) {
			touched = append(touched, "objects "+o.name)
		}
	}
	if len(touched) == 0 {
		return nil
	}
	return errcode.New(errcode.SubjectBystanderTouched, "subject %s: the erase changed or removed another person's rows in %s", s.g.root.t.Name, strings.Join(touched, ", ")).
		WithFix("the walk reached them through a key that is not the person's: look at the plan's paths, and anonymize or retain the table that leads there")
}

// seededObject is one canary object the proof wrote.
type seededObject struct {
	name, bucket, key string
	bystander, retain bool
}

// seedObjects writes one canary object under each declared prefix for the
// person and for the bystander.
func (s *seeder) seedObjects(ctx context.Context, person, bystander *people) ([]seededObject, error) {
	var out []seededObject
	for _, o := range s.g.decl.Objects {
		for _, p := range []*people{person, bystander} {
			key, err := objectKey(o, s.g.key, p.key)
			if err != nil {
				return out, err
			}
			if strings.HasSuffix(key, "/") {
				key += "canary-" + p.token
			}
			so := seededObject{name: o.Name, bucket: o.Bucket, key: key, bystander: p == bystander, retain: o.Retain != ""}
			if err := writeObject(ctx, so, p.token); err != nil {
				return out, err
			}
			out = append(out, so)
		}
	}
	return out, nil
}

func writeObject(ctx context.Context, o seededObject, data string) error {
	b, err := blob.Open(ctx, o.bucket)
	if err != nil {
		return err
	}
	defer b.Close()
	return b.WriteBytes(ctx, o.key, []byte(data), blob.WriteOptions{ContentType: "text/plain"})
}

func (s *seeder) objectThere(ctx context.Context, o seededObject) bool {
	b, err := blob.Open(ctx, o.bucket)
	if err != nil {
		return false
	}
	defer b.Close()
	ok, err := b.Exists(ctx, o.key)
	return ok && err == nil
}

// objectsLeft names the person's objects not retained that are still
// stored.
func (s *seeder) objectsLeft(ctx context.Context, objs []seededObject) []string {
	var out []string
	for _, o := range objs {
		if !o.bystander && !o.retain && s.objectThere(ctx, o) {
			out = append(out, "the person's object of "+o.name+" is still stored")
		}
	}
	return out
}

// removeObjects deletes every canary object left.
func (s *seeder) removeObjects(ctx context.Context, objs []seededObject) {
	for _, o := range objs {
		if b, err := blob.Open(ctx, o.bucket); err == nil {
			_ = b.Delete(ctx, o.key)
			_ = b.Close()
		}
	}
}

func countPersons(objs []seededObject) int {
	n := 0
	for _, o := range objs {
		if !o.bystander {
			n++
		}
	}
	return n
}
