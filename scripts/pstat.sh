#!/usr/bin/env bash
# pstat.sh BIN ARGS... measures `BIN ARGS... | cat > /dev/null` with
# `perf stat -r ${RUNS:-5}` and prints the pipeline's task-clock (ms) and its
# wall time (s). The arguments reach BIN as they are given: a pattern such as
# '\w+_\d+' is not read again by a shell (bash -c "BIN \w+" would make it w+).
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: pstat.sh BIN ARGS..." >&2; exit 2; }
perf stat -r "${RUNS:-5}" -- bash -c '"$@" | cat > /dev/null' _ "$@" 2>&1 < /dev/null |
  awk '/task-clock/ {ms=$1} /seconds time elapsed/ {s=$1} END {print ms " ms " s " s"}'
