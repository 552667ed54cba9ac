#!/usr/bin/env bash
# Runs pipe's benches beside their anchors on one PostgreSQL server and prints both, so that
# every figure of the README can be reproduced from this repository alone.
#
# Usage: bench/run-anchors.sh [jobs] [import] [export] [csv] [outbox]     (no section: all five)
#
#   jobs    River (anchors/riverbench: insert, work, latency) and DBOS (anchors/dbosbench -mode
#           direct), then `pipe bench jobs`, each on a fresh database of its own
#   import  the orders file of anchors/gen_orders.py, loaded by anchors/import-anchors.sh (\copy,
#           copy+upsert, pgloader if installed), then `pipe bench import --file` on the same file
#           (which times its own copy+upsert anchor too)
#   export  `pipe bench export` (its anchor, COPY TO into a file, is timed in the same process)
#   csv     anchors/csvspeed (encoding/csv, an IndexAny scan) on the orders file, then pipe's
#           record-end finder (go test -bench Scan ./importrows/internal/split/)
#   outbox  anchors/watermillfwd (Watermill's forwarder: watermill-sql staged rows relayed to NATS
#           JetStream) at subscriber batches 100 and 1,000, then `pipe bench outbox` (which times
#           the spec's relay loop as its own anchor) at relay batches 500 and 1,000; needs NATS
#           with JetStream at $NATS. Debezium's outbox router is not run: it needs Kafka Connect
#           and a Kafka broker, which this script does not install
#
# Environment:
#   PGURL   a URL of the server whose role may create databases
#           (default postgres://postgres@127.0.0.1:5432/postgres); each section creates the
#           databases it measures in (pipe_anchor_river, _dbos, _import, _watermill, _pipe) and
#           drops them after
#   ROWS    orders in the import, export and csv files (default 1000000: about 117 MB)
#   ROUNDS  how many times the jobs section runs, alternating anchor and pipe (default 1)
#   N       jobs River inserts and works and pipe enqueues and works, and rows the outbox
#           section relays (default 100000)
#   BACKLOG jobs queued beside pipe's pickup-backlog figure (default 1000000)
#   NATS    the NATS JetStream server of the outbox section (default nats://127.0.0.1:4222)
#
# Needs go, psql, python3 and bc; pgloader is optional. The anchors are Go modules of their own
# (bench/anchors/*/go.mod), built here from the module proxy, so the pipe module never depends
# on River, DBOS or Watermill.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
anchors=$root/bench/anchors
PGURL=${PGURL:-postgres://postgres@127.0.0.1:5432/postgres}
ROWS=${ROWS:-1000000}
ROUNDS=${ROUNDS:-1}
N=${N:-100000}
BACKLOG=${BACKLOG:-1000000}
NATS=${NATS:-nats://127.0.0.1:4222}
sections=("$@")
[[ ${#sections[@]} -eq 0 ]] && sections=(jobs import export csv outbox)

work=$(mktemp -d -t pipe-anchors-XXXXXX)
databases=(pipe_anchor_river pipe_anchor_dbos pipe_anchor_import pipe_anchor_pipe pipe_anchor_watermill)
cleanup() {
	for db in "${databases[@]}"; do
		psql -q -X "$PGURL" -c "drop database if exists $db with (force)" >/dev/null 2>&1 || true
	done
	rm -rf "$work"
}
trap cleanup EXIT

say() { printf '\n== %s\n' "$*"; }

# dburl NAME answers PGURL with its database replaced by NAME, query parameters kept.
dburl() {
	local base=${PGURL%%\?*} query=""
	[[ $PGURL == *\?* ]] && query="?${PGURL#*\?}"
	printf '%s/%s%s' "${base%/*}" "$1" "$query"
}

# fresh NAME drops and creates database NAME and answers its URL.
fresh() {
	PGOPTIONS="-c client_min_messages=warning" psql -q -X -v ON_ERROR_STOP=1 "$PGURL" -c "drop database if exists $1 with (force)" -c "create database $1" >/dev/null
	dburl "$1"
}

build() {
	say "building pipe and the anchors"
	(cd "$root" && go build -o "$work/pipe" ./cmd/pipe)
	for a in riverbench dbosbench csvspeed watermillfwd; do
		(cd "$anchors/$a" && go build -o "$work/$a" .)
	done
	echo "pipe $(cd "$root" && git rev-parse --short HEAD 2>/dev/null || echo '(no git)'), go $(go env GOVERSION), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
}

# pipedb NAME answers the URL of a fresh, migrated database for pipe.
pipedb() {
	local url
	url=$(fresh "$1")
	"$work/pipe" migrate --database-url "$url" >/dev/null
	printf '%s' "$url"
}

orders() {
	if [[ ! -f $work/orders.csv ]]; then
		say "generating $ROWS orders (anchors/gen_orders.py)"
		python3 "$anchors/gen_orders.py" "$ROWS" "$work/orders.csv"
		echo "$(stat -c %s "$work/orders.csv") bytes"
	fi
}

run_jobs() {
	for round in $(seq "$ROUNDS"); do
		say "jobs, round $round of $ROUNDS: anchors"
		local url
		url=$(fresh pipe_anchor_river)
		"$work/riverbench" -url "$url" -mode insert -n "$N"
		"$work/riverbench" -url "$url" -mode work -n "$N"
		"$work/riverbench" -url "$url" -mode latency -n 200
		url=$(fresh pipe_anchor_dbos)
		"$work/dbosbench" -url "$url" -mode direct -n 3000 -c 64
		say "jobs, round $round of $ROUNDS: pipe bench jobs"
		"$work/pipe" bench jobs --n "$N" --backlog "$BACKLOG" --database-url "$(pipedb pipe_anchor_pipe)"
	done
}

run_import() {
	orders
	say "import: anchors (import-anchors.sh: \\copy, copy+upsert, pgloader if installed)"
	"$anchors/import-anchors.sh" "$(fresh pipe_anchor_import)" "$work/orders.csv"
	say "import: pipe bench import on the same file (with its in-process copy+upsert anchor)"
	"$work/pipe" bench import --file "$work/orders.csv" --database-url "$(pipedb pipe_anchor_pipe)"
}

run_export() {
	say "export: pipe bench export (the anchor, COPY TO into a file, timed before and after pipe's runs)"
	"$work/pipe" bench export --rows "$ROWS" --database-url "$(pipedb pipe_anchor_pipe)"
}

run_csv() {
	orders
	say "csv: anchor (anchors/csvspeed)"
	"$work/csvspeed" "$work/orders.csv"
	say "csv: pipe's record-end finder (go test -bench Scan ./importrows/internal/split/)"
	(cd "$root" && go test -run '^$' -bench Scan -benchtime 10x ./importrows/internal/split/ | grep -E '^Benchmark')
}

run_outbox() {
	say "outbox: anchor (anchors/watermillfwd: Watermill's forwarder to JetStream, $N rows of 1 KiB)"
	"$work/watermillfwd" -url "$(fresh pipe_anchor_watermill)" -nats "$NATS" -n "$N" -batch 100,1000
	say "outbox: pipe bench outbox (with the spec's relay loop as its in-process anchor)"
	"$work/pipe" bench outbox --rows "$N" --nats "$NATS" --database-url "$(pipedb pipe_anchor_pipe)"
}

build
for s in "${sections[@]}"; do
	case $s in
	jobs) run_jobs ;;
	import) run_import ;;
	export) run_export ;;
	csv) run_csv ;;
	outbox) run_outbox ;;
	*)
		echo "unknown section $s (jobs, import, export, csv, outbox)" >&2
		exit 2
		;;
	esac
done
