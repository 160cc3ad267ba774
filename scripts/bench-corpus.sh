#!/usr/bin/env bash
# bench-corpus.sh prepares real corpora and runs `rgkit bench` on them,
# writing a markdown table and an SVG chart per corpus under a results
# folder.
#
#   scripts/bench-corpus.sh [--linux] [--runs N] [--out DIR] [-- extra rgkit bench flags]
#
# Corpora, each a git work tree (committed once) so git grep takes part, kept
# under $XDG_CACHE_HOME/rgkit/corpora:
#   go     a copy of the Go installation's own source tree, $(go env GOROOT)/src
#          (always)
#   linux  the Linux kernel source from Debian's linux-source package (--linux;
#          installs the package with apt-get when missing)
set -euo pipefail
cd "$(dirname "$0")/.."

runs=10
out=results
linux=false
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --linux) linux=true ;;
    --runs) runs=$2; shift ;;
    --out) out=$2; shift ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "bench-corpus: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done

mkdir -p "$out"
bin=$(mktemp -d)/rgkit
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./cmd/rgkit

cache=${XDG_CACHE_HOME:-$HOME/.cache}/rgkit/corpora
mkdir -p "$cache"

# commit_tree makes directory $1 a git work tree with everything committed.
commit_tree() {
  git -C "$1" init -q
  git -C "$1" add -A
  git -C "$1" -c user.name=bench -c user.email=bench@localhost commit -qm corpus
}

goversion=$(go env GOVERSION)
if [ ! -d "$cache/go-$goversion" ]; then
  rm -rf "$cache/go.tmp"
  cp -r "$(go env GOROOT)/src" "$cache/go.tmp"
  commit_tree "$cache/go.tmp"
  mv "$cache/go.tmp" "$cache/go-$goversion"
fi
corpora=("go=$cache/go-$goversion")

if $linux; then
  if [ ! -d "$cache/linux" ]; then
    if ! ls /usr/src/linux-source-*.tar.* >/dev/null 2>&1; then
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq linux-source
    fi
    tarball=$(ls /usr/src/linux-source-*.tar.* | sort -V | tail -n 1)
    rm -rf "$cache/linux.tmp"
    mkdir -p "$cache/linux.tmp"
    tar -xf "$tarball" -C "$cache/linux.tmp" --strip-components=1
    commit_tree "$cache/linux.tmp"
    mv "$cache/linux.tmp" "$cache/linux"
  fi
  corpora+=("linux=$cache/linux")
fi

status=0
for entry in "${corpora[@]}"; do
  name=${entry%%=*}
  dir=${entry#*=}
  echo "bench-corpus: $name ($dir)" >&2
  set +e
  "$bin" bench --runs "$runs" --format markdown --svg "$out/$name.svg" --log "${extra[@]}" "$dir" > "$out/$name.md"
  rc=$?
  set -e
  [ $rc -eq 0 ] || status=$rc
  cat "$out/$name.md"
done
echo "bench-corpus: results in $out/" >&2
exit $status
