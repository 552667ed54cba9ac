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

// errorJSON is a failure as --json prints it: the fields of the text form,
// one object a line.
type errorJSON struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Fix     string `json:"fix,omitempty"`
	Run     string `json:"run,omitempty"`
}

// fail prints err on stderr and answers the exit code. A server error no
// step coded is coded here, by errcode.Redact: its message can quote a row.
// Text and --json print the same fields: the code, the message, the fix and
// the run (a --wait run that did not end done), one fault after another.
func (a *app) fail(err error) int {
	var st exitStatus
	if errors.As(err, &st) {
		return int(st)
	}
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
	var run string
	var rf *runFailure
	if errors.As(err, &rf) {
		run = rf.id
	}
	faults := joinedFaults(err)
	if len(faults) < 2 {
		faults = []*errcode.Error{e}
	}
	for _, f := range faults {
		a.printFault(errorJSON{Code: string(f.Code), Message: f.Message, Fix: f.Fix, Run: run})
	}
	return code
}

// printFault prints one fault: `error CODE: message`, `fix: ...` and
// `run: ID ...` lines, or with --json one errorJSON object on its line.
func (a *app) printFault(f errorJSON) {
	if a.json {
		_ = json.NewEncoder(a.stderr).Encode(f)
		return
	}
	if f.Message == "" {
		fmt.Fprintf(a.stderr, "error %s\n", f.Code)
	} else {
		fmt.Fprintf(a.stderr, "error %s: %s\n", f.Code, f.Message)
	}
	if f.Fix != "" {
		fmt.Fprintf(a.stderr, "fix: %s\n", f.Fix)
	}
	if f.Run != "" {
		fmt.Fprintf(a.stderr, "run: %s (`pipe jobs show %s`)\n", f.Run, f.Run)
	}
}

// exitStatus ends a command that printed its outcome with an exit code
// other than 0 and nothing on stderr: an import that completed with
// refused rows exits [exitRefused].
type exitStatus int

func (s exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(s)) }

// runFailure is a run that settled other than done, as a --wait command
// reports it: the run's coded error, in the words the body gave it, and the
// run's id.
type runFailure struct {
	id  string
	err *errcode.Error
}

func (r *runFailure) Error() string { return r.err.Error() }
func (r *runFailure) Unwrap() error { return r.err }

// terminalSuffix is what the worker appends to the stored message of a
// terminal failure (pipeline/worker_settle.go); the command prints the
// message without it, as the body said it.
const terminalSuffix = " — not retried: this code is classified terminal"

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
