package exportrows

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/errcode"
)

// withDefaults names every fault of the declaration in one
// X_JOB_DECLARATION_INVALID.
func (o Options[In]) withDefaults(key func(In) string) (Options[In], error) {
	var faults []string
	add := func(cond bool, fault string) {
		if cond {
			faults = append(faults, fault)
		}
	}
	add(strings.TrimSpace(o.Name) == "", "Name is empty")
	add(key == nil, "the idempotency key function is nil")
	add(o.Source == nil, "Source is nil")
	add(o.Sink == nil, "Sink (where the objects go) is nil")
	faults = append(faults, o.settings().faults()...)
	faults = append(faults, nameFaults("Columns", o.Columns)...)
	faults = append(faults, nameFaults("Sealed", o.Sealed)...)
	for _, c := range o.Columns {
		add(slices.Contains(o.Sealed, c), "column "+c+" is sealed: it is never exported")
	}
	add(o.Parallel != nil && (o.WithRange == nil || o.RangeOf == nil), "Parallel needs WithRange and RangeOf")
	add(o.SnapshotLifetime < 0, "SnapshotLifetime is negative")
	if o.SnapshotLifetime == 0 {
		o.SnapshotLifetime = DefaultSnapshotLifetime
	}
	if len(faults) > 0 {
		return o, errcode.New(errcode.JobDeclarationInvalid, "export %s: %s", o.Name, strings.Join(faults, "; ")).
			WithFix("correct the export's declaration: " + strings.Join(faults, "; "))
	}
	return o, nil
}

// settings answers the declared settings.
func (o Options[In]) settings() Settings {
	return Settings{Format: o.Format, Compression: o.Compression, PageRows: o.PageRows, RowGroupRows: o.RowGroupRows}
}

// faults names what is wrong with s.
func (s Settings) faults() []string {
	var faults []string
	switch s.Format {
	case "", CSV, NDJSON, Parquet:
	default:
		faults = append(faults, "Format "+string(s.Format)+" is not csv, ndjson or parquet")
	}
	if s.Compression != "" {
		if c, err := blob.ParseCompression(string(s.Compression)); err != nil || c == blob.CompressionAuto {
			faults = append(faults, "Compression "+string(s.Compression)+" is not none, gzip or zstd")
		}
	}
	if s.PageRows < 0 || s.PageRows > MaxPageRows {
		faults = append(faults, fmt.Sprintf("PageRows %d is out of range (0 for the default, up to %d)", s.PageRows, MaxPageRows))
	}
	if s.RowGroupRows < 0 || s.RowGroupRows > MaxPageRows {
		faults = append(faults, fmt.Sprintf("RowGroupRows %d is out of range (0 for the default, up to %d)", s.RowGroupRows, MaxPageRows))
	}
	return faults
}

// settingsFix is the fix of settings out of range.
var settingsFix = fmt.Sprintf("use the format csv, ndjson or parquet, the compression none, gzip or zstd, and page and row-group sizes from 0 (the default) to %d", MaxPageRows)

// over answers s with the non-zero fields of run in place.
func (s Settings) over(run Settings) Settings {
	if run.Format != "" {
		s.Format = run.Format
	}
	if run.Compression != "" {
		s.Compression = run.Compression
	}
	if run.PageRows != 0 {
		s.PageRows = run.PageRows
	}
	if run.RowGroupRows != 0 {
		s.RowGroupRows = run.RowGroupRows
	}
	return s
}

// defaulted fills the defaults of a valid s.
func (s Settings) defaulted() Settings {
	if s.Format == "" {
		s.Format = CSV
	}
	s.Compression, _ = blob.ParseCompression(string(s.Compression))
	if s.Compression == blob.CompressionAuto {
		s.Compression = blob.CompressionNone
		if s.Format == Parquet {
			s.Compression = blob.CompressionZstd
		}
	}
	if s.PageRows == 0 {
		s.PageRows = DefaultPageRows
	}
	if s.RowGroupRows == 0 || s.RowGroupRows > s.PageRows {
		s.RowGroupRows = s.PageRows
	}
	return s
}

// nameFaults refuses blank and repeated column names.
func nameFaults(field string, names []string) []string {
	var faults []string
	seen := map[string]bool{}
	for _, c := range names {
		if strings.TrimSpace(c) == "" {
			faults = append(faults, field+" has a blank column name")
		} else if seen[c] {
			faults = append(faults, field+" names "+c+" twice")
		}
		seen[c] = true
	}
	return faults
}
