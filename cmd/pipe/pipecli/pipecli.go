package pipecli

import (
	"context"
	"io"
	"log/slog"
	"os"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/pipeline"
)

// Options configure [Execute]. The zero value is the stock pipe with no jobs
// of its own.
type Options struct {
	// Jobs are the jobs `pipe worker` runs beside pipe's own (pipe.import,
	// pipe.export, the subject jobs, pipe.maintain). Default none.
	Jobs []pipeline.Registrable
	// Tasks are the scheduled tasks this pipe declares, beside the stock
	// hourly maintenance. `pipe worker` and `pipe dev` run a scheduler beside
	// the worker, and `pipe tasks list` shows their cron, zone and next run.
	// The jobs the tasks enqueue belong in Jobs. Default none.
	Tasks []*pipeline.Task
	// NoMaintenance leaves out the hourly maintenance `pipe worker` and
	// `pipe dev` otherwise run: the job pipe.maintain and its task
	// (pipeline.MaintenanceJob and MaintenanceTask), which purge finished
	// runs past their retention (done 14 days, dead 90) and roll the
	// counters into their tiers, as `pipe maintain` does once. Set it when
	// the fleet runs `pipe maintain` from cron. An application that
	// declares a job or a task named pipe.maintain (its own retention) runs
	// it instead of the stock one.
	NoMaintenance bool
	// Receivers are the inbound webhooks (webhook.NewReceiver) `pipe serve`
	// mounts at their paths; their jobs run in `pipe worker` beside Jobs
	// (listing one in Jobs too is the same job). Default none.
	Receivers []Receiver
	// Commands add commands beside the stock ones: each function is called
	// once per Execute, with the command line's [Env], and answers a command
	// for the root. A name the stock pipe already uses panics. Default none.
	// The stock binary adds `pipe bench` this way (package
	// github.com/pipekit/pipe/cmd/pipe/bench), so an application's pipe does
	// not link the benches.
	Commands []func(Env) *cobra.Command
	// Stdin feeds the commands that read input (`pipe mcp` reads its client's
	// requests). Default os.Stdin.
	Stdin io.Reader
	// Stdout receives command output. Default os.Stdout.
	Stdout io.Writer
	// Stderr receives errors, notices and worker logs. Default os.Stderr.
	Stderr io.Writer
	// DataDir is the embedded default's data directory, used when neither
	// --database-url nor DATABASE_URL names a database. Default
	// pgserver.DefaultDir(): ~/.local/share/pipe/postgres (or under
	// $XDG_DATA_HOME); /var/lib/pipe/postgres for root.
	DataDir string
}

// Exit codes.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
	// exitRefused: the run completed, but refused rows (an import's, into
	// its error report).
	exitRefused = 3
)

// app is one Execute: the options, the global flags and the streams.
type app struct {
	opts        Options
	stdin       io.Reader
	stdout      io.Writer
	stderr      io.Writer
	databaseURL string
	listenURL   string
	json        bool
	// replicaURL is --replica-url, of the commands that run exports, and
	// replica its pool once opened (nil without one).
	replicaURL string
	replica    *pgxpool.Pool
	// started is set once the command line parsed and a command began; an
	// uncoded error before that is a usage error.
	started bool
	// command is the running command's path ("pipe subject erase").
	command string
	// clusterDir is the private PostgreSQL's data directory once a command
	// connected to it ("" for a database named by URL).
	clusterDir string
	// log is the command's logger, made at its first use (see logger).
	log *slog.Logger
}

// Execute runs the pipe command line args (without the program name) and
// answers the process exit code: 0 on success, 1 on a failure, 2 on a
// command line that does not parse, 3 on an import that completed with
// refused rows. Failures are printed on opts.Stderr as
// the coded error and its fix. ctx bounds the command; a worker also stops on
// SIGINT or SIGTERM.
func Execute(ctx context.Context, args []string, opts Options) int {
	a := newApp(opts)
	root := a.rootCommand()
	if args == nil {
		args = []string{} // cobra reads os.Args when given nil
	}
	root.SetArgs(args)
	_, err := root.ExecuteContextC(ctx)
	if err == nil {
		return exitOK
	}
	// The --json flag may not have parsed when the command line did not.
	a.json = a.json || wantsJSON(args)
	return a.fail(err)
}

// Command answers the root command [Execute] runs with opts, not run: the
// tree of commands and flags that `pipe --help` shows, for a reference
// generated from it. Running it is [Execute]'s work.
func Command(opts Options) *cobra.Command { return newApp(opts).rootCommand() }

// newApp answers the app of one command line, its streams defaulted.
func newApp(opts Options) *app {
	a := &app{opts: withMaintenance(opts), stdin: opts.Stdin, stdout: opts.Stdout, stderr: opts.Stderr}
	if a.stdin == nil {
		a.stdin = os.Stdin
	}
	if a.stdout == nil {
		a.stdout = os.Stdout
	}
	if a.stderr == nil {
		a.stderr = os.Stderr
	}
	return a
}

func (a *app) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "pipe",
		Short: "Durable bulk data work on PostgreSQL",
		Long: "pipe runs and inspects durable jobs on PostgreSQL.\n\n" +
			"With no --database-url and no DATABASE_URL, pipe uses a private PostgreSQL cluster\n" +
			"that it creates and starts itself (the embedded default). Try `pipe demo`.",
		SilenceErrors: true,
		SilenceUsage:  true,
		PersistentPreRunE: func(c *cobra.Command, _ []string) error {
			// Cobra checks flag groups after this hook; check them here so
			// that a violation is reported as a usage error.
			if err := c.ValidateRequiredFlags(); err != nil {
				return usageError(c, "%s", err.Error())
			}
			if err := c.ValidateFlagGroups(); err != nil {
				return usageError(c, "%s", err.Error())
			}
			a.started, a.command = true, c.CommandPath()
			return nil
		},
	}
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usageError(c, "%s", err.Error()) })
	pf := root.PersistentFlags()
	pf.StringVar(&a.databaseURL, "database-url", "", "PostgreSQL URL (default $DATABASE_URL, else the private cluster)")
	pf.StringVar(&a.listenURL, "listen-url", "", "PostgreSQL URL for the worker's LISTEN wake when the database URL leads through a transaction pooler such as PgBouncer: a direct or session-pooled one (default $PIPE_LISTEN_URL, else the database URL)")
	pf.BoolVar(&a.json, "json", false, "print JSON instead of text")
	root.AddCommand(
		a.migrateCommand(),
		a.workerCommand(),
		a.jobsCommand(),
		a.queuesCommand(),
		a.tasksCommand(),
		a.workersCommand(),
		a.statsCommand(),
		a.maintainCommand(),
		a.devCommand(),
		a.demoCommand(),
		a.importCommand(),
		a.exportCommand(),
		a.subjectCommand(),
		a.verifyCommand(), a.rollupCommand(), a.viewsCommand(), a.backfillCommand(),
		a.mcpCommand(), a.consoleCommand(), a.outboxCommand(),
	)
	root.AddCommand(a.webhooksCommand(), a.serveCommand(), a.grantsCommand())
	a.addCommands(root)
	return root
}

// group answers a command that only holds subcommands: bare, it prints its
// help; with an unknown subcommand, it is a usage error.
func group(use, short string, subs ...*cobra.Command) *cobra.Command {
	c := &cobra.Command{
		Use:   use,
		Short: short,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageError(c, "unknown command %s", args[0])
			}
			return nil
		},
		RunE: func(c *cobra.Command, _ []string) error { return c.Help() },
	}
	c.AddCommand(subs...)
	return c
}

// wantsJSON reports whether args ask for --json, for errors that came before
// the flags parsed.
func wantsJSON(args []string) bool {
	for _, arg := range args {
		switch arg {
		case "--":
			return false
		case "--json", "--json=true", "--json=1":
			return true
		}
	}
	return false
}
