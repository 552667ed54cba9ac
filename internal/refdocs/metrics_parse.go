package refdocs

import (
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
)

// metricSource is what a collector's package source says of its metrics.
type metricSource struct {
	synopsis string
	kinds    map[string]string // metric name → counter, gauge or untyped
}

// valueKinds names the prometheus.ValueType constants.
var valueKinds = map[string]string{"CounterValue": "counter", "GaugeValue": "gauge", "UntypedValue": "untyped"}

// parseMetrics reads the package in dir: its synopsis, and each metric's
// type, from the field its description is kept in (the key of the
// composite literal holding prometheus.NewDesc("name", ...)) and the
// value type prometheus.MustNewConstMetric sends that field's metric with.
func parseMetrics(dir string) (metricSource, error) {
	src := metricSource{kinds: map[string]string{}}
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return src, err
	}
	names, kinds := map[string]string{}, map[string]string{}
	fset := token.NewFileSet()
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return src, err
		}
		if f.Doc != nil {
			src.synopsis = new(doc.Package).Synopsis(f.Doc.Text())
		}
		ast.Inspect(f, func(n ast.Node) bool {
			descField(n, names)
			sentKind(n, kinds)
			return true
		})
	}
	for field, name := range names {
		if kinds[field] != "" {
			src.kinds[name] = kinds[field]
		}
	}
	return src, nil
}

// descField records field: prometheus.NewDesc("name", ...) in names.
func descField(n ast.Node, names map[string]string) {
	kv, ok := n.(*ast.KeyValueExpr)
	if !ok {
		return
	}
	key, ok := kv.Key.(*ast.Ident)
	call, isCall := kv.Value.(*ast.CallExpr)
	if !ok || !isCall || !calls(call, "prometheus", "NewDesc") || len(call.Args) == 0 {
		return
	}
	if name, ok := stringValue(call.Args[0]); ok {
		names[key.Name] = name
	}
}

// sentKind records prometheus.MustNewConstMetric(c.field,
// prometheus.KindValue, ...) in kinds.
func sentKind(n ast.Node, kinds map[string]string) {
	call, ok := n.(*ast.CallExpr)
	if !ok || !calls(call, "prometheus", "MustNewConstMetric") || len(call.Args) < 2 {
		return
	}
	field, ok := call.Args[0].(*ast.SelectorExpr)
	kind, isSel := call.Args[1].(*ast.SelectorExpr)
	if ok && isSel && valueKinds[kind.Sel.Name] != "" {
		kinds[field.Sel.Name] = valueKinds[kind.Sel.Name]
	}
}

// calls reports whether call calls pkg.name.
func calls(call *ast.CallExpr, pkg, name string) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == pkg
}

// parseDesc reads a description's name, help and labels from its String
// form, the only way client_golang shows them: Desc{fqName: "n", help: "h",
// ..., constLabels: {k="v"}, variableLabels: {a,b}}.
func parseDesc(d *prometheus.Desc) (metric, error) {
	if err := d.Err(); err != nil {
		return metric{}, err
	}
	s := d.String()
	rest, ok := strings.CutPrefix(s, "Desc{fqName: ")
	name, rest, ok := quoted(rest, ok)
	rest, isHelp := strings.CutPrefix(rest, ", help: ")
	help, rest, ok := quoted(rest, ok && isHelp)
	constant, okC := braced(rest, "constLabels: {")
	variable, okV := braced(rest, "variableLabels: {")
	if !ok || !okC || !okV {
		return metric{}, fmt.Errorf("cannot read the metric description %s", s)
	}
	m := metric{name: name, help: help}
	for _, l := range strings.Split(variable, ",") {
		if l = strings.TrimSuffix(strings.TrimPrefix(l, "c("), ")"); l != "" {
			m.labels = append(m.labels, l)
		}
	}
	for _, l := range strings.Split(constant, ",") {
		if l != "" {
			m.labels = append(m.labels, l)
		}
	}
	return m, nil
}

// braced answers what s holds between open and the next "}".
func braced(s, open string) (string, bool) {
	_, after, ok := strings.Cut(s, open)
	inside, _, closed := strings.Cut(after, "}")
	return inside, ok && closed
}

// quoted answers the Go-quoted string s starts with and what follows it,
// when ok.
func quoted(s string, ok bool) (string, string, bool) {
	if !ok {
		return "", s, false
	}
	q, err := strconv.QuotedPrefix(s)
	if err != nil {
		return "", s, false
	}
	v, err := strconv.Unquote(q)
	return v, s[len(q):], err == nil
}
