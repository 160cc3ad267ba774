#!/usr/bin/env bash
# startup.sh: start-up cost of the pure-Go rg (cmd/rg, CGO_ENABLED=0
# -trimpath), rg 15.2.0 and `rgkit grep`, as milliseconds per run of
# `--version` and of a search of one small file. The commands take turns
# (ROUNDS rounds of RUNS runs each under perf stat), so that a busy machine
# slows them alike; the figure is the mean over all runs, with the fastest
# round's mean beside it.
#
#   scripts/startup.sh [ROUNDS [RUNS]]     (default 10 rounds of 20 runs)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-10}
runs=${2:-20}
command -v perf >/dev/null || { echo "startup.sh: needs perf (linux-perf)" >&2; exit 2; }
rg15=$(scripts/reference-rg.sh 15.2.0)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CGO_ENABLED=0 go build -trimpath -o "$tmp/rg" ./cmd/rg
CGO_ENABLED=0 go build -trimpath -o "$tmp/rgkit" ./cmd/rgkit
printf 'package main\n\nfunc main() {\n\tprintln("hello")\n}\n' > "$tmp/small.go"
# The floor: a static Go program that prints one line.
mkdir "$tmp/hello"
printf 'package main\n\nimport "os"\n\nfunc main() { os.Stdout.WriteString("ripgrep 15.2.0\\n") }\n' > "$tmp/hello/main.go"
printf 'module hello\n\ngo 1.26\n' > "$tmp/hello/go.mod"
(cd "$tmp/hello" && CGO_ENABLED=0 go build -trimpath -o "$tmp/hello/hello" .)
names=("Go hello world (the floor)" "cmd/rg --version" "rg 15.2.0 --version" "rgkit grep --backend native --version"
  "cmd/rg -n println small.go" "rg 15.2.0 -n println small.go" "rgkit grep --backend native -n println small.go"
  "rgkit grep -n println small.go (looks for rg 15)")
cmds=("$tmp/hello/hello" "$tmp/rg --version" "$rg15 --version" "$tmp/rgkit grep --backend native --version"
  "$tmp/rg -n println $tmp/small.go" "$rg15 -n println $tmp/small.go" "$tmp/rgkit grep --backend native -n println $tmp/small.go"
  "$tmp/rgkit grep -n println $tmp/small.go")
declare -a sum best
for ((r = 0; r < rounds; r++)); do
  for i in "${!cmds[@]}"; do
    # shellcheck disable=SC2086
    s=$(perf stat -r "$runs" ${cmds[$i]} 2>&1 >/dev/null | awk '/seconds time elapsed/ {print $1}')
    sum[$i]=$(awk -v a="${sum[$i]:-0}" -v b="$s" 'BEGIN {print a + b}')
    best[$i]=$(awk -v a="${best[$i]:-1e9}" -v b="$s" 'BEGIN {print (b < a) ? b : a}')
  done
done
printf '%-50s %10s %10s\n' "command ($((rounds * runs)) runs each)" "mean ms" "best ms"
for i in "${!cmds[@]}"; do
  awk -v n="${names[$i]}" -v s="${sum[$i]}" -v b="${best[$i]}" -v r="$rounds" 'BEGIN {printf "%-50s %10.2f %10.2f\n", n, s / r * 1000, b * 1000}'
done
