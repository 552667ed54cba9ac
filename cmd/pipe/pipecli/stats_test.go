package pipecli_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pipekit/pipe/cmd/pipe/pipecli"
)

// statsJSON is what `pipe stats --json` prints.
type statsJSON struct {
	Since time.Time `json:"since"`
	Jobs  []struct {
		Job        string `json:"job"`
		Done       int64  `json:"done"`
		Retried    int64  `json:"retried"`
		Failed     int64  `json:"failed"`
		Dead       int64  `json:"dead"`
		DurationMs int64  `json:"durationMs"`
	} `json:"jobs"`
}

func TestStatsCountsTheDemo(t *testing.T) {
	t.Parallel()
	b := setup(t)
	if r := b.pipe(t, "stats"); r.stdout != "no runs counted in the last 24h\n" {
		t.Fatalf("stats with nothing run printed %q", r.stdout)
	}
	wantOK(t, b.pipe(t, "demo"))

	r := b.pipe(t, "stats", "--json", "--since", "1h")
	wantOK(t, r)
	s := decode[statsJSON](t, r.stdout)
	// The demo runs eight jobs: its import and export, its rollup (twice),
	// the view's refresh, the erase, the webhook's delivery and its
	// receiver, then demo.onboard (sorted by name).
	names := []string{}
	for _, j := range s.Jobs {
		names = append(names, j.Job)
	}
	want := []string{pipecli.DemoJobName, "demo.orders-daily", "demo.orders.webhook", "demo.partner.receiver",
		"pipe.export", "pipe.import", "pipe.subject.erase", "pipe.views.refresh"}
	if !slices.Equal(names, want) || s.Jobs[0].Done != 1 || s.Jobs[0].Retried != 1 || s.Jobs[0].Failed != 0 ||
		s.Jobs[0].Dead != 0 || s.Jobs[1].Done != 2 {
		t.Fatalf("stats --json after the demo = %+v", s)
	}
	if ago := time.Since(s.Since); ago < 59*time.Minute || ago > 61*time.Minute {
		t.Fatalf("stats --since 1h reports since %s", s.Since)
	}

	text := b.pipe(t, "stats")
	wantOK(t, text)
	lines := strings.Split(strings.TrimSpace(text.stdout), "\n")
	if len(lines) != 10 || !strings.HasPrefix(lines[0], "since ") || !hasRow(text.stdout, "JOB", "DONE", "RETRIED", "FAILED", "DEAD", "MEAN", "DURATION") ||
		!strings.HasPrefix(strings.Join(strings.Fields(lines[2]), " "), pipecli.DemoJobName+" 1 1 0 0 ") {
		t.Fatalf("stats:\n%s", text.stdout)
	}

	wantError(t, b.pipe(t, "stats", "--since", "yesterday"), 2, "X_DURATION_INVALID")
	wantError(t, b.pipe(t, "stats", "--since", "1.5h"), 2, "X_DURATION_INVALID")
}
