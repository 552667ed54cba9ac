package pipecli

import (
	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/project"
)

// configFlag adds --config to c, the project file the command reads.
func configFlag(c *cobra.Command, path *string) {
	c.Flags().StringVar(path, "config", "", "a project file (pipe.json) declaring rollups, view refreshes and their tasks")
}

// useProject loads the project file at path, when one is named, and adds its
// jobs and tasks to the ones this pipe was built with, so that the worker's
// registry and the scheduler run them. It answers the project, or nil.
func (a *app) useProject(path string) (*project.Project, error) {
	if path == "" {
		return nil, nil
	}
	listen, err := a.listenConfig()
	if err != nil {
		return nil, err
	}
	p, err := project.Load(path, project.WithLogger(a.logger()), project.WithListen(listen))
	if err != nil {
		return nil, err
	}
	a.opts.Jobs = append(append([]pipeline.Registrable{}, a.opts.Jobs...), p.Jobs()...)
	a.opts.Tasks = append(append(a.opts.Tasks[:0:0], a.opts.Tasks...), p.Tasks...)
	return p, nil
}

// manifests loads the project file at config, when one is named, and
// answers the manifest rows of every job this pipe runs: its own, the
// application's and the file's.
func (a *app) manifests(config string) ([]pipeline.Manifest, error) {
	if _, err := a.useProject(config); err != nil {
		return nil, err
	}
	reg, err := a.registry()
	if err != nil {
		return nil, err
	}
	return reg.Manifests(), nil
}
