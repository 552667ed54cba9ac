package main

import (
	"flag"
	"os"
	"testing"

	"github.com/pipekit/pipe/cmd/pipe/pipecli"
	"github.com/pipekit/pipe/internal/refdocs"
	"github.com/pipekit/pipe/outbox/outboxmetrics"
	"github.com/pipekit/pipe/pipeline/pipemetrics"
	"github.com/pipekit/pipe/project"
)

var updateRefs = flag.Bool("update", false, "rewrite docs/reference from the code (or set PIPE_UPDATE_REFS=1)")

// Every page of docs/reference is what the code renders now: change a
// command, a flag, an error code, a field of pipe.json or a metric and this
// test fails until the pages are regenerated (refdocs.Regenerate).
func TestTheReferencePagesAreCurrent(t *testing.T) {
	update := *updateRefs || os.Getenv("PIPE_UPDATE_REFS") == "1"
	for _, page := range referencePages(t) {
		if err := page.Check("../..", update); err != nil {
			t.Error(err)
		}
	}
}

// referencePages renders the pages from the stock binary's code.
func referencePages(t *testing.T) []refdocs.Page {
	t.Helper()
	errs, err := refdocs.Errors("../../errcode")
	if err != nil {
		t.Fatal(err)
	}
	config, err := refdocs.Config(project.SchemaJSON())
	if err != nil {
		t.Fatal(err)
	}
	metrics, err := refdocs.Metrics(
		refdocs.MetricSet{Package: "pipeline/pipemetrics", Dir: "../../pipeline/pipemetrics", Collector: pipemetrics.New(nil)},
		refdocs.MetricSet{Package: "outbox/outboxmetrics", Dir: "../../outbox/outboxmetrics", Collector: outboxmetrics.New(nil)},
	)
	if err != nil {
		t.Fatal(err)
	}
	return []refdocs.Page{
		{Path: "docs/reference/cli.md", Body: refdocs.CLI(pipecli.Command(stockOptions()))},
		{Path: "docs/reference/errors.md", Body: errs},
		{Path: "docs/reference/config.md", Body: config},
		{Path: "docs/reference/pipe.schema.json", Body: project.SchemaJSON()},
		{Path: "docs/reference/metrics.md", Body: metrics},
	}
}
