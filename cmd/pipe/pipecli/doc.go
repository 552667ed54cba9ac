// Package pipecli is the pipe command-line tool as a library: the stock
// binary (cmd/pipe) is a call to [Execute], and an application builds its own
// pipe, with its own jobs, the same way:
//
//	func main() {
//		jobs := []pipeline.Registrable{importOrders, exportInvoices}
//		os.Exit(pipecli.Execute(context.Background(), os.Args[1:], pipecli.Options{Jobs: jobs}))
//	}
//
// # Commands
//
//	pipe migrate                      apply pipe's schema migrations
//	pipe worker                       run the registered jobs until SIGINT/SIGTERM
//	pipe jobs list                    list jobs, newest first, a page at a time
//	pipe jobs show ID                 one run: its row, steps, last error and journal
//	pipe jobs retry ID                requeue a finished run (--from-step to rewind)
//	pipe jobs cancel ID               stop a live run
//	pipe jobs promote ID              run a delayed or backing-off run now
//	pipe jobs remove ID               delete a run and its journal
//	pipe jobs resolve-step ID STEP    settle a once-step whose outcome is unknown
//	pipe demo                         a three-step job that fails once and recovers
//	pipe bench jobs                   measure enqueue, work, steps and pickup latency
//
// # The database
//
// --database-url, else DATABASE_URL, names the database. With neither, pipe
// uses the embedded default: a private PostgreSQL cluster it initialises and
// starts itself from the machine's PostgreSQL binaries (see
// internal/pgserver), in [Options.DataDir]; the cluster is left running for
// the next command, and its schema is migrated automatically. With a URL,
// every command but migrate first checks that the schema is migrated and
// answers X_CONFIG_INVALID, fix "run `pipe migrate`", when it is not.
//
// # Output and failures
//
// Every command that prints takes --json and then prints one JSON document on
// stdout. A failure prints
//
//	error X_CODE: message
//	fix: what to do about it
//
// on stderr (with --json, one object {"code","message","fix"}) and exits 1;
// a command line that does not parse (unknown command or flag, wrong
// arguments, conflicting flags) exits 2 with code X_CONFIG_INVALID. Messages
// never quote a job's input: they name jobs, steps and states, not data.
package pipecli
