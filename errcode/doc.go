// Package errcode is pipe's one coded error type.
//
// Every error pipe raises on purpose carries a stable code (the X_* strings
// shared with the reference specification), a short message that never quotes
// user data, a fix telling the reader what to do, and optional metadata such
// as a retry-after delay. Codes are classified terminal, retry-after or
// retryable; the job core reads that classification to decide whether a
// failed attempt is retried.
//
// # Matching
//
// A [Code] is itself an error, so errors.Is matches by code:
//
//	if errors.Is(err, errcode.JobNotFound) { ... }
//
// and errors.As recovers the whole [*Error] with its fix and metadata.
//
// # Classification
//
// [Register] classifies an application's own codes, so a body can stop
// retrying on the first attempt by returning one:
//
//	errcode.Register("X_CARD_DECLINED", errcode.Terminal)
package errcode
