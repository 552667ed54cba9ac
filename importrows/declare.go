package importrows

import (
	"maps"
	"slices"
	"strings"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/importrows/internal/coerce"
	"github.com/pipekit/pipe/internal/pgcatalog"
)

// withDefaults fills the defaults and names every fault of the declaration
// in one X_JOB_DECLARATION_INVALID.
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
	add(o.Errors == nil, "Errors (where refused rows are reported) is nil")
	add((o.Into == nil) == (o.Handle == nil), "set exactly one of Into and Handle")
	add(o.Columns != nil && o.ColumnsOf != nil, "set at most one of Columns and ColumnsOf")
	add(o.Handle != nil && o.Columns == nil && o.ColumnsOf == nil, "Handle needs declared Columns")
	add(o.Into != nil && o.Types != nil, "Types is for Handle; with Into the table's types are used")
	add(o.PageBytes != 0 && (o.PageBytes < MinPageBytes || o.PageBytes > MaxPageBytes), "PageBytes is not from 64 KiB to 1 GiB")
	add(o.MaxRecordBytes < 0 || o.MaxRecordBytes > MaxRecordBytesLimit, "MaxRecordBytes is not from 0 (the default) to 64 MiB")
	add(o.MaxRowErrors != nil && *o.MaxRowErrors < 0, "MaxRowErrors is negative")
	add(o.Batch < 0, "Batch is negative")
	add(o.Parallel < 0 || o.Parallel > MaxParallel, "Parallel is not from 0 to 1000")
	add(o.RangeBytes < 0, "RangeBytes is negative")
	add(o.Parallel > 1 && o.Handle != nil, "Parallel is for an import Into a table")
	faults = append(faults, o.Decoding.faults()...)
	faults = append(faults, columnFaults(o.Columns, o.Types)...)
	if len(faults) > 0 {
		return o, errcode.New(errcode.JobDeclarationInvalid, "import %s: %s", o.Name, strings.Join(faults, "; ")).
			WithFix("correct the import's declaration: " + strings.Join(faults, "; "))
	}
	return o.defaulted(), nil
}

func (o Options[In]) defaulted() Options[In] {
	if o.PageBytes == 0 {
		o.PageBytes = DefaultPageBytes
	}
	if o.MaxRecordBytes == 0 {
		o.MaxRecordBytes = DefaultMaxRecordBytes
	}
	if o.MaxRowErrors == nil {
		n := DefaultMaxRowErrors
		o.MaxRowErrors = &n
	}
	if o.Batch == 0 {
		o.Batch = DefaultBatch
	}
	if o.RangeBytes == 0 {
		o.RangeBytes = DefaultRangeBytes
	}
	return o
}

// columnFaults refuses blank or repeated column names and types the import
// cannot coerce.
func columnFaults(cols []string, types map[string]string) []string {
	faults := pgcatalog.LengthFaults("column", cols...)
	seen := map[string]bool{}
	for _, c := range cols {
		if strings.TrimSpace(c) == "" {
			faults = append(faults, "a column name is blank")
		} else if seen[c] {
			faults = append(faults, "column "+c+" is declared twice")
		}
		seen[c] = true
	}
	for _, c := range slices.Sorted(maps.Keys(types)) {
		t := types[c]
		if cols != nil && !seen[c] {
			faults = append(faults, "Types names "+c+", which is not a declared column")
		}
		if _, err := coerce.ParseType(t); err != nil {
			faults = append(faults, "column "+c+" has the unsupported type "+t)
		}
	}
	return faults
}
