package pipecli

import (
	"io"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/devtools"
	"github.com/pipekit/pipe/pipeline"
)

func (a *app) mcpCommand() *cobra.Command {
	var config string
	c := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the read-only MCP dev tools on stdin and stdout",
		Long: "mcp serves a Model Context Protocol server on stdin and stdout for a coding agent: the\n" +
			"read-only tools jobs.inspect (every job's manifest row, as `pipe jobs manifest`),\n" +
			"queue.depth (pending, running and failed runs per queue), jobs.list and jobs.show (as\n" +
			"`pipe jobs list` and `pipe jobs show`). No tool changes a run. It serves until the\n" +
			"client closes stdin. Register it with an agent as the command `pipe mcp` (add\n" +
			"--database-url or set DATABASE_URL for a database other than the embedded default).",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			manifests, err := a.manifests(config)
			if err != nil {
				return err
			}
			pool, err := a.connect(c.Context(), migrated)
			if err != nil {
				return err
			}
			defer pool.Close()
			srv := devtools.NewServer(pipeline.NewAdmin(pool), manifests)
			return srv.Run(c.Context(), &mcp.IOTransport{Reader: io.NopCloser(a.stdin), Writer: nopWriteCloser{a.stdout}})
		},
	}
	configFlag(c, &config)
	return c
}

// nopWriteCloser is a writer whose Close leaves the stream open: stdout
// belongs to the process, not to the session.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
