package pipecli_test

import (
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pipekit/pipe/cmd/pipe/pipecli"
	"github.com/pipekit/pipe/devtools"
	"github.com/pipekit/pipe/pipeline"
)

// TestMCPServesTheDevToolsOnStdio runs `pipe mcp` with its stdin and stdout
// wired to the SDK's client, as an agent that spawned it would be.
func TestMCPServesTheDevToolsOnStdio(t *testing.T) {
	b := setup(t)
	id := b.enqueueDemo(t, "ada")
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan result, 1)
	go func() {
		var stderr strings.Builder
		code := pipecli.Execute(t.Context(), []string{"--database-url", b.url, "mcp"},
			pipecli.Options{Jobs: []pipeline.Registrable{pipecli.DemoJob()}, Stdin: inR, Stdout: outW, Stderr: &stderr})
		_ = outW.Close()
		done <- result{stderr: stderr.String(), code: code}
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent"}, nil).
		Connect(t.Context(), &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	structured := func(tool string, args map[string]any, out any) {
		t.Helper()
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v", tool, err, res)
		}
		raw, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatal(err)
		}
	}
	var inspect devtools.InspectResult
	structured("jobs.inspect", nil, &inspect)
	names := []string{}
	for _, m := range inspect.Jobs {
		names = append(names, m.Name)
	}
	if got := strings.Join(names, " "); got != "demo.onboard pipe.export pipe.import pipe.import.range pipe.maintain pipe.subject.erase pipe.subject.export pipe.views.refresh" {
		t.Fatalf("jobs.inspect lists %q: not pipe's own jobs and the app's", got)
	}
	var depth devtools.DepthResult
	structured("queue.depth", map[string]any{"queue": "default"}, &depth)
	if len(depth.Queues) != 1 || depth.Queues[0].Pending != 1 {
		t.Fatalf("queue.depth %+v", depth)
	}
	var d pipeline.RunDetail
	structured("jobs.show", map[string]any{"id": id}, &d)
	if d.ID != id || d.Name != "demo.onboard" || d.State != pipeline.StateReady {
		t.Fatalf("jobs.show %+v", d.JobRow)
	}
	if err := cs.Close(); err != nil {
		t.Fatal(err)
	}
	_ = inW.Close()
	if r := <-done; r.code != 0 {
		t.Fatalf("pipe mcp exited %d: %s", r.code, r.stderr)
	}
}

func TestJobsManifestListsEveryJobsOwnDescribe(t *testing.T) {
	opts := pipecli.Options{Jobs: []pipeline.Registrable{pipecli.DemoJob()}}
	r := execute(t.Context(), opts, "jobs", "manifest", "--json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var rows []pipeline.Manifest
	if err := json.Unmarshal([]byte(r.stdout), &rows); err != nil {
		t.Fatal(err)
	}
	want := map[string]pipeline.Manifest{}
	for _, j := range []pipeline.Registrable{pipecli.DemoJob()} {
		want[j.Name()] = j.Describe()
	}
	found := false
	for _, m := range rows {
		if w, ok := want[m.Name]; ok {
			found = true
			if m.Queue != w.Queue || m.Retry != w.Retry || !m.Idempotent || m.EventPollMs != w.EventPollMs {
				t.Fatalf("the manifest row of %s is %+v, its Describe() %+v", m.Name, m, w)
			}
		}
	}
	if !found || len(rows) != 7 {
		t.Fatalf("manifest rows %d, the app's job found %v", len(rows), found)
	}
	text := execute(t.Context(), opts, "jobs", "manifest")
	if text.code != 0 || !strings.Contains(text.stdout, "demo.onboard") || !strings.Contains(text.stdout, "EVENT POLL") {
		t.Fatalf("text manifest: %d %s", text.code, text.stdout)
	}
}
