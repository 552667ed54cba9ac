package refdocs

import (
	"fmt"
	"sort"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
)

// MetricSet is one package's Prometheus collector: its import path within
// the module as the page names it, the directory of its source (where the
// metrics' types and the package's synopsis are read) and a collector
// made by the package, which is only asked to describe its metrics.
type MetricSet struct {
	Package   string
	Dir       string
	Collector prometheus.Collector
}

// metric is one metric as the page lists it.
type metric struct {
	name, kind, help string
	labels           []string
}

// Metrics renders docs/reference/metrics.md from sets: each package's
// metrics, as its collector describes them (name, labels, help) and its
// source sends them (counter or gauge), sorted by name. A metric whose
// type the source does not show, or a name two sets share, is an error.
func Metrics(sets ...MetricSet) ([]byte, error) {
	var b strings.Builder
	b.WriteString("# Metrics\n\n")
	b.WriteString(generated("the Prometheus collectors of pipe's packages"))
	b.WriteString("\nEvery metric pipe's collectors export, by package. A label in the labels column " +
		"varies by series; one written name=\"value\" is constant.\n\n")
	seen := map[string]string{}
	for _, set := range sets {
		src, err := parseMetrics(set.Dir)
		if err != nil {
			return nil, err
		}
		metrics, err := describe(set, src.kinds)
		if err != nil {
			return nil, err
		}
		b.WriteString("## " + set.Package + "\n\n" + prose(src.synopsis, "") + "\n\n")
		var rows [][]string
		for _, m := range metrics {
			if other, dup := seen[m.name]; dup {
				return nil, fmt.Errorf("metric %s is both %s's and %s's", m.name, other, set.Package)
			}
			seen[m.name] = set.Package
			rows = append(rows, []string{code(m.name), code(m.kind), codes(m.labels), m.help})
		}
		table(&b, []string{"metric", "type", "labels", "help"}, rows)
	}
	return []byte(b.String()), nil
}

// describe answers the metrics set's collector describes, sorted by name,
// each with its type from kinds.
func describe(set MetricSet, kinds map[string]string) ([]metric, error) {
	ch := make(chan *prometheus.Desc)
	go func() {
		set.Collector.Describe(ch)
		close(ch)
	}()
	var out []metric
	var err error
	for d := range ch {
		m, derr := parseDesc(d)
		if derr == nil && kinds[m.name] == "" {
			derr = fmt.Errorf("the source in %s does not show the type of metric %s", set.Dir, m.name)
		}
		if derr != nil {
			err = derr // drain the channel before answering
			continue
		}
		m.kind = kinds[m.name]
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out, err
}
