#!/usr/bin/env bash
# Runs every fuzz target of the module for FUZZTIME each, one at a time: CI's
# short pass (`bash .ci/fuzz.sh`, after the tests) and a developer's long one.
#
# Usage: .ci/fuzz.sh [package-pattern]      (default ./...: every package)
#
#   FUZZTIME=10m .ci/fuzz.sh                  every target for ten minutes
#   FUZZTIME=2m .ci/fuzz.sh ./webhook/         one package's targets
#   FUZZ=FuzzLoad FUZZTIME=30m .ci/fuzz.sh     the targets matching a pattern
#   .ci/fuzz.sh --list                        name the targets, fuzz none
#
# Environment:
#   FUZZTIME  how long each target runs, as go test's -fuzztime takes it
#             (default 1s: CI's pass, 71 s with the builds at a load of 7 on 2 cores)
#   FUZZ      a regular expression the target names must match (default all)
#
# Targets are discovered, never listed here: every package matching the
# pattern whose test files declare a func Fuzz..., and in it every target its
# test binary lists (-test.list '^Fuzz'), so a new target runs without an
# edit here. Each package's test binary is built once (two at a time) with
# go's fuzzing instrumentation and run in the package's directory, as go test -fuzz runs
# it: a failing input is written to that package's testdata/fuzz/FuzzXxx/,
# which `go test` then replays as a seed; commit it with the fix. Inputs
# that found new coverage stay in go's cache ($(go env GOCACHE)/fuzz), so a
# longer run goes on from where the last one stopped.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
FUZZTIME=${FUZZTIME:-1s}
FUZZ=${FUZZ:-.}
list=false
if [ "${1:-}" = "--list" ]; then
  list=true
  shift
fi
pattern=${1:-./...}
cache=$(go env GOCACHE)/fuzz
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT

start=$(date +%s)
ran=0
failed=()
# Every package with a test file declaring a fuzz target: its import path
# and directory.
go list -f '{{.ImportPath}} {{.Dir}} {{join .TestGoFiles " "}} {{join .XTestGoFiles " "}}' "$pattern" |
  while read -r pkg dir files; do
    if [ -n "$files" ] && (cd "$dir" && grep -qs '^func Fuzz' $files); then
      echo "$pkg $dir"
    fi
  done >"$bin/packages"
# Their test binaries, built two at a time: a link is mostly one core's.
cut -d' ' -f1 "$bin/packages" |
  xargs -P 2 -I{} sh -c 'go test -c -fuzz=. -o "$1/$(echo "$2" | tr / _).test" "$2"' _ "$bin" {}
while read -r pkg dir; do
  exe=$bin/$(echo "$pkg" | tr / _).test
  for target in $(cd "$dir" && "$exe" -test.list '^Fuzz' </dev/null | grep -E "$FUZZ" || true); do
    if $list; then
      echo "$pkg $target"
      continue
    fi
    echo "--- $target ($pkg) for $FUZZTIME"
    ran=$((ran + 1))
    if ! (cd "$dir" && "$exe" -test.run '^$' -test.fuzz "^$target\$" -test.fuzztime "$FUZZTIME" \
      -test.fuzzcachedir "$cache/$pkg" -test.paniconexit0 </dev/null); then
      failed+=("$pkg $target")
    fi
  done
done <"$bin/packages"

$list && exit 0
echo "fuzzing: $ran targets, $FUZZTIME each, $(( $(date +%s) - start )) s in all"
if [ ${#failed[@]} -gt 0 ]; then
  echo "failing targets (each failing input is in its package's testdata/fuzz):"
  printf '  %s\n' "${failed[@]}"
  exit 1
fi
