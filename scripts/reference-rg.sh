#!/usr/bin/env bash
# reference-rg.sh VERSION [CACHE_DIR]
#
# Prints the path of a real ripgrep VERSION binary (15.2.0 or 14.1.1) for
# x86_64 Linux, obtained without internet access: both versions ship, as
# static release builds, inside npm packages. The binary is taken out of the
# package tarball, its SHA-256 is checked against the digest below, and it is
# cached in CACHE_DIR (default ~/.cache/rgkit/reference-rg/VERSION/rg), so a
# second call costs nothing. rg 13.0.0 comes from Debian (`apt-get install
# ripgrep`); it is not handled here.
#
# The tests use these binaries as the reference (15.2.0) and as older engines
# (14.1.1, 13.0.0): see docs/conformance.md.
set -euo pipefail

version=${1:?usage: reference-rg.sh VERSION [CACHE_DIR]}
cache=${2:-${XDG_CACHE_HOME:-$HOME/.cache}/rgkit/reference-rg}

case "$version" in
15.2.0)
  pkg=@openai/codex@0.169.0-linux-x64
  member=package/vendor/x86_64-unknown-linux-musl/codex-path/rg
  sha=e62198eb19b136b88c330af83647b5a962cb99b6b1f066758568f12de1974849
  ;;
14.1.1)
  pkg=@anthropic-ai/claude-code@1.0.128
  member=package/vendor/ripgrep/x64-linux/rg
  sha=f401154e2393f9002ac77e419f9ee5521c18f4f8cd3e32293972f493ba06fce7
  ;;
*)
  echo "reference-rg.sh: no known source for rg $version (known: 15.2.0, 14.1.1)" >&2
  exit 2
  ;;
esac

if [ "$(uname -s)/$(uname -m)" != Linux/x86_64 ]; then
  echo "reference-rg.sh: the packaged rg $version binary is x86_64 Linux only; this is $(uname -s)/$(uname -m)" >&2
  exit 2
fi

dest=$cache/$version/rg
verify() { [ -f "$1" ] && [ "$(sha256sum "$1" | cut -d' ' -f1)" = "$sha" ]; }

if ! verify "$dest"; then
  command -v npm >/dev/null || { echo "reference-rg.sh: npm is needed to fetch rg $version" >&2; exit 2; }
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && npm pack --silent "$pkg" >/dev/null)
  tarball=$(ls "$work"/*.tgz)
  tar -xzf "$tarball" -C "$work" "$member"
  if ! verify "$work/$member"; then
    echo "reference-rg.sh: SECURITY: $member in $pkg has SHA-256 $(sha256sum "$work/$member" | cut -d' ' -f1), want $sha" >&2
    exit 3
  fi
  mkdir -p "$(dirname "$dest")"
  install -m 0755 "$work/$member" "$dest.tmp.$$"
  mv -f "$dest.tmp.$$" "$dest"
fi

got=$("$dest" --version | head -n 1)
case "$got" in
"ripgrep $version"*) ;;
*) echo "reference-rg.sh: $dest says '$got', want ripgrep $version" >&2; exit 3 ;;
esac
echo "$dest"
