#!/usr/bin/env bash
# scaling.sh measures how the pure-Go engine's cost grows beside rg's: with
# the size of the tree (Go's source tree, the Linux 6.1 tree, and the Linux
# tree three times over in one repository) and with the number of threads
# (-j1, -j2). Each row is scripts/grep-vs-rg.sh: `rgkit grep --backend
# native` and rg run in interleaved pairs, output read through a pipe,
# median wall time, CPU and peak RSS of each.
#
#   scripts/scaling.sh [--runs N] [--rg PATH] [--only NAME] [-- QUERY ...]
#
#   --runs N     interleaved pairs per query (default 3)
#   --rg PATH    the rg to compare with (default: rg on PATH)
#   --only NAME  one tree: go-src, linux or linux-x3
#   after --     the queries, each a string of rg arguments (default below);
#                each is run once per thread count, with -jN in front
#
# The trees are made by scripts/bench-corpus.sh --prepare; linux-x3 is
# three full copies of the Linux tree (not hard links, so the page cache
# holds three times the bytes) under one `git init`, about 4 GB, kept
# beside the other corpora. A table per tree and thread count goes to
# standard output, with the tree's files and bytes in its heading.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=3
rg=rg
only=
queries=()
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift ;;
    --rg) rg=$2; shift ;;
    --only) only=$2; shift ;;
    --) shift; queries=("$@"); break ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "scaling: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
if [ ${#queries[@]} -eq 0 ]; then
  # A rare and a common literal, a count, -i, and a pattern with no literal.
  queries=("PM_RESUME" "static" "-c static" "-i error" '\w{5}\s+\w{5}\s+\w{5}')
fi
rgpath=$(command -v "$rg") || { echo "scaling: no rg at $rg (give --rg PATH)" >&2; exit 2; }

declare -A dirs
while IFS='=' read -r name dir; do dirs[$name]=$dir; done < <(scripts/bench-corpus.sh --linux --prepare)

# linux-x3: three copies of the committed Linux tree's files in one git
# repository; each copy keeps its own .gitignore files, as rg reads them.
x3=$(dirname "${dirs[linux]}")/linux-6.1-x3
if [ ! -d "$x3" ] && { [ -z "$only" ] || [ "$only" = linux-x3 ]; }; then
  rm -rf "$x3.tmp"
  mkdir -p "$x3.tmp"
  git -C "$x3.tmp" init -q
  for copy in a b c; do
    echo "scaling: copying the Linux tree to $x3/$copy" >&2
    mkdir "$x3.tmp/$copy"
    git -C "${dirs[linux]}" archive HEAD | tar -x -C "$x3.tmp/$copy"
  done
  mv "$x3.tmp" "$x3"
fi
dirs[linux-x3]=$x3

echo "rg: $("$rgpath" --version | head -n 1); $(go version | cut -d' ' -f3-); $(nproc) CPUs; $runs interleaved pairs"
for name in go-src linux linux-x3; do
  if [ -n "$only" ] && [ "$only" != "$name" ]; then continue; fi
  dir=${dirs[$name]}
  files=$("$rgpath" --files "$dir" | wc -l)
  bytes=$("$rgpath" --files -0 "$dir" | du -cb --files0-from=- | tail -n 1 | cut -f1)
  for j in 1 2; do
    echo
    echo "### $name ($files files, $((bytes / 1000000)) MB searched by rg's rules), -j$j"
    echo
    jq=()
    for q in "${queries[@]}"; do jq+=("-j$j $q"); done
    scripts/grep-vs-rg.sh --runs "$runs" --rg "$rgpath" --backend native "$dir" -- "${jq[@]}" | tail -n +3
  done
done
