#!/usr/bin/env bash
# grep-vs-rg.sh times `rgkit grep` as a user runs it against rg itself:
# the same command line, output read through a pipe, interleaved pairs,
# median wall time, ratio and peak RSS (GNU time's %M). `rgkit bench`
# measures the library's engines; this measures the command.
#
#   scripts/grep-vs-rg.sh [--runs N] [--rg PATH] [--backend B] DIR [-- PATTERN-ARGS ...]
#
#   --runs N      interleaved pairs per query (default 5)
#   --rg PATH     the rg to compare with (default: rg on PATH)
#   --backend B   rgkit grep --backend B (default auto: with rg 15 on PATH that
#                 is rg itself, run by rgkit; native measures the pure-Go engine)
#   --versus B    the baseline is `rgkit grep --backend B` instead of rg (e.g.
#                 native: does the default chain cost more than the engine
#                 that would answer without it?)
#   --no-rg       run rgkit with a PATH holding only git and grep (links in a
#                 temporary directory) and RGKIT_RG_PATH naming a missing file,
#                 as on a machine without rg; needs --versus or --chain
#   --chain       three columns interleaved: rg (--rg, run by its path), then
#                 with no rg on PATH (implies --no-rg) `rgkit grep --backend
#                 native` and `rgkit grep` (the default chain); ratios of the
#                 chain over native and over rg
#   DIR           the tree to search
#   after --      one query per argument, each a string of rg arguments
#                 (default: the suite below)
#
# Prints a markdown table: query, rg median, rgkit median, ratio, peak RSS of
# each, and whether both printed the same number of lines. Headings say rg
# even with --versus: the first column is then the baseline backend.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=5
rg=rg
backend=auto
versus=
norg=false
chain=false
dir=
queries=()
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift ;;
    --rg) rg=$2; shift ;;
    --backend) backend=$2; shift ;;
    --versus) versus=$2; shift ;;
    --no-rg) norg=true ;;
    --chain) chain=true; norg=true ;;
    --) shift; queries=("$@"); break ;;
    -h|--help) sed -n '2,29p' "$0"; exit 0 ;;
    -*) echo "grep-vs-rg: unknown flag $1 (see --help)" >&2; exit 2 ;;
    *) dir=$1 ;;
  esac
  shift
done
[ -n "$dir" ] || { echo "grep-vs-rg: give the DIR to search (see --help)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "grep-vs-rg: needs GNU time at /usr/bin/time (apt-get install time)" >&2; exit 2; }
if $norg && ! $chain && [ -z "$versus" ]; then echo "grep-vs-rg: --no-rg needs --versus or --chain (there is no rg to compare with)" >&2; exit 2; fi
if [ -z "$versus" ]; then
  rgpath=$(command -v "$rg") || { echo "grep-vs-rg: no rg at $rg" >&2; exit 2; }
  rgpath=$(realpath "$rgpath")
  $chain || export PATH="$(dirname "$rgpath"):$PATH"
fi
if [ ${#queries[@]} -eq 0 ]; then
  queries=("static" "-i pm_resume" "PM_RESUME" "(ERR|WARN)_[A-Z]+" "-w [A-Z]+_SUSPEND" '\w{5}\s+\w{5}\s+\w{5}' "func" "-i http" '\w+\d\s*=\s*\d')
fi

bin=$(mktemp -d)/rgkit
trap 'rm -rf "$(dirname "$bin")"' EXIT
run_env=()
if $norg; then
  mkdir "$(dirname "$bin")/path"
  for tool in git grep; do
    p=$(command -v "$tool") && ln -s "$p" "$(dirname "$bin")/path/$tool"
  done
  run_env=(env "PATH=$(dirname "$bin")/path" "RGKIT_RG_PATH=$(dirname "$bin")/no-rg")
fi
# baseline is the first column's command: rg, or rgkit with --versus.
if [ -n "$versus" ]; then baseline=("${run_env[@]}" "$bin" grep --backend "$versus"); else baseline=("$rgpath"); fi
# Static, as a release is built: no dynamic loader and libc start-up,
# about 5 ms less per run than the default cgo build.
CGO_ENABLED=0 go build -o "$bin" ./cmd/rgkit

# measure CMD...: prints "seconds peakKiB cpuSeconds lines" for one run,
# output piped; CPU is user+system, what a loaded machine disturbs least.
measure() {
  local t
  t=$(mktemp)
  local lines
  lines=$( { /usr/bin/time -f '%e %M %U %S' -o "$t" "$@" 2>/dev/null || true; } | wc -l)
  tail -n 1 "$t" | awk -v l="$lines" '{ printf "%s %s %.2f %s\n", $1, $2, $3 + $4, l }'
  rm -f "$t"
}

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

if $chain; then
  echo "rg: $("$rgpath" --version | head -n 1); rgkit grep --backend native and rgkit grep (default chain), both with no rg on PATH; $runs interleaved triples; output to a pipe"
  echo
  echo "| query | rg | native | chain | chain ×native | chain ×rg | native ×rg | rg CPU | native CPU | chain CPU | rg RSS | chain RSS | lines |"
  echo "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|"
  ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
  for q in "${queries[@]}"; do
    read -r -a args <<<"$q"
    native=("${run_env[@]}" "$bin" grep --backend native "${args[@]}" "$dir")
    auto=("${run_env[@]}" "$bin" grep "${args[@]}" "$dir")
    measure "$rgpath" "${args[@]}" "$dir" >/dev/null
    measure "${native[@]}" >/dev/null
    measure "${auto[@]}" >/dev/null
    rt=(); nt=(); at=(); rc=(); nc=(); ac=(); rm=(); am=(); same=yes
    for _ in $(seq "$runs"); do
      read -r a am1 ac1 al < <(measure "$rgpath" "${args[@]}" "$dir")
      read -r b _ bc bl < <(measure "${native[@]}")
      read -r c cm cc cl < <(measure "${auto[@]}")
      rt+=("$a"); nt+=("$b"); at+=("$c"); rc+=("$ac1"); nc+=("$bc"); ac+=("$cc"); rm+=("$am1"); am+=("$cm")
      [ "$al" = "$bl" ] && [ "$al" = "$cl" ] || same="no ($al, $bl, $cl)"
    done
    r=$(printf '%s\n' "${rt[@]}" | median); n=$(printf '%s\n' "${nt[@]}" | median); c=$(printf '%s\n' "${at[@]}" | median)
    rcpu=$(printf '%s\n' "${rc[@]}" | median); ncpu=$(printf '%s\n' "${nc[@]}" | median); ccpu=$(printf '%s\n' "${ac[@]}" | median)
    rmem=$(printf '%s\n' "${rm[@]}" | sort -g | tail -n 1); cmem=$(printf '%s\n' "${am[@]}" | sort -g | tail -n 1)
    printf '| `%s` | %ss | %ss | %ss | %s× | %s× | %s× | %ss | %ss | %ss | %d MiB | %d MiB | %s |\n' "${q//|/\\|}" "$r" "$n" "$c" \
      "$(ratio "$c" "$n")" "$(ratio "$c" "$r")" "$(ratio "$n" "$r")" "$rcpu" "$ncpu" "$ccpu" $((rmem / 1024)) $((cmem / 1024)) "$same"
  done
  exit 0
fi
if [ -n "$versus" ]; then
  echo "baseline (rg column): rgkit grep --backend $versus$($norg && echo ', no rg on PATH'); rgkit grep --backend $backend; $runs interleaved pairs; output to a pipe"
else echo "rg: $("$rgpath" --version | head -n 1); rgkit grep --backend $backend; $runs interleaved pairs; output to a pipe"; fi
echo
echo "| query | rg | rgkit | ×rg | rg CPU | rgkit CPU | ×rg CPU | rg peak RSS | rgkit peak RSS | lines |"
echo "|---|--:|--:|--:|--:|--:|--:|--:|--:|---|"
for q in "${queries[@]}"; do
  read -r -a args <<<"$q"
  # One warm-up each, so both read a warm page cache.
  measure "${baseline[@]}" "${args[@]}" "$dir" >/dev/null
  measure "${run_env[@]}" "$bin" grep --backend "$backend" "${args[@]}" "$dir" >/dev/null
  rt=(); kt=(); rm=(); km=(); rc=(); kc=(); same=yes
  for _ in $(seq "$runs"); do
    read -r a am ac al < <(measure "${baseline[@]}" "${args[@]}" "$dir")
    read -r b bm bc bl < <(measure "${run_env[@]}" "$bin" grep --backend "$backend" "${args[@]}" "$dir")
    rt+=("$a"); kt+=("$b"); rm+=("$am"); km+=("$bm"); rc+=("$ac"); kc+=("$bc")
    [ "$al" = "$bl" ] || same="no ($al vs $bl)"
  done
  r=$(printf '%s\n' "${rt[@]}" | median)
  k=$(printf '%s\n' "${kt[@]}" | median)
  rmem=$(printf '%s\n' "${rm[@]}" | sort -g | tail -n 1)
  kmem=$(printf '%s\n' "${km[@]}" | sort -g | tail -n 1)
  ratio=$(awk -v a="$k" -v b="$r" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')
  rcpu=$(printf '%s\n' "${rc[@]}" | median)
  kcpu=$(printf '%s\n' "${kc[@]}" | median)
  cratio=$(awk -v a="$kcpu" -v b="$rcpu" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')
  printf '| `%s` | %ss | %ss | %s× | %ss | %ss | %s× | %d MiB | %d MiB | %s |\n' "${q//|/\\|}" "$r" "$k" "$ratio" "$rcpu" "$kcpu" "$cratio" $((rmem / 1024)) $((kmem / 1024)) "$same"
done
