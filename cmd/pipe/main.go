// Command pipe drives pipe's job core from a shell: migrate, run a worker,
// inspect and steer jobs, benchmark, and try the demo. The commands live in
// package pipecli so that an application can build its own pipe with its
// jobs.
package main

import (
	"context"
	"os"

	"github.com/pipekit/pipe/cmd/pipe/bench/filebench"
	"github.com/pipekit/pipe/cmd/pipe/bench/jobbench"
	"github.com/pipekit/pipe/cmd/pipe/pipecli"
	"github.com/pipekit/pipe/internal/rsstrim"
	"github.com/pipekit/pipe/pipeline"
)

func main() {
	rsstrim.Trim()
	// `pipe bench jobs` and `pipe bench import` re-execute pipe as their
	// helper processes.
	jobbench.HelperMain()
	filebench.HelperMain()
	jobs := []pipeline.Registrable{pipecli.DemoJob()}
	os.Exit(pipecli.Execute(context.Background(), os.Args[1:], pipecli.Options{Jobs: jobs}))
}
