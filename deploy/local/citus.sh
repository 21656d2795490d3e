#!/usr/bin/env bash
# Builds the Citus extension from its source release and installs it into the system PostgreSQL
# (issue 52, docs/scaling.md). Debian's archive has no Citus package, so the release tarball is built here.
#
#   bash deploy/local/citus.sh
#
# Source: CITUS_SOURCE, a tarball path (relative to the repository root, or absolute) or an http(s) URL of one;
# by default ../shared/vendor/citus-13.2.2.tar.gz beside the repository. The tarball's sha256 must match
# CITUS_SHA256, or else the `<tarball>.sha256` file beside it (for a URL: `<URL>.sha256`). Build dir:
# .local/citus/. Idempotent: a stamp naming the checksum and the PostgreSQL it was installed into makes a
# second run a no-op while citus.so is still in place. Needs root (apt-get, make install), as stack.sh does.
set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$SCRIPT_DIR/../.." && pwd)
# shellcheck source=deploy/local/lib.sh
. "$SCRIPT_DIR/lib.sh"
log() { printf '[citus] %s\n' "$*"; }
err() { printf '[citus] ERROR: %s\n' "$*" >&2; }

CITUS_SOURCE="${CITUS_SOURCE:-../shared/vendor/citus-13.2.2.tar.gz}"
BUILD_DIR="$LOCAL_DIR/citus"
PACKAGES=(postgresql-server-dev-15 libcurl4-openssl-dev liblz4-dev libzstd-dev libkrb5-dev libssl-dev
  libselinux1-dev libxslt1-dev libpam0g-dev libreadline-dev)

install_packages() {  # the missing ones only; apt-get update once, and only then (as deploy/local/tools.sh)
  local need=() p
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need+=("$p")
  done
  [ ${#need[@]} -eq 0 ] && return 0
  [ "$(id -u)" = 0 ] || die "missing packages ${need[*]}; not root, please install them"
  command -v apt-get >/dev/null 2>&1 || die "missing packages ${need[*]}; no apt-get"
  export DEBIAN_FRONTEND=noninteractive
  log "apt-get update"
  apt-get update -q -o DPkg::Lock::Timeout=600 >&2
  log "apt-get install -y ${need[*]}"
  # postgresql-server-dev-15 brings postgresql-15 to its own minor release: a server that runs already keeps
  # its old binary until it restarts (the extension is built for the new one).
  # Another apt run may hold the lock for a moment: wait for it rather than fail.
  apt-get install -y -q -o DPkg::Lock::Timeout=600 "${need[@]}" >&2
}

fetch_source() {  # prints the local tarball path; a URL is downloaded into the build dir
  case "$CITUS_SOURCE" in
    http://* | https://*)
      local dest="$BUILD_DIR/${CITUS_SOURCE##*/}"
      [ -s "$dest" ] || { log "downloading $CITUS_SOURCE" >&2; curl -fsSL -o "$dest" "$CITUS_SOURCE"; }
      echo "$dest" ;;
    /*) echo "$CITUS_SOURCE" ;;
    *) echo "$REPO_ROOT/$CITUS_SOURCE" ;;
  esac
}

expected_sha256() {  # CITUS_SHA256, else the .sha256 beside the tarball (or the URL)
  if [ -n "${CITUS_SHA256:-}" ]; then echo "$CITUS_SHA256"; return 0; fi
  case "$CITUS_SOURCE" in
    http://* | https://*) curl -fsSL "$CITUS_SOURCE.sha256" | awk '{print $1; exit}' ;;
    *) [ -s "$1.sha256" ] || die "no checksum: set CITUS_SHA256 or put $(basename "$1").sha256 beside the tarball"
       awk '{print $1; exit}' "$1.sha256" ;;
  esac
}

apply_compat_fix() {  # $1: the unpacked source tree
  # PostgreSQL 15.18's own headers (and server) declare have_createdb_privilege(), which Citus 13.2.2's
  # PG15 compatibility branch defines again as a static function: the build stops at the conflict. Drop
  # Citus's copy; the server exports the same function. Leaves a marker so a rerun does not patch twice.
  local h="$1/src/include/pg_version_compat.h"
  grep -q 'hub: static have_createdb_privilege dropped' "$h" && return 0
  perl -0pi -e 's/static inline bool\nhave_createdb_privilege\(void\)\n\{.*?\n\}\n/\/* hub: static have_createdb_privilege dropped: PostgreSQL 15.18 exports it (deploy\/local\/citus.sh) *\/\n/s' "$h"
  grep -q 'hub: static have_createdb_privilege dropped' "$h" || die "compat fix: the static have_createdb_privilege() was not found in $h"
  log "applied the PostgreSQL 15.18 compat fix to src/include/pg_version_compat.h"
}

build_and_install() {  # $1: tarball, $2: pg_config
  local src="$BUILD_DIR/src" t; t=$(now_ms)
  rm -rf "$src"; mkdir -p "$src"
  tar -xzf "$1" -C "$src" --strip-components=1
  apply_compat_fix "$src"
  log "configure ..."
  (cd "$src" && ./configure PG_CONFIG="$2" >"$BUILD_DIR/configure.log" 2>&1) ||
    { tail -n 20 "$BUILD_DIR/configure.log" >&2; die "configure failed (log: $BUILD_DIR/configure.log)"; }
  log "make -j$(nproc) (a few minutes) ..."
  (cd "$src" && nice -n 15 make -j"$(nproc)" >"$BUILD_DIR/make.log" 2>&1) ||
    { tail -n 20 "$BUILD_DIR/make.log" >&2; die "make failed (log: $BUILD_DIR/make.log)"; }
  (cd "$src" && make install >"$BUILD_DIR/install.log" 2>&1) ||
    { tail -n 20 "$BUILD_DIR/install.log" >&2; die "make install failed (log: $BUILD_DIR/install.log)"; }
  log "built and installed in $(elapsed "$t")"
}

main() {
  mkdir -p "$BUILD_DIR"
  install_packages
  local bindir pg_config tarball sum want stamp
  bindir=$(pg_find_bindir) || die "PostgreSQL server binaries not found"
  pg_config="$bindir/pg_config"
  [ -x "$pg_config" ] || die "$pg_config not found (postgresql-server-dev-15)"
  tarball=$(fetch_source)
  [ -s "$tarball" ] || die "Citus source not found: $CITUS_SOURCE"
  want=$(expected_sha256 "$tarball")
  stamp="$BUILD_DIR/installed-$want-$("$pg_config" --version | tr -cd '0-9.')"
  if [ -f "$stamp" ] && [ -f "$("$pg_config" --pkglibdir)/citus.so" ]; then
    log "citus already installed ($(cat "$stamp")); nothing to do"
    return 0
  fi
  sum=$(sha256sum "$tarball" | awk '{print $1}')
  [ "$sum" = "$want" ] || die "checksum mismatch for $(basename "$tarball"): got $sum, want $want"
  log "$(basename "$tarball"): sha256 ok"
  build_and_install "$tarball" "$pg_config"
  rm -f "$BUILD_DIR"/installed-*
  echo "$(basename "$tarball") into $("$pg_config" --version)" >"$stamp"
}

main "$@"
