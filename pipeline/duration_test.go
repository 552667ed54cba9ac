package pipeline_test

import (
	"errors"
	"testing"
	"time"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

func TestParseDuration(t *testing.T) {
	good := map[string]time.Duration{
		"3d": 72 * time.Hour, "72h": 72 * time.Hour, "1h30m": 90 * time.Minute,
		"500ms": 500 * time.Millisecond, "2w": 14 * 24 * time.Hour, "1m1s": 61 * time.Second, "0s": 0,
	}
	for in, want := range good {
		got, err := pipeline.ParseDuration(in)
		if err != nil || got != want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "3", "d", "-1s", "1.5h", "3x", "1h ", "99999999999999999999s", "9223372036854775807h"} {
		if _, err := pipeline.ParseDuration(in); !errors.Is(err, errcode.DurationInvalid) {
			t.Errorf("ParseDuration(%q) err = %v; want X_DURATION_INVALID", in, err)
		}
	}
}

func FuzzParseDuration(f *testing.F) {
	for _, s := range []string{"3d", "1h30m", "500ms", "", "-1s", "1.5h", "9223372036854775807ms"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := pipeline.ParseDuration(s)
		if err != nil {
			if !errors.Is(err, errcode.DurationInvalid) {
				t.Fatalf("uncoded error %v", err)
			}
			return
		}
		if d < 0 {
			t.Fatalf("negative duration %v from %q", d, s)
		}
		// A plain Go duration without d/w must agree with time.ParseDuration.
		if std, stdErr := time.ParseDuration(s); stdErr == nil && std != d {
			t.Fatalf("%q: %v, time.ParseDuration says %v", s, d, std)
		}
	})
}
