package errcode_test

import (
	"testing"

	"github.com/pipekit/pipe/errcode"
)

// A throttled delivery waits out the endpoint's Retry-After; a failed one
// takes the backoff; a rejected one, a disabled endpoint or a refused
// address fail the same way again.
func TestWebhookCodeClasses(t *testing.T) {
	for code, want := range map[errcode.Code]errcode.Class{
		errcode.WebhookDeliveryThrottled:   errcode.RetryAfter,
		errcode.WebhookDeliveryFailed:      errcode.Retryable,
		errcode.WebhookDeliveryRejected:    errcode.Terminal,
		errcode.WebhookEndpointDisabled:    errcode.Terminal,
		errcode.WebhookEndpointInvalid:     errcode.Terminal,
		errcode.WebhookReceiverUnavailable: errcode.Retryable,
	} {
		if got := errcode.ClassOf(code); got != want {
			t.Errorf("%s is %s, want %s", code, got, want)
		}
	}
}
