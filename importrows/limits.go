package importrows

import (
	"github.com/pipekit/pipe/errcode"
)

// limits answers the run's limits: the declaration's, with the input's
// overrides.
func (o *Options[In]) limits(in In) (Limits, error) {
	l := Limits{PageBytes: o.PageBytes, MaxRecordBytes: o.MaxRecordBytes, MaxRowErrors: o.MaxRowErrors,
		DecodeLimits: o.Decoding.defaulted()}
	if o.LimitsOf == nil {
		return l, nil
	}
	x := o.LimitsOf(in)
	if x.PageBytes != 0 {
		l.PageBytes = x.PageBytes
	}
	if x.MaxRecordBytes != 0 {
		l.MaxRecordBytes = x.MaxRecordBytes
	}
	if x.MaxRowErrors != nil {
		l.MaxRowErrors = x.MaxRowErrors
	}
	l.DecodeLimits = l.DecodeLimits.over(x.DecodeLimits)
	if l.PageBytes < minPageBytes || l.MaxRecordBytes < 0 || *l.MaxRowErrors < 0 || len(l.DecodeLimits.faults()) > 0 {
		return l, errcode.New(errcode.JobInputInvalid, "import: a limit is out of range").
			WithFix("page bytes are at least 64 KiB; the record size, the row errors and the decoding limits are not negative; the window is between 1 KiB and 2 GiB")
	}
	return l, nil
}
