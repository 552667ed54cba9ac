package pipecli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/pipeline"
)

// migrateResult is what `pipe migrate --json` prints.
type migrateResult struct {
	Applied []int `json:"applied"`
	Version int   `json:"version"`
}

func (a *app) migrateCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "migrate",
		Short: "Apply pipe's schema migrations (safe to re-run)",
		Long: "migrate creates or updates pipe's schema (\"pipe\") in the database. Re-running it is a\n" +
			"no-op, and two processes migrating at once apply each version once.",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			pool, err := a.connect(c.Context(), anySchema)
			if err != nil {
				return err
			}
			defer pool.Close()
			applied, err := pipeline.Migrate(c.Context(), pool)
			if err != nil {
				return err
			}
			res := migrateResult{Applied: applied, Version: pipeline.LatestMigration()}
			if res.Applied == nil {
				res.Applied = []int{}
			}
			if a.json {
				return printJSON(a.stdout, res)
			}
			if len(applied) == 0 {
				_, err = fmt.Fprintf(a.stdout, "up to date (version %d)\n", res.Version)
				return err
			}
			_, err = fmt.Fprintf(a.stdout, "applied %s (now at version %d)\n", versions(applied), res.Version)
			return err
		},
	}
}

func versions(vs []int) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = strconv.Itoa(v)
	}
	if len(s) == 1 {
		return "version " + s[0]
	}
	return "versions " + strings.Join(s, ", ")
}
