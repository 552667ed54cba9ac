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
}

func columnsOf(p plan) ([]column, error) {
	cols := make([]column, len(p.Columns))
	for i, name := range p.Columns {
		t, err := coerce.ParseType(p.Types[i])
		if err != nil {
			return nil, errcode.Wrap(err, errcode.ImportTableInvalid, "import: column %s has a type the import cannot coerce", name).
				WithFix("import into text columns and convert in SQL, or ask for the type to be supported")
		}
		cols[i] = column{name: name, typ: t, required: p.Required[i]}
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

// coercedType answers the type a table column's values are coerced to: its
// type, or a domain's base type; a type the import does not read (interval,
// inet, a range, an enum, a composite...) is unknown, whose text goes to
// the server's input function as written.
func coercedType(c pgcatalog.Column) string {
	t := c.Type
	if c.TypType == "d" && c.Domain != "" {
		t = c.Domain
	}
	if _, err := coerce.ParseType(t); err == nil {
		return t
	}
	if strings.HasSuffix(t, "[]") { // not int2vector or oidvector, arrays to the catalog written "1 2"
		return "unknown[]"
	}
	return "unknown"
}
