package errcode_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/pipekit/pipe/errcode"
)

func TestIsMatchesByCode(t *testing.T) {
	err := fmt.Errorf("page 3: %w", errcode.New(errcode.JobNotFound, "no job with that id"))
	if !errors.Is(err, errcode.JobNotFound) {
		t.Fatal("errors.Is by code failed through a wrap")
	}
	if errors.Is(err, errcode.JobTimeout) {
		t.Fatal("errors.Is matched another code")
	}
	if got := errcode.CodeOf(err); got != errcode.JobNotFound {
		t.Fatalf("CodeOf = %q", got)
	}
}

func TestWrapKeepsCauseOutOfMessage(t *testing.T) {
	cause := errors.New(`value "alice@example.com" refused`)
	err := errcode.Wrap(cause, errcode.JobInputInvalid, "input does not decode")
	if got := err.Error(); got != "X_JOB_INPUT_INVALID: input does not decode" {
		t.Fatalf("Error() = %q", got)
	}
	if !errors.Is(err, cause) {
		t.Fatal("cause not reachable")
	}
}

func TestClassification(t *testing.T) {
	if errcode.ClassOf(errcode.StepDuplicate) != errcode.Terminal {
		t.Fatal("X_STEP_DUPLICATE should be terminal")
	}
	if errcode.ClassOf("X_SOMETHING_ELSE") != errcode.Retryable {
		t.Fatal("unclassified should be retryable")
	}
	errcode.Register("X_TEST_CARD_DECLINED", errcode.Terminal)
	if errcode.Classify(errcode.New("X_TEST_CARD_DECLINED", "declined")) != errcode.Terminal {
		t.Fatal("registered class not applied")
	}
	if errcode.Classify(errors.New("plain")) != errcode.Retryable {
		t.Fatal("plain errors should be retryable")
	}
}

func TestRetryAfterSeconds(t *testing.T) {
	err := fmt.Errorf("vendor: %w", errcode.New(errcode.RateLimited, "vendor budget spent").WithRetryAfter(42))
	n, ok := errcode.RetryAfterSeconds(err)
	if !ok || n != 42 {
		t.Fatalf("RetryAfterSeconds = %d, %v", n, ok)
	}
	if _, ok := errcode.RetryAfterSeconds(errcode.New(errcode.RateLimited, "x")); ok {
		t.Fatal("no metadata should answer false")
	}
}

func ExampleError() {
	err := errcode.New(errcode.JobNotFound, "no job with that id").WithFix("list jobs with `pipe jobs list`")
	wrapped := fmt.Errorf("show: %w", err)
	fmt.Println(errors.Is(wrapped, errcode.JobNotFound))
	if e, ok := errcode.As(wrapped); ok {
		fmt.Println(e.Code, "-", e.Fix)
	}
	// Output:
	// true
	// X_JOB_NOT_FOUND - list jobs with `pipe jobs list`
}
