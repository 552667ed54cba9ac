package exportrows

import (
	"encoding/json"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/internal/pgcatalog"
)

// tableExportV1 is a TableExport as JSON held it before From: the table's
// exact schema and name under "schema" and "table". The inputs of runs
// enqueued then are read through it, and the idempotency key digests this
// form, so an export asked for again after an upgrade is the run still
// live from before it. Keep its fields and their order.
type tableExportV1 struct {
	Schema      string   `json:"schema,omitempty"`
	Table       string   `json:"table"`
	Columns     []string `json:"columns,omitempty"`
	Key         []string `json:"key,omitempty"`
	Order       Order    `json:"order,omitempty"`
	Where       string   `json:"where,omitempty"`
	To          string   `json:"to"`
	Format      Format   `json:"format,omitempty"`
	Compression string   `json:"compression,omitempty"`
	PageRows    int      `json:"pageRows,omitempty"`
	// Added after the first form, empty in every input of it.
	Parallel int    `json:"parallel,omitempty"`
	Range    *Range `json:"range,omitempty"`
}

func (in TableExport) v1() tableExportV1 {
	return tableExportV1{Schema: in.From.Schema, Table: in.From.Name, Columns: in.Columns, Key: in.Key, Order: in.Order,
		Where: in.Where, To: in.To, Format: in.Format, Compression: in.Compression, PageRows: in.PageRows,
		Parallel: in.Parallel, Range: in.Range}
}

// label is the table as the first form's key named it: schema.table, raw.
func (v tableExportV1) label() string {
	if v.Schema == "" {
		return v.Table
	}
	return v.Schema + "." + v.Table
}

// UnmarshalJSON reads an input, From as SQL writes a table's name; or an
// input of the form before From, its "schema" and "table" taken exactly.
func (in *TableExport) UnmarshalJSON(b []byte) error {
	type plain TableExport // TableExport's fields, without this method
	if err := json.Unmarshal(b, (*plain)(in)); err != nil {
		return err
	}
	old, found, err := pgcatalog.StoredTable(b)
	if err != nil || !found {
		return err
	}
	if !in.From.IsZero() {
		return errcode.New(errcode.JobInputInvalid, "export: the input names its table twice, as from and as schema and table").
			WithFix("name the table once, in from")
	}
	in.From = old
	return nil
}
