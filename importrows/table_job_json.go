package importrows

import (
	"encoding/json"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/internal/pgcatalog"
)

// fileImportV1 is a FileImport as JSON held it before Into: the table's
// exact schema and name under "schema" and "table". The inputs of runs
// enqueued then are read through it, and the idempotency key digests this
// form, so an import asked for again after an upgrade is the run still
// live from before it. Keep its fields and their order.
type fileImportV1 struct {
	Source      string   `json:"source"`
	Schema      string   `json:"schema,omitempty"`
	Table       string   `json:"table"`
	Key         []string `json:"key,omitempty"`
	Columns     []string `json:"columns,omitempty"`
	Format      Format   `json:"format,omitempty"`
	Compression string   `json:"compression,omitempty"`
	Encoding    string   `json:"encoding,omitempty"`
	Delimiter   string   `json:"delimiter,omitempty"`
	Errors      string   `json:"errors,omitempty"`
	Limits      Limits   `json:"limits"`
	// Fields added since: each empty by default, so an input that leaves
	// them so keeps its key.
	Quotes   Quotes   `json:"quotes,omitempty"`
	Settings Settings `json:"settings,omitzero"`
	NoHeader bool     `json:"noHeader,omitempty"`
}

func (in FileImport) v1() fileImportV1 {
	return fileImportV1{Source: in.Source, Schema: in.Into.Schema, Table: in.Into.Name, Key: in.Key, Columns: in.Columns,
		Format: in.Format, Compression: in.Compression, Encoding: in.Encoding, Delimiter: in.Delimiter,
		Errors: in.Errors, Limits: in.Limits, Quotes: in.Quotes, Settings: in.Settings, NoHeader: in.NoHeader}
}

// UnmarshalJSON reads an input, Into as SQL writes a table's name; or an
// input of the form before Into, its "schema" and "table" taken exactly.
func (in *FileImport) UnmarshalJSON(b []byte) error {
	type plain FileImport // FileImport's fields, without this method
	if err := json.Unmarshal(b, (*plain)(in)); err != nil {
		return err
	}
	old, found, err := pgcatalog.StoredTable(b)
	if err != nil || !found {
		return err
	}
	if !in.Into.IsZero() {
		return errcode.New(errcode.JobInputInvalid, "import: the input names its table twice, as into and as schema and table").
			WithFix("name the table once, in into")
	}
	in.Into = old
	return nil
}
