package storebench

import (
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
)

func printHeader(out io.Writer, r Results, o Options) {
	fmt.Fprintf(out, "# pipe bench store: PostgreSQL %s, GOMAXPROCS %d; %s finished runs over %s to %s (UTC, before today), %s open; "+
		"scratch databases %s (dropped after)\n",
		r.Server, runtime.GOMAXPROCS(0), count(int64(o.Finished)), r.From, r.Today, count(int64(o.Open)), strings.Join(r.Databases, ", "))
}

func printFill(out io.Writer, f Fill) {
	fmt.Fprintf(out, "fill: %s finished + %s open runs and %s journal rows by COPY into pipe.runs and pipe.run_events in %.1f s "+
		"(%s rows/s, %s runs/s, %d streams); vacuum analyze %.1f s\n",
		count(f.Finished), count(f.Open), count(f.JournalRows), f.CopyMs/1000, count(int64(f.RowsPerSecond)),
		count(int64(f.RunsPerSecond)), f.Streams, f.VacuumMs/1000)
}

func printSizes(out io.Writer, s Sizes) {
	fmt.Fprintf(out, "size: runs %s (indexes %s), journal %s, total %s over %d partitions; %.0f B per finished run "+
		"(+%.0f B of journal); runs_open %s\n",
		bytes(s.RunsBytes), bytes(s.RunsIndexBytes), bytes(s.JournalBytes), bytes(s.TotalBytes), s.Partitions,
		s.BytesPerFinishedRun, s.JournalBytesPerFinishedRun, bytes(s.OpenBytes))
}

func printReads(out io.Writer, reads []Read, samples int) {
	fmt.Fprintf(out, "reads (%d timed calls each through pipeline.Admin; plan: EXPLAIN (FORMAT JSON) of the statement Admin sent):\n", samples)
	fmt.Fprintf(out, "  %-30s %8s %8s %8s %5s  %s\n", "read", "p50 ms", "p99 ms", "max ms", "rows", "plan")
	for _, r := range reads {
		fmt.Fprintf(out, "  %-30s %8.2f %8.2f %8.2f %5d  %s\n", r.Name, r.P50Ms, r.P99Ms, r.MaxMs, r.Rows, strings.Join(r.Plans, " | "))
	}
}

func printPages(out io.Writer, pages []Page, samples int) {
	fmt.Fprintf(out, "console pages (%d GETs each over HTTP on loopback, timed to the document's last byte):\n", samples)
	fmt.Fprintf(out, "  %-30s %8s %8s %8s %8s  %s\n", "page", "p50 ms", "p99 ms", "max ms", "bytes", "last path")
	for _, p := range pages {
		fmt.Fprintf(out, "  %-30s %8.2f %8.2f %8.2f %8d  %s\n", p.Name, p.P50Ms, p.P99Ms, p.MaxMs, p.Bytes, p.Path)
	}
}

func printThroughput(out io.Writer, t Throughput) {
	f, e := t.Full, t.Empty
	fmt.Fprintf(out, "throughput (%s no-op runs per store and round, %d rounds taking turns, the best counts; worker: %s):\n",
		count(int64(f.Jobs)), t.Rounds, t.Worker)
	fmt.Fprintf(out, "  %-28s %18s %18s %10s\n", "", "full store", "empty store", "full/empty")
	fmt.Fprintf(out, "  %-28s %16s/s %16s/s %10.2f\n", "enqueue-many (batches 1000)", count(int64(f.EnqueuePerSecond)), count(int64(e.EnqueuePerSecond)), t.EnqueueRatio)
	fmt.Fprintf(out, "  %-28s %16s/s %16s/s %10.2f\n", "work-down", count(int64(f.WorkPerSecond)), count(int64(e.WorkPerSecond)), t.WorkRatio)
	fmt.Fprintf(out, "  %-28s %18s %18s %10.2f\n", "claim p50 / p99 ms", pair(f.Claim), pair(e.Claim), t.ClaimP50Ratio)
	fmt.Fprintf(out, "  %-28s %18s %18s\n", "enqueue-many rounds /s", rates(f.EnqueueRounds), rates(e.EnqueueRounds))
	fmt.Fprintf(out, "  %-28s %18s %18s\n", "work-down rounds /s", rates(f.WorkRounds), rates(e.WorkRounds))
	fmt.Fprintf(out, "  %-28s %18s %18s\n", "claims timed", strconv.Itoa(f.Claim.Samples), strconv.Itoa(e.Claim.Samples))
	fmt.Fprintf(out, "  %-28s %18s %18s\n", "settle p50 / p99 ms", pair(f.Settle), pair(e.Settle))
	fmt.Fprintf(out, "  %-28s %18s %18s\n", "enqueue stmt p50 / p99 ms", pair(f.EnqueueStatement), pair(e.EnqueueStatement))
}

// about marks a count read off the statistics.
func about(estimated bool) string {
	if estimated {
		return "~"
	}
	return ""
}

func printDrop(out io.Writer, d Drop) {
	fmt.Fprintf(out, "drop a day: Maintain(Retention{Done: %s}) dropped %d partitions (day %s, runs and journal, with the empty edge below) "+
		"and %s%s runs in %.0f ms\n", d.RetentionDone, d.PartitionsDropped, d.Day, about(d.PurgedEstimated), count(d.Purged), d.MaintainMs)
	for i, s := range d.During {
		b := d.Before[i]
		fmt.Fprintf(out, "  %-9s during the drop: %4d statements, p50 %.2f ms, max %.2f ms (the second before: %d, max %.2f ms)\n",
			s.Kind, s.Samples, s.P50Ms, s.MaxMs, b.Samples, b.MaxMs)
	}
	fmt.Fprintf(out, "  stream: %s runs enqueued one at a time, 2ms apart (wake throttle 2ms), every one worked\n", count(d.Enqueued))
}

// rates writes every round's rate.
func rates(rs []float64) string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = count(int64(r))
	}
	return strings.Join(out, " ")
}

func pair(l Latency) string { return fmt.Sprintf("%.2f / %.2f", l.P50Ms, l.P99Ms) }

// count writes n with thousands separators.
func count(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// bytes writes n in binary units.
func bytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	f, u := float64(n), 0
	units := []string{"KiB", "MiB", "GiB", "TiB"}
	for f /= unit; f >= unit && u < len(units)-1; f /= unit {
		u++
	}
	return fmt.Sprintf("%.1f %s", f, units[u])
}
