#!/usr/bin/env bash
# bench-corpus.sh prepares real corpora and runs `rgkit bench` on them beside
# rg itself, writing a markdown table and an SVG chart per corpus.
#
#   scripts/bench-corpus.sh [--linux] [--runs N] [--rg PATH] [--out DIR] [-- extra rgkit bench flags]
#
#   --linux     also the Linux kernel tree (Debian's linux-source-6.1 package)
#   --runs N    measured runs per engine and task (default 10)
#   --rg PATH   the rg to compare with (default: rg on PATH); its directory
#               goes first on PATH so the ripgrep engine runs the same rg
#   --out DIR   where go-src.md/.svg and linux.md/.svg go (default docs/bench)
#   --only NAME measure only corpus NAME (go-src or linux; --only linux implies --linux)
#   --prepare   only make the corpora; print NAME=DIR for each and measure nothing
#
# Corpora, each a git work tree (committed once) so git grep takes part, kept
# under ${XDG_CACHE_HOME:-~/.cache}/rgkit/corpora:
#   go-src  a copy of $(go env GOROOT)/src (always)
#   linux   /usr/src/linux-source-6.1.tar.xz, unpacked, with the Debian block
#           at the end of its .gitignore removed (`/*` then `!/debian/`: in a
#           git repository it would ignore the whole tree); installed with
#           apt-get when missing
set -euo pipefail
cd "$(dirname "$0")/.."

runs=10
out=docs/bench
linux=false
rg=rg
only=
prepare=false
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --linux) linux=true ;;
    --runs) runs=$2; shift ;;
    --rg) rg=$2; shift ;;
    --out) out=$2; shift ;;
    --only) only=$2; shift; [ "$only" = linux ] && linux=true ;;
    --prepare) prepare=true ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
    *) echo "bench-corpus: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

if ! $prepare; then
  rgpath=$(command -v "$rg") || { echo "bench-corpus: no rg at $rg (give --rg PATH)" >&2; exit 2; }
  export PATH="$(dirname "$rgpath"):$PATH"

  mkdir -p "$out"
  bin=$(mktemp -d)/rgkit
  trap 'rm -rf "$(dirname "$bin")"' EXIT
  # Static, as a release is built: no dynamic loader and libc start-up,
  # about 5 ms less per run than the default cgo build.
  CGO_ENABLED=0 go build -o "$bin" ./cmd/rgkit
fi

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
corpora=("go-src=$cache/go-$goversion")

# strip_debian_ignore removes the block Debian appends to the kernel's
# top-level .gitignore: a comment, `/*` and `!/debian/`. In the package's own
# repository that ignores everything but debian/; here it would make git (and
# rg, which reads .gitignore inside a git repository) skip the whole tree.
strip_debian_ignore() {
  local gi=$1/.gitignore
  [ -f "$gi" ] || return 0
  sed -i -e '/^# Debian packaging/,$d' "$gi"
  sed -i -e '${/^#$/d}' -e '\#^/\*$#d' -e '\#^!/debian/$#d' "$gi"
  if grep -qx -e '/\*' -e '!/debian/' "$gi"; then
    echo "bench-corpus: could not strip the Debian block from $gi" >&2
    exit 1
  fi
}

if $linux; then
  tarball=/usr/src/linux-source-6.1.tar.xz
  if [ ! -d "$cache/linux-6.1" ]; then
    if [ ! -f "$tarball" ]; then
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq linux-source-6.1
    fi
    rm -rf "$cache/linux.tmp"
    mkdir -p "$cache/linux.tmp"
    echo "bench-corpus: unpacking $tarball" >&2
    tar -xJf "$tarball" -C "$cache/linux.tmp" --strip-components=1
    strip_debian_ignore "$cache/linux.tmp"
    commit_tree "$cache/linux.tmp"
    files=$(git -C "$cache/linux.tmp" ls-files | wc -l)
    if [ "$files" -lt 10000 ]; then
      echo "bench-corpus: only $files files committed from $tarball: is the tree still ignored?" >&2
      exit 1
    fi
    mv "$cache/linux.tmp" "$cache/linux-6.1"
  fi
  corpora+=("linux=$cache/linux-6.1")
fi

if $prepare; then
  printf '%s\n' "${corpora[@]}"
  exit 0
fi

status=0
for entry in "${corpora[@]}"; do
  name=${entry%%=*}
  dir=${entry#*=}
  if [ -n "$only" ] && [ "$only" != "$name" ]; then
    continue
  fi
  echo "bench-corpus: $name ($dir), rg $rgpath" >&2
  set +e
  "$bin" bench --runs "$runs" --rg "$rgpath" --format markdown --svg "$out/$name.svg" "${extra[@]}" "$dir" > "$out/$name.md"
  rc=$?
  set -e
  [ $rc -eq 0 ] || status=$rc
  cat "$out/$name.md"
done
echo "bench-corpus: results in $out/" >&2
exit $status
