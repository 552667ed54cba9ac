package pipecli

import (
	"context"
	"fmt"
	"io"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/spf13/cobra"
)

// Env is what a command added through [Options.Commands] reaches of the
// command line it runs in: its streams, --json, and its database, found as
// every stock command finds it (--database-url, else DATABASE_URL, else the
// embedded default). The flags parse after the commands are built, so read
// them when the command runs.
type Env struct{ a *app }

// Stdout is where the command prints its output.
func (e Env) Stdout() io.Writer { return e.a.stdout }

// Stderr is where notices and logs go.
func (e Env) Stderr() io.Writer { return e.a.stderr }

// JSON reports whether the command line asked for --json: then the command
// prints one JSON document on Stdout (see [Env.PrintJSON]).
func (e Env) JSON() bool { return e.a.json }

// Connect answers a pool on the command line's database with pipe's schema
// in place: the embedded default is migrated on the spot, another database
// must have been (X_CONFIG_INVALID otherwise). Its connections are named
// after the command in pg_stat_activity. The caller closes it.
func (e Env) Connect(ctx context.Context) (*pgxpool.Pool, error) { return e.a.connect(ctx, migrated) }

// DatabaseURL answers the database's URL, for a process the command starts
// on the same database. It may hold a password: never print it.
func (e Env) DatabaseURL(ctx context.Context) (string, error) {
	url, _, err := e.a.resolveURL(ctx)
	return url, err
}

// PrintJSON writes v on Stdout as indented JSON, as the stock commands'
// --json output is.
func (e Env) PrintJSON(v any) error { return printJSON(e.a.stdout, v) }

// UsageError answers the error of a command line that does not parse:
// X_CONFIG_INVALID, fix "see `CMD --help`", exit 2. format must not quote
// user data.
func UsageError(c *cobra.Command, format string, args ...any) error {
	return usageError(c, format, args...)
}

// NoArgs is the argument check of a command that takes none: positional
// arguments are a [UsageError].
func NoArgs(c *cobra.Command, args []string) error { return noArgs(c, args) }

// Group answers a command that only holds subcommands, as `pipe jobs` does:
// bare, it prints its help; with an unknown subcommand, it is a
// [UsageError].
func Group(use, short string, subs ...*cobra.Command) *cobra.Command {
	return group(use, short, subs...)
}

// addCommands adds the commands of opts.Commands to root. A name the root
// already has is a programmer's error, caught at the first run.
func (a *app) addCommands(root *cobra.Command) {
	for _, build := range a.opts.Commands {
		c := build(Env{a})
		for _, have := range root.Commands() {
			if have.Name() == c.Name() {
				panic(fmt.Sprintf("pipecli: Options.Commands adds a second %q command", c.Name()))
			}
		}
		root.AddCommand(c)
	}
}
