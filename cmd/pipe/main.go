// Command pipe drives pipe's job core from a shell: migrate, run a worker,
// inspect and steer jobs, import and export, benchmark, and try the demo.
// The commands live in package pipecli so that an application can build its
// own pipe with its jobs; the benches live in package bench, which only this
// stock binary adds.
package main

import (
	"context"
	"os"

	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/cmd/pipe/bench"
	"github.com/pipekit/pipe/cmd/pipe/pipecli"
	"github.com/pipekit/pipe/pipeline"
)

func main() {
	// `pipe bench jobs`, `import` and `export` re-execute pipe as their
	// helper processes.
	bench.HelperMain()
	os.Exit(pipecli.Execute(context.Background(), os.Args[1:], stockOptions()))
}

// stockOptions are the stock pipe's: the demo's job and the bench room.
func stockOptions() pipecli.Options {
	return pipecli.Options{
		Jobs:     []pipeline.Registrable{pipecli.DemoJob()},
		Commands: []func(pipecli.Env) *cobra.Command{bench.Command},
	}
}
