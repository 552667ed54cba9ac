package importrows

import (
	"strings"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/importrows/internal/coerce"
	"github.com/pipekit/pipe/internal/pgcatalog"
)

// column is one column of the plan, ready to coerce cells.
type column struct {
	name     string
	typ      coerce.Type
	required bool // NOT NULL: a NULL is refused (X_IMPORT_FIELD_REQUIRED)
	// typName is the type as the plan spells it; known is false for a
	// table's column of a type pipe's coercion does not know (a domain, an
	// enum, inet...), whose every value is read by the server.
	typName string
	known   bool
	// array: the server reads the column's values as arrays (an array
	// type, or a domain over one).
	array bool
	// base is a domain's base type when it is a character type (or an
	// array of one), whose length pipe checks before the server is asked.
	base *coerce.Type
}

// appendCSV coerces c for the column and appends it as COPY CSV: a NULL
// for a NOT NULL column is X_IMPORT_FIELD_REQUIRED; a value of a type pipe
// does not know is X_IMPORT_FIELD_INVALID, for the server to read.
func (col *column) appendCSV(dst []byte, c coerce.Cell) ([]byte, errcode.Code) {
	at := len(dst)
	var code errcode.Code
	switch {
	case col.known:
		dst, code = col.typ.AppendCSV(dst, requiredCell(c, col))
	case c.Kind != coerce.Null:
		code = errcode.ImportFieldInvalid
	}
	if code == "" && col.required && len(dst) == at {
		code = errcode.ImportFieldRequired
	}
	return dst, code
}

func columnsOf(p plan) ([]column, error) {
	cols := make([]column, len(p.Columns))
	for i, name := range p.Columns {
		t, err := coerce.ParseType(p.Types[i])
		if err != nil && p.Table != "" {
			array := strings.HasSuffix(p.Types[i], "[]") || i < len(p.Arrays) && p.Arrays[i]
			cols[i] = column{name: name, required: p.Required[i], typName: p.Types[i], array: array, base: textBase(p, i)}
			continue
		}
		if err != nil {
			return nil, errcode.Wrap(err, errcode.ImportTableInvalid, "import: column %s has a type the import cannot coerce", name).
				WithFix("import into text columns and convert in SQL, or ask for the type to be supported")
		}
		// A zone other than UTC: a value without an offset is the server's.
		known := p.Table == "" || !t.Zoned() || p.Settings.utc()
		cols[i] = column{name: name, typ: t, required: p.Required[i], typName: p.Types[i], known: known}
	}
	return cols, nil
}

// requiredCell answers the cell a NOT NULL column coerces for a NULL: an
// empty string, as an HTML form sends an empty field. A text column takes
// it; every other type reads it as NULL and refuses the row.
func requiredCell(c coerce.Cell, col *column) coerce.Cell {
	if c.Kind == coerce.Null && col.required {
		return coerce.Cell{Kind: coerce.String}
	}
	return c
}

// coercedType answers the type a table column's values are coerced to, as
// the catalog names it. A type pipe's coercion does not read (a domain, its
// checks included, an enum, interval, inet, a range, a composite, an array
// of them...) stays unknown to it: every value of it is read by the
// server's input function, per row, as COPY would (see heldRows).
func coercedType(c pgcatalog.Column) string {
	return c.Type
}

// textBase answers the base type of the plan's column i when it is a domain
// over a character type, or nil.
func textBase(p plan, i int) *coerce.Type {
	if i >= len(p.Bases) || p.Bases[i] == "" {
		return nil
	}
	t, err := coerce.ParseType(p.Bases[i])
	if err != nil || !t.Final() {
		return nil
	}
	return &t
}
