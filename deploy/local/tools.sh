#!/usr/bin/env bash
# Installs the Debian packages behind the command-line tools the tests and benchmarks use, when
# their commands are missing: `bash deploy/local/tools.sh kcat nginx wrk chromium promtool`.
#
# Idempotent: a command already on PATH (or in /usr/sbin) is left alone, and `apt-get update`
# runs once, only when something must be installed. The packages' own services are never
# started (nginx would otherwise take port 80): the benchmarks start their own instances on
# loopback. Needs root (or an apt-get that works as is); prints what it installed.
set -euo pipefail

package_of() {
  case "$1" in
    kcat) echo kcat ;;
    nginx) echo nginx-light ;;
    wrk) echo wrk ;;
    chromium) echo chromium ;;
    promtool) echo prometheus ;;  # its server is never started: only promtool is used
    *) echo "tools.sh: no Debian package known for the command '$1'" >&2; return 1 ;;
  esac
}

have() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ]; }

need=()
for tool in "$@"; do
  have "$tool" || need+=("$(package_of "$tool")")
done
[ ${#need[@]} -eq 0 ] && exit 0

[ "$(id -u)" = 0 ] || { echo "tools.sh: missing packages ${need[*]}; not root, please install them" >&2; exit 1; }
command -v apt-get >/dev/null 2>&1 || { echo "tools.sh: missing packages ${need[*]}; no apt-get" >&2; exit 1; }

# Keep the packages' services from starting during the install, unless a policy already exists.
policy=/usr/sbin/policy-rc.d
own_policy=0
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy" && own_policy=1
fi
cleanup() { if [ "$own_policy" = 1 ]; then rm -f "$policy"; fi; }
trap cleanup EXIT

export DEBIAN_FRONTEND=noninteractive
echo "tools.sh: apt-get update" >&2
apt-get update -q -o DPkg::Lock::Timeout=600 >&2
echo "tools.sh: apt-get install -y ${need[*]}" >&2
# Another apt run may hold the lock for a moment: wait for it rather than fail.
apt-get install -y -q -o DPkg::Lock::Timeout=600 "${need[@]}" >&2
