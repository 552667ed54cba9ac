package importrows

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/internal/pgcatalog"
	"github.com/pipekit/pipe/pg"
	"github.com/pipekit/pipe/pipeline"
)

// TableJobName is the durable name of [TableJob].
const TableJobName = "pipe.import"

// FileImport is the input of [TableJob]: one file into one table, with
// every choice in the input. `pipe import` enqueues it; an app can too, for
// files it did not declare an import for.
type FileImport struct {
	// Source is the file's URL: s3://bucket/key?region=..., gs://,
	// azblob://, file:///dir/name.csv, mem://name/key or a local path.
	Source string `json:"source"`
	// Into is the table; in JSON, as SQL writes it: "sales.orders",
	// "sales.\"Order Items\"". (An input stored before Into, with the
	// table's exact names under "schema" and "table", reads as the same
	// table.)
	Into pg.Relation `json:"into"`
	// Key is the upsert key (empty: plain insert).
	Key []string `json:"key,omitempty"`
	// Columns are the declared columns; empty: the file's own, checked
	// against the table.
	Columns []string `json:"columns,omitempty"`
	// Format, Compression, Encoding and Delimiter are as in [Source].
	Format      Format `json:"format,omitempty"`
	Compression string `json:"compression,omitempty"`
	Encoding    string `json:"encoding,omitempty"`
	Delimiter   string `json:"delimiter,omitempty"`
	// Quotes is strict (the default, empty) or lenient, as in [Source].
	Quotes Quotes `json:"quotes,omitempty"`
	// NoHeader says the CSV file has no header line; Columns then names
	// the file's columns in order (see [Source]).
	NoHeader bool `json:"noHeader,omitempty"`
	// Settings are the DateStyle, TimeZone and IntervalStyle values are
	// read under, as in [Source]; empty ones are the database's defaults.
	Settings Settings `json:"settings,omitzero"`
	// Errors is the URL prefix of the error report. Default: beside the
	// source, <key>.errors.
	Errors string `json:"errors,omitempty"`
	// Limits override the defaults.
	Limits Limits `json:"limits"`
}

// TableJob answers the stock import job, pipe.import, that `pipe import`
// enqueues and `pipe worker` runs: each run imports the file its input
// names into the table it names, with the table writer. Declared alone, it
// reads every file in one run, whatever its input's Limits.Parallel: a
// worker that runs parallel imports registers [TableJobs].
func TableJob() *pipeline.Job[FileImport, Result] {
	return MustNew(FileImport.key, tableOptions())
}

// TableJobs answers the stock import job with its range job,
// pipe.import.range: a run whose input's Limits.Parallel is over 1 (`pipe
// import --parallel N`) imports a file of at least two ranges by ranges.
// `pipe worker` registers both.
func TableJobs() Jobs[FileImport] {
	j, err := NewJobs(FileImport.key, tableOptions())
	if err != nil {
		panic(err)
	}
	return j
}

// tableOptions declare the stock import, for [TableJob] and [Check].
func tableOptions() Options[FileImport] {
	return Options[FileImport]{
		Name:     TableJobName,
		Check:    FileImport.Check,
		Source:   FileImport.source,
		Into:     func(in FileImport) Table { return Table{Relation: in.Into, Key: in.Key} },
		Errors:   FileImport.sink,
		LimitsOf: func(in FileImport) Limits { return in.Limits },
		ColumnsOf: func(in FileImport) []string {
			return in.Columns
		},
		Job: pipeline.JobOptions[FileImport, Result]{Queue: "pipe", Retry: &pipeline.Retry{Attempts: 5}},
	}
}

// Check refuses an input the import cannot run: a source or report URL
// that does not parse, a hostile key, no table, a bad delimiter, a
// decoding limit out of range.
func (in FileImport) Check() error {
	if _, _, err := blob.SplitURL(in.Source); err != nil {
		return err
	}
	if in.Errors != "" {
		if _, _, err := blob.SplitURL(in.Errors); err != nil {
			return err
		}
	}
	if in.Into.IsZero() {
		return errcode.New(errcode.JobInputInvalid, "import: no table is named").WithFix("name the table to import into")
	}
	if len([]rune(in.Delimiter)) > 1 {
		return errcode.New(errcode.JobInputInvalid, "import: the delimiter is more than one character").
			WithFix("use one character: ',', ';', '|' or a tab")
	}
	if _, err := lenientOf(Source{Quotes: in.Quotes}); err != nil {
		return err
	}
	if in.NoHeader && len(in.Columns) == 0 {
		return errcode.New(errcode.JobInputInvalid, "import: a file without a header line needs its columns named").
			WithFix("name the file's columns in order (pipe import --no-header --columns a,b,c)")
	}
	if in.NoHeader && in.Format != "" && in.Format != CSV {
		return errcode.New(errcode.JobInputInvalid, "import: only a CSV file has a header line to go without").
			WithFix("drop --no-header for an NDJSON or Parquet file")
	}
	if err := in.Settings.check(); err != nil {
		return err
	}
	if err := (Table{Relation: in.Into, Key: in.Key}).checkNames(); err != nil {
		return err
	}
	if err := namesErr(pgcatalog.LengthFaults("column", in.Columns...)); err != nil {
		return err
	}
	return in.Limits.check()
}

// key is the run's idempotency key: the file and the table, and a digest
// of every option that changes what the run does (the defaults filled in),
// so that an import of the same file into the same table with other
// options is a run of its own, never merged into a live one. The digest is
// of the input's first JSON form (see fileImportV1), so the key of an
// input is the one it had before Into.
func (in FileImport) key() string {
	n := in
	n.Limits = in.Limits.defaulted()
	if n.Compression == "" {
		n.Compression = string(blob.CompressionAuto)
	}
	if n.Quotes == QuotesStrict {
		n.Quotes = "" // the default, keyed as before quotes were an option
	}
	raw, _ := json.Marshal(n.v1())
	sum := sha256.Sum256(raw)
	return in.Source + " -> " + in.Into.Quoted() + " " + hex.EncodeToString(sum[:6])
}

func (in FileImport) source() Source {
	bucket, key, _ := blob.SplitURL(in.Source) // Check refused a bad URL
	var delim rune
	if in.Delimiter != "" {
		delim = []rune(in.Delimiter)[0]
	}
	return Source{Bucket: bucket, Key: key, Format: in.Format, Compression: in.Compression, Encoding: in.Encoding, Delimiter: delim, Quotes: in.Quotes, NoHeader: in.NoHeader, Settings: in.Settings}
}

func (in FileImport) sink() Sink {
	if in.Errors == "" {
		bucket, key, _ := blob.SplitURL(in.Source)
		return Sink{Bucket: bucket, Prefix: key + ".errors"}
	}
	bucket, prefix, _ := blob.SplitURL(in.Errors)
	return Sink{Bucket: bucket, Prefix: prefix}
}
