#!/usr/bin/env bash
# classes.sh measures the query classes of docs/performance.md on one tree,
# BIN beside REF (rg 15.2.0), interleaved, output to a pipe, ROUNDS rounds of
# `perf stat -r RUNS` each (scripts/pstat.sh), and prints per class the
# rounds' wall-time ratios BIN/REF and the range of their CPU ratios.
#
#   scripts/classes.sh go|linux TREE BIN REF [ROUNDS]
#
# e.g. scripts/classes.sh go ~/.cache/rgkit/corpora/go-go1.26.8 /tmp/rg "$RG15" 3
set -euo pipefail
[ $# -ge 4 ] || { sed -n '2,9p' "$0" >&2; exit 2; }
kind=$1 tree=$2 bin=$3 ref=$4 rounds=${5:-3}
pstat=$(cd "$(dirname "$0")" && pwd)/pstat.sh
case "$kind" in
  go) classes=('func' '-c func' '-l func' '-i error' '-w err' '-o func' '-n func' '-C2 func'
      '--json func' '-x func' '-U func' '--files-without-match func' '-v func' '--passthru func'
      '-v -c func' '--stats func' '-tgo -w static' '\w+_\d+' '-o \w+Error' '-U func\s+\w+'
      'ErrUnexpectedEOF' '-i http' '\w+\d\s*=\s*\d' '--sort path func') ;;
  linux) classes=('static' '-i pm_resume' 'PM_RESUME' '(ERR|WARN)_[A-Z]+' '-w [A-Z]+_SUSPEND'
      '\w{5}\s+\w{5}\s+\w{5}' '-c static' '-l PM_RESUME' '-i error' '-v static') ;;
  *) echo "classes.sh: the first argument is go or linux" >&2; exit 2 ;;
esac
cd "$tree"
for c in "${classes[@]}"; do
  read -r -a args <<<"$c" # words split on spaces only: patterns keep their backslashes
  walls=() cpus=()
  for ((r = 0; r < rounds; r++)); do
    read -r rc _ rw _ < <(RUNS=${RUNS:-5} "$pstat" "$ref" "${args[@]}")
    read -r bc _ bw _ < <(RUNS=${RUNS:-5} "$pstat" "$bin" "${args[@]}")
    walls+=("$(awk -v a="$bw" -v b="$rw" 'BEGIN {printf "%.2f", a / b}')")
    cpus+=("$(awk -v a="${bc//,/}" -v b="${rc//,/}" 'BEGIN {printf "%.2f", a / b}')")
  done
  cmin=$(printf '%s\n' "${cpus[@]}" | sort -n | head -1) cmax=$(printf '%s\n' "${cpus[@]}" | sort -n | tail -1)
  printf '%-30s wall %s   cpu %s–%s\n' "$c" "${walls[*]}" "$cmin" "$cmax"
done
