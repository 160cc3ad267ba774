#!/usr/bin/env bash
# refresh-digests.sh VERSION... — print rgfetch pin-table lines for ripgrep
# releases, for review before pasting into rgfetch/releases.go.
#
# For each release asset it downloads the archive itself and hashes it
# locally (sha256sum), then compares with the release's .sha256 sidecar
# (first 64-hex token, so certutil's format works). Two derivations must
# agree; a disagreement is printed as an error and no line is emitted.
# Needs network access, curl and sha256sum. Never run by the tests.
#
#   scripts/refresh-digests.sh 15.2.0 > /tmp/pins.txt
set -euo pipefail

base="${RIPGREP_RELEASES_URL:-https://github.com/BurntSushi/ripgrep/releases/download}"
triples=(
  x86_64-unknown-linux-musl aarch64-unknown-linux-gnu aarch64-unknown-linux-musl i686-unknown-linux-gnu
  armv7-unknown-linux-musleabihf armv7-unknown-linux-gnueabihf armv7-unknown-linux-musleabi
  arm-unknown-linux-gnueabihf s390x-unknown-linux-gnu powerpc64-unknown-linux-gnu
  x86_64-apple-darwin aarch64-apple-darwin
  x86_64-pc-windows-msvc x86_64-pc-windows-gnu i686-pc-windows-msvc aarch64-pc-windows-msvc
)
[ $# -gt 0 ] || { echo "usage: $0 VERSION..." >&2; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
status=0
for ver in "$@"; do
  for triple in "${triples[@]}"; do
    ext=tar.gz; case $triple in *windows*) ext=zip;; esac
    asset="ripgrep-$ver-$triple.$ext"
    url="$base/$ver/$asset"
    if ! curl -fsSL --retry 3 -o "$tmp/$asset" "$url" 2>/dev/null; then
      continue # no such asset for this version
    fi
    local_sum=$(sha256sum "$tmp/$asset" | cut -d' ' -f1)
    size=$(wc -c < "$tmp/$asset" | tr -d ' ')
    if [ "$local_sum" = e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 ]; then
      echo "error: $asset: empty download" >&2; status=1; continue
    fi
    note=""
    if curl -fsSL --retry 3 -o "$tmp/$asset.sha256" "$url.sha256" 2>/dev/null; then
      side=$(grep -oiE '(^|[^0-9a-f])[0-9a-f]{64}([^0-9a-f]|$)' "$tmp/$asset.sha256" | grep -oiE '[0-9a-f]{64}' | head -1 | tr 'A-F' 'a-f')
      if [ "$side" != "$local_sum" ]; then
        echo "error: $asset: sidecar says $side, download hashes to $local_sum" >&2; status=1; continue
      fi
      note="// sidecar + local sha256sum agree"
    else
      note="// no sidecar: local sha256sum only (grade B at best)"
    fi
    printf '\t{"%s", "%s"}: {SHA256: "%s", Size: %s}, %s\n' "$ver" "$triple" "$local_sum" "$size" "$note"
  done
done
exit $status
