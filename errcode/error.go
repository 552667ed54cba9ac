package errcode

import (
	"errors"
	"fmt"
	"strconv"
)

// Code is a stable error code such as "X_JOB_TIMEOUT". A Code is an error so
// that errors.Is(err, code) matches any [*Error] carrying it.
type Code string

// Error answers the code itself.
func (c Code) Error() string { return string(c) }

// Error is the coded error. Message never quotes user data; Fix says what to
// do about it; Meta carries machine-readable detail (for example
// "retryAfterSeconds").
type Error struct {
	Code    Code
	Message string
	Fix     string
	Meta    map[string]string
	cause   error
}

// New returns a coded error. format and args build the message; pass only
// names the program chose (a job name, a step name), never input values.
func New(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Wrap returns a coded error whose cause is err. The cause is reachable with
// errors.Unwrap but is not part of Error(), so a driver message that might
// quote data stays out of logs built from Error().
func Wrap(err error, code Code, format string, args ...any) *Error {
	e := New(code, format, args...)
	e.cause = err
	return e
}

// WithFix sets the fix and answers the error, for chaining.
func (e *Error) WithFix(fix string) *Error {
	e.Fix = fix
	return e
}

// WithMeta records one metadata pair and answers the error, for chaining.
func (e *Error) WithMeta(key, value string) *Error {
	if e.Meta == nil {
		e.Meta = map[string]string{}
	}
	e.Meta[key] = value
	return e
}

// WithRetryAfter records how long the responder asked to wait, in seconds.
func (e *Error) WithRetryAfter(seconds int) *Error {
	return e.WithMeta(MetaRetryAfter, strconv.Itoa(seconds))
}

// MetaRetryAfter is the metadata key holding a retry-after delay in seconds.
const MetaRetryAfter = "retryAfterSeconds"

// Error answers "CODE: message".
func (e *Error) Error() string {
	if e.Message == "" {
		return string(e.Code)
	}
	return string(e.Code) + ": " + e.Message
}

// Unwrap answers the wrapped cause, if any.
func (e *Error) Unwrap() error { return e.cause }

// Is matches a [Code] or another *Error with the same code.
func (e *Error) Is(target error) bool {
	switch t := target.(type) {
	case Code:
		return e.Code == t
	case *Error:
		return e.Code == t.Code
	}
	return false
}

// CodeOf answers the code of the first coded error in err's chain, or "".
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	var c Code
	if errors.As(err, &c) {
		return c
	}
	return ""
}

// As answers the first *Error in err's chain.
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// RetryAfterSeconds answers the retry-after delay in seconds carried by err, if any.
func RetryAfterSeconds(err error) (int, bool) {
	e, ok := As(err)
	if !ok || e.Meta == nil {
		return 0, false
	}
	s, ok := e.Meta[MetaRetryAfter]
	if !ok {
		return 0, false
	}
	n, convErr := strconv.Atoi(s)
	return n, convErr == nil && n >= 0
}
