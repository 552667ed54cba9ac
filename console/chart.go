package console

import (
	"time"

	"github.com/pipekit/pipe/pipeline"
)

// chartMinutes is how far back the throughput chart looks.
const chartMinutes = 60

// bar is one minute of the throughput chart.
type bar struct {
	Minute     time.Time
	Done, Dead int64
	X, Y, H    int
}

// chart is the fleet's runs settled per minute, drawn as bars 100 units high.
type chart struct {
	Bars []bar
	Peak int64
}

// buildChart folds every job's counter buckets into one bar per minute for
// the last hour, oldest first.
func buildChart(counters []pipeline.Counter, now time.Time) chart {
	start := now.Truncate(time.Minute).Add(-(chartMinutes - 1) * time.Minute)
	bars := make([]bar, chartMinutes)
	for i := range bars {
		bars[i].Minute = start.Add(time.Duration(i) * time.Minute)
	}
	for _, c := range counters {
		i := int(c.Bucket.Sub(start) / time.Minute)
		if i < 0 || i >= chartMinutes {
			continue
		}
		bars[i].Done += c.Done
		bars[i].Dead += c.Dead
	}
	var peak int64
	for _, b := range bars {
		peak = max(peak, b.Done+b.Dead)
	}
	for i := range bars {
		b := &bars[i]
		b.X = i * 10
		if peak > 0 {
			b.H = int((b.Done + b.Dead) * 100 / peak)
		}
		b.Y = 100 - b.H
	}
	return chart{Bars: bars, Peak: peak}
}
