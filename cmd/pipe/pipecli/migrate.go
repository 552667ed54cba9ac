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
	// Moved counts the finished runs of the layout before partitioning
	// moved into the partitions by this call.
	Moved int64 `json:"legacyRunsMoved"`
}

func (a *app) migrateCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "migrate",
		Short: "Apply pipe's schema migrations (safe to re-run)",
		Long: "migrate creates or updates pipe's schema (\"pipe\") in the database. Re-running it is a\n" +
			"no-op, and two processes migrating at once apply each version once. A database that\n" +
			"held runs before version 22 keeps its finished runs readable meanwhile and has them\n" +
			"moved into the partitions in batches of 5,000 after the migrations, with workers\n" +
			"running; a kill loses nothing and the next migrate (or the hourly maintenance) resumes.",
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
			moved, err := pipeline.MoveLegacyRuns(c.Context(), pool, 0, a.legacyProgress())
			if err != nil {
				return err
			}
			res := migrateResult{Applied: applied, Version: pipeline.LatestMigration(), Moved: moved}
			if res.Applied == nil {
				res.Applied = []int{}
			}
			if a.json {
				return printJSON(a.stdout, res)
			}
			if moved > 0 {
				fmt.Fprintf(a.stdout, "moved %d finished run(s) into the partitions\n", moved)
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

// legacyProgress reports the move of earlier runs on stderr, a line per
// 100,000 runs, so that a long move shows it is moving.
func (a *app) legacyProgress() func(int64) {
	var shown int64
	return func(moved int64) {
		if moved-shown >= 100000 {
			shown = moved
			fmt.Fprintf(a.stderr, "pipe: moved %d finished run(s) into the partitions so far\n", moved)
		}
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
