#!/usr/bin/env bash
# first-line.sh times how long a search takes to print its first line, read
# through a pipe: rg against `rgkit grep` (auto, and --backend native) and
# the pure-Go rg binary (cmd/rg), in interleaved runs after one warm-up
# each. Two clocks per run:
#   first  the reader's clock when the first line arrives (the search is then
#          ended by SIGPIPE at its next write)
#   head   the whole pipeline `... | head -1`, bash included (what a user times)
# The clocks are bash's $EPOCHREALTIME, read without starting a process: a
# `date` started after the first line competes for the CPUs with the search
# still running, and measured that contest more than the first line.
#
#   scripts/first-line.sh [--runs N] [--rg PATH] DIR [-- PATTERN-ARGS]
#
# Prints the median of each clock for each command, in milliseconds.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=10
rg=rg
dir=
query=(func)
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift ;;
    --rg) rg=$2; shift ;;
    --) shift; query=("$@"); break ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    -*) echo "first-line: unknown flag $1 (see --help)" >&2; exit 2 ;;
    *) dir=$1 ;;
  esac
  shift
done
[ -n "$dir" ] || { echo "first-line: give the tree to search (see --help)" >&2; exit 2; }
rgpath=$(command -v "$rg") || { echo "first-line: no rg at $rg" >&2; exit 2; }
export PATH="$(dirname "$rgpath"):$PATH"

bin=$(mktemp -d)/rgkit
trap 'rm -rf "$(dirname "$bin")"' EXIT
CGO_ENABLED=0 go build -o "$bin" ./cmd/rgkit # static, as a release is built
CGO_ENABLED=0 go build -trimpath -o "$(dirname "$bin")/rg-go" ./cmd/rg

names=(rg auto native cmdrg)
cmd() {
  case "$1" in
    rg) "$rgpath" "${query[@]}" "$dir" ;;
    auto) "$bin" grep "${query[@]}" "$dir" ;;
    native) "$bin" grep --backend native "${query[@]}" "$dir" ;;
    cmdrg) "$rggo" "${query[@]}" "$dir" ;;
  esac
}
rggo=$(dirname "$bin")/rg-go

declare -A first head
for n in "${names[@]}"; do cmd "$n" 2>/dev/null | head -1 >/dev/null || true; done # warm-up
for ((i = 0; i < runs; i++)); do
  for n in "${names[@]}"; do
    t0=${EPOCHREALTIME/./}
    t1=$( (cmd "$n" 2>/dev/null || true) | { IFS= read -r _; echo "${EPOCHREALTIME/./}"; })
    first[$n]+="$((t1 - t0)) "
    t0=${EPOCHREALTIME/./}
    (cmd "$n" 2>/dev/null || true) | head -1 >/dev/null
    t1=${EPOCHREALTIME/./}
    head[$n]+="$((t1 - t0)) "
  done
done

median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END{m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.1f", m/1000}'; }
printf '| | %s |\n|---|--:|--:|--:|--:|\n' "rg | rgkit grep (auto) | rgkit grep --backend native | cmd/rg"
for clock in first head; do
  declare -n c=$clock
  printf '| %s |' "$clock"
  r=$(echo "${c[rg]}" | median)
  for n in "${names[@]}"; do
    v=$(echo "${c[$n]}" | median)
    if [ "$n" = rg ]; then printf ' %s ms |' "$v"; else printf ' %s ms (%s×) |' "$v" "$(awk -v a="$v" -v b="$r" 'BEGIN{printf "%.1f", a/b}')"; fi
  done
  printf '\n'
done
