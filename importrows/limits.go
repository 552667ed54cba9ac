package importrows

import (
	"fmt"
	"strings"

	"github.com/pipekit/pipe/errcode"
)

// The ranges of the limits: a page of 64 KiB to 1 GiB (a page is read into
// one buffer, and its offsets are added), a record of at most 64 MiB (a
// chunk holds the longest record).
const (
	MinPageBytes        = 64 << 10
	MaxPageBytes        = 1 << 30
	MaxRecordBytesLimit = 64 << 20
	// MaxParallel is the most ranges one import is split into.
	MaxParallel = 1000
)

// limits answers the run's limits: the declaration's, with the input's
// overrides.
func (o *Options[In]) limits(in In) (Limits, error) {
	l := Limits{PageBytes: o.PageBytes, MaxRecordBytes: o.MaxRecordBytes, MaxRowErrors: o.MaxRowErrors,
		Parallel: o.Parallel, RangeBytes: o.RangeBytes, DecodeLimits: o.Decoding.defaulted()}
	if o.LimitsOf == nil {
		return l, nil
	}
	x := o.LimitsOf(in)
	if err := x.check(); err != nil {
		return l, err
	}
	if x.PageBytes != 0 {
		l.PageBytes = x.PageBytes
	}
	if x.MaxRecordBytes != 0 {
		l.MaxRecordBytes = x.MaxRecordBytes
	}
	if x.MaxRowErrors != nil {
		l.MaxRowErrors = x.MaxRowErrors
	}
	if x.Parallel != 0 {
		l.Parallel = x.Parallel
	}
	if x.RangeBytes != 0 {
		l.RangeBytes = x.RangeBytes
	}
	l.DecodeLimits = l.DecodeLimits.over(x.DecodeLimits)
	return l, nil
}

// check refuses a limit out of its range with X_JOB_INPUT_INVALID naming
// each; a zero field (nil MaxRowErrors), which keeps the declared value,
// passes.
func (l Limits) check() error {
	faults := l.faults()
	if len(faults) == 0 {
		return nil
	}
	return errcode.New(errcode.JobInputInvalid, "import: %s", strings.Join(faults, "; ")).
		WithFix(fmt.Sprintf("give page bytes from %d to %d, a record limit from 1 to %d, 0 or more refused rows, decoding limits not negative and a window of 1 KiB to 2 GiB",
			MinPageBytes, MaxPageBytes, MaxRecordBytesLimit))
}

func (l Limits) faults() []string {
	var faults []string
	if l.PageBytes != 0 && (l.PageBytes < MinPageBytes || l.PageBytes > MaxPageBytes) {
		faults = append(faults, fmt.Sprintf("page bytes %d are out of range (64 KiB to 1 GiB)", l.PageBytes))
	}
	if l.MaxRecordBytes < 0 || l.MaxRecordBytes > MaxRecordBytesLimit {
		faults = append(faults, fmt.Sprintf("the record limit %d is out of range (1 byte to 64 MiB)", l.MaxRecordBytes))
	}
	if l.Parallel < 0 || l.Parallel > MaxParallel {
		faults = append(faults, fmt.Sprintf("parallel %d is out of range (0 to %d)", l.Parallel, MaxParallel))
	}
	if l.RangeBytes < 0 {
		faults = append(faults, fmt.Sprintf("the range bytes %d are negative", l.RangeBytes))
	}
	if l.MaxRowErrors != nil && *l.MaxRowErrors < 0 {
		faults = append(faults, fmt.Sprintf("the refused rows tolerated (%d) are negative", *l.MaxRowErrors))
	}
	return append(faults, l.DecodeLimits.faults()...)
}

// defaulted answers l with the package's defaults in its zero fields.
func (l Limits) defaulted() Limits {
	if l.PageBytes == 0 {
		l.PageBytes = DefaultPageBytes
	}
	if l.MaxRecordBytes == 0 {
		l.MaxRecordBytes = DefaultMaxRecordBytes
	}
	if l.MaxRowErrors == nil {
		n := DefaultMaxRowErrors
		l.MaxRowErrors = &n
	}
	l.DecodeLimits = l.DecodeLimits.defaulted()
	return l
}
