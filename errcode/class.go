package errcode

import "sync"

// Class says how the job core treats a failed attempt carrying a code.
type Class string

const (
	// Retryable takes the job's backoff path. Unclassified codes are retryable.
	Retryable Class = "retryable"
	// Terminal stops at the attempt that failed: the same code run again is
	// the same answer.
	Terminal Class = "terminal"
	// RetryAfter replaces the backoff delay with the error's retry-after
	// metadata, clamped by the job's maximum delay.
	RetryAfter Class = "retry-after"
)

var registry = struct {
	sync.RWMutex
	classes map[Code]Class
}{classes: map[Code]Class{}}

// Register classifies code. An application registers its own codes once, at
// start-up; registering a code again replaces its class.
func Register(code Code, class Class) {
	registry.Lock()
	defer registry.Unlock()
	registry.classes[code] = class
}

// ClassOf answers how code is classified; unclassified codes are [Retryable].
func ClassOf(code Code) Class {
	registry.RLock()
	defer registry.RUnlock()
	if c, ok := registry.classes[code]; ok {
		return c
	}
	return Retryable
}

// Classify answers the class of err's code.
func Classify(err error) Class {
	return ClassOf(CodeOf(err))
}
