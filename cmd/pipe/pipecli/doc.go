// Package pipecli is the pipe command-line tool as a library: the stock
// binary (cmd/pipe) is a call to [Execute], and an application builds its own
// pipe, with its own jobs, the same way:
//
//	func main() {
//		jobs := []pipeline.Registrable{importOrders, exportInvoices}
//		tasks := []*pipeline.Task{nightlyExport}
//		os.Exit(pipecli.Execute(context.Background(), os.Args[1:], pipecli.Options{Jobs: jobs, Tasks: tasks}))
//	}
//
// # Commands
//
//	pipe migrate                      apply pipe's schema migrations
//	pipe grants --role NAME           the SQL that lets a role run workers, CLI and console
//	pipe worker                       run the registered jobs (and tasks) until SIGINT/SIGTERM
//	pipe dev                          migrate, then run a worker, the scheduler and a live status line
//	pipe jobs list                    list jobs, newest first, a page at a time
//	pipe jobs show ID                 one run: its row, steps, last error and journal
//	pipe jobs retry ID                requeue a finished run (--from-step to rewind)
//	pipe jobs cancel ID               stop a live run
//	pipe jobs promote ID              run a delayed or backing-off run now
//	pipe jobs remove ID               delete a run and its journal
//	pipe jobs resolve-step ID STEP    settle a once-step whose outcome is unknown
//	pipe jobs manifest                every job this pipe runs, as its Describe() declares it
//	pipe mcp                          the read-only MCP dev tools on stdin and stdout
//	pipe console                      the web console (loopback; --token off it; --allow-actions)
//	pipe queues list                  queues with their depth per state and pause
//	pipe queues pause|resume QUEUE    stop or restart claiming from a queue, fleet-wide
//	pipe queues remove|requeue|promote --state S
//	                                  move up to 1,000 matching runs a call
//	pipe tasks list                   tasks: last fire, pause, next run
//	pipe tasks run TASK               queue a declared task's jobs now
//	pipe tasks pause|resume TASK      stop or restart a task's fires, fleet-wide
//	pipe workers                      the running workers
//	pipe stats                        runs done, retried, failed and dead per job (--since 24h)
//	pipe maintain                     purge past retention and roll up counters, once
//	pipe import SOURCE --into TABLE   import a CSV, NDJSON or Parquet file into a table (pipe.import)
//	pipe export TABLE --to PREFIX     export a table to CSV, NDJSON or Parquet objects (pipe.export)
//	pipe subject plan --config FILE   walk a subject declaration: reached tables, treatments, order
//	pipe subject erase --config FILE --id KEY
//	                                  erase one person's data as declared
//	pipe subject export --config FILE --id KEY --to PREFIX
//	                                  export one person's data, one object per page per table
//	pipe subject proof --config FILE  seed canaries, erase a generated person, search every row
//	pipe verify                       check every declaration of pipe.json against the live catalog
//	pipe rollup run NAME              enqueue one run of a declared rollup now
//	pipe views refresh VIEW           enqueue one refresh of a materialized view now
//	pipe outbox status                each outbox stream's lag, oldest unpublished row, rate, dead rows
//	pipe outbox retry STREAM          release dead messages (and those held behind them) to publish
//	pipe outbox prune                 delete published outbox rows past --retain, once
//	pipe serve                        serve the registered webhook receivers, /metrics and /healthz
//	pipe webhooks endpoints add|list|enable|disable|rotate-secret
//	                                  the stock webhook endpoints (pipe.webhook_endpoints)
//	pipe webhooks deliveries          delivery attempts from the stock ledger (--endpoint, --event)
//	pipe backfill run NAME            enqueue (--wait: run here) one pass of a declared backfill
//	pipe backfill list|show           the ledger of backfill passes: cursor, rows, rate, ETA
//	pipe backfill pause|resume|cancel RUN|NAME
//	                                  hold, release or stop a pass between batches
//	pipe demo                         import, export, roll up, refresh and erase on a small forum,
//	                                  then a three-step job that fails once and recovers
//	pipe completion SHELL             the shell's completion script
//	pipe help [COMMAND]               help on any command
//
// [Options.Commands] adds commands beside these. The stock binary adds
// `pipe bench jobs|import|export|consumer|subject|rollup` so (package
// github.com/pipekit/pipe/cmd/pipe/bench); a pipe built with Execute alone
// does not carry the benches.
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
// stdout (pipe dev, which runs until stopped, prints one object a status
// line). A failure prints
//
//	error X_CODE: message
//	fix: what to do about it
//
// on stderr (with --json, one object {"code","message","fix"}) and exits 1;
// a command line that does not parse (unknown command or flag, wrong
// arguments, conflicting flags) exits 2 with code X_CONFIG_INVALID. Messages
// never quote a job's input: they name jobs, steps and states, not data.
package pipecli
