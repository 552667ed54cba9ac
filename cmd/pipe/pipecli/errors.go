package pipecli

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/errcode"
)

// usage marks an error as the command line's fault: exit 2, not 1.
type usage struct{ err *errcode.Error }

func (u *usage) Error() string { return u.err.Error() }
func (u *usage) Unwrap() error { return u.err }

// usageError answers a coded X_CONFIG_INVALID usage error about c's command
// line.
func usageError(c *cobra.Command, format string, args ...any) error {
	e := errcode.New(errcode.ConfigInvalid, format, args...).
		WithFix(fmt.Sprintf("see `%s --help`", c.CommandPath()))
	return &usage{err: e}
}

// errorJSON is a failure as --json prints it.
type errorJSON struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Fix     string `json:"fix,omitempty"`
}

// fail prints err on stderr and answers the exit code. A server error no
// step coded is coded here, by errcode.Redact: its message can quote a row.
func (a *app) fail(err error) int {
	err = errcode.Redact(context.Background(), err, cmp.Or(a.command, "pipe"))
	code := exitFailure
	var u *usage
	if errors.As(err, &u) {
		code = exitUsage
	}
	e, ok := errcode.As(err)
	if !ok {
		// Uncoded errors that come before a command began are cobra's
		// complaints about the command line.
		if !a.started {
			code = exitUsage
			e = errcode.New(errcode.ConfigInvalid, "%s", err.Error()).WithFix("see `pipe --help`")
		} else {
			e = errcode.New(errcode.Invariant, "%s", err.Error())
		}
	}
	if a.json {
		_ = json.NewEncoder(a.stderr).Encode(errorJSON{Code: string(e.Code), Message: e.Message, Fix: e.Fix})
		return code
	}
	if all := joinedFaults(err); len(all) > 1 {
		for _, f := range all {
			fmt.Fprintf(a.stderr, "error %s: %s\n", f.Code, f.Message)
			if f.Fix != "" {
				fmt.Fprintf(a.stderr, "fix: %s\n", f.Fix)
			}
		}
		return code
	}
	if e.Message == "" {
		fmt.Fprintf(a.stderr, "error %s\n", e.Code)
	} else {
		fmt.Fprintf(a.stderr, "error %s: %s\n", e.Code, e.Message)
	}
	if e.Fix != "" {
		fmt.Fprintf(a.stderr, "fix: %s\n", e.Fix)
	}
	return code
}

// joinedFaults answers the coded errors of a joined error (a worker whose
// jobs fail their catalog checks answers one per job), so that each is
// printed. A coded error wrapping a join already names every fault.
func joinedFaults(err error) []*errcode.Error {
	j, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return nil
	}
	var out []*errcode.Error
	for _, e := range j.Unwrap() {
		if ce, ok := errcode.As(e); ok {
			out = append(out, ce)
		}
	}
	return out
}
