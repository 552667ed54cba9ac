package options

import (
	"errors"
	"strings"
	"testing"

	"github.com/pipekit/pipe/errcode"
)

type opts struct{ N int }

func TestOneAnswersTheZeroValueOrTheOneStruct(t *testing.T) {
	if o, err := One[opts]("call", nil); err != nil || o != (opts{}) {
		t.Fatalf("none: %+v, %v", o, err)
	}
	if o, err := One("call", []opts{{N: 2}}); err != nil || o.N != 2 {
		t.Fatalf("one: %+v, %v", o, err)
	}
}

func TestOneRefusesASecondStruct(t *testing.T) {
	_, err := One("enqueue", []opts{{N: 1}, {N: 2}})
	if !errors.Is(err, errcode.Invariant) {
		t.Fatalf("two: %v; want X_INVARIANT", err)
	}
	if got := err.Error(); got == "" || !strings.Contains(got, "enqueue") {
		t.Fatalf("the refusal %q does not name the call", got)
	}
}
