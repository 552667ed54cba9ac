package importrows

import (
	"context"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/errcode"
)

// makePlan settles how the run reads its file; tx is nil without a table.
func (a *attempt[In]) makePlan(ctx context.Context, tx pgx.Tx) (plan, error) {
	var p plan
	var err error
	if p.Format, err = formatOf(a.src); err != nil {
		return p, err
	}
	attrs, err := a.bucket.Stat(ctx, a.src.Key)
	if err != nil {
		return p, err
	}
	p.Size, p.ETag = attrs.Size, attrs.ETag
	tg, err := a.target(ctx, tx)
	if err != nil {
		return p, err
	}
	if p.Settings, err = a.settings(ctx, tx); err != nil {
		return p, err
	}
	fileCols, err := a.fileColumns(ctx, &p, tg)
	if err != nil {
		return p, err
	}
	if err := a.settleColumns(&p, fileCols, tg); err != nil {
		return p, err
	}
	return p, nil
}

// settings resolves the run's settings against the database (tx is nil
// without a table: the declared ones are only checked).
func (a *attempt[In]) settings(ctx context.Context, tx pgx.Tx) (Settings, error) {
	if tx == nil {
		return a.src.Settings, a.src.Settings.check()
	}
	return resolveSettings(ctx, tx, a.src.Settings)
}

// target reads the table the run writes, if any.
func (a *attempt[In]) target(ctx context.Context, tx pgx.Tx) (*target, error) {
	if a.im.o.Into == nil {
		return nil, nil
	}
	return readTarget(ctx, tx, a.im.o.Into(a.run.Input))
}

// fileColumns answers the columns the file holds, in its order: the CSV
// header, the Parquet schema; for NDJSON the declared or the table's.
func (a *attempt[In]) fileColumns(ctx context.Context, p *plan, tg *target) ([]string, error) {
	switch p.Format {
	case Parquet:
		return a.parquetColumns(ctx, p)
	case NDJSON:
		if err := a.sniffText(ctx, p); err != nil {
			return nil, err
		}
		if d := a.declared(); d != nil {
			return d, nil
		}
		return tg.writable(), nil
	}
	if err := a.sniffText(ctx, p); err != nil {
		return nil, err
	}
	d, err := delimiterOf(a.src)
	if err != nil {
		return nil, err
	}
	p.Delimiter = string(rune(d))
	if p.Lenient, err = lenientOf(a.src); err != nil {
		return nil, err
	}
	if a.src.NoHeader {
		return a.headerless(ctx, p)
	}
	return a.readHeader(ctx, p)
}

func (a *attempt[In]) sniffText(ctx context.Context, p *plan) error {
	stream, comp, enc, err := sniff(ctx, a.bucket, a.src.Key, a.src, p.Size)
	if err != nil {
		return err
	}
	p.Stream, p.Compression, p.Encoding, p.Line = stream, string(comp), string(enc), 1
	return nil
}

func (a *attempt[In]) declared() []string {
	if a.im.o.ColumnsOf != nil {
		return a.im.o.ColumnsOf(a.run.Input)
	}
	return a.im.o.Columns
}

// settleColumns checks the file's columns against the declaration and the
// table, and gives each its type and nullability.
func (a *attempt[In]) settleColumns(p *plan, fileCols []string, tg *target) error {
	if d := a.declared(); d != nil {
		if err := matchHeader(fileCols, d); err != nil {
			return err
		}
	}
	p.Columns = fileCols
	p.Types = make([]string, len(fileCols))
	p.Required = make([]bool, len(fileCols))
	if tg == nil {
		for i, c := range fileCols {
			p.Types[i] = a.im.o.Types[c]
			if p.Types[i] == "" {
				p.Types[i] = "text"
			}
		}
		return nil
	}
	p.Table, p.Key = tg.Ident, tg.Key
	return tg.typeColumns(p)
}

// typeColumns gives the plan's columns the table's types, refusing columns
// the table lacks or cannot write, a required column the file lacks, and a
// key the file does not carry.
func (t *target) typeColumns(p *plan) error {
	h := headerFaults{header: p.Columns, columns: t.writable()}
	for i, name := range p.Columns {
		c, ok := t.column(name)
		if !ok || c.Generated {
			h.unknown = append(h.unknown, i+1)
			continue
		}
		if slices.Contains(p.Columns[:i], name) {
			h.repeated = append(h.repeated, name)
		}
		p.Types[i], p.Required[i] = coercedType(c), c.NotNull
		if c.TypType == "d" && c.Domain != "" {
			if p.Bases == nil {
				p.Bases = make([]string, len(p.Columns))
			}
			p.Bases[i] = c.Domain
		}
		if strings.HasSuffix(c.Domain, "[]") {
			if p.Arrays == nil {
				p.Arrays = make([]bool, len(p.Columns))
			}
			p.Arrays[i] = true
		}
	}
	for _, c := range t.Columns {
		if c.NotNull && !fillsItself(c) && !slices.Contains(p.Columns, c.Name) {
			h.missing = append(h.missing, c.Name)
		}
	}
	if err := h.err("the table's writable columns"); err != nil {
		return err
	}
	for _, k := range t.Key {
		if !slices.Contains(p.Columns, k) {
			return errcode.New(errcode.ImportTableInvalid, "import: the key column %s is not among the file's columns", k).
				WithFix("import a file that carries every key column, or import without a key")
		}
	}
	return nil
}

// writable answers the columns an NDJSON import without declared columns
// fills: every column that is not generated.
func (t *target) writable() []string {
	var out []string
	for _, c := range t.Columns {
		if !c.Generated {
			out = append(out, c.Name)
		}
	}
	return out
}

var _ = blob.ValidateKey
