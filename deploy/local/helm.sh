#!/usr/bin/env bash
# Builds Helm v4 from source into .local/bin (HUB_LOCAL_DIR/bin) with `go install`, when missing,
# and prints the binary's path: `bash deploy/local/helm.sh`.
#
# Idempotent: a binary already built from HUB_HELM_VERSION is left alone (its Go build info says
# which module version it was built from). Needs Go and the Go module proxy; the build runs once
# per checkout (a few minutes on two cores), then every call returns at once. Concurrent callers
# wait for the one that builds.
set -euo pipefail

HELM_VERSION="${HUB_HELM_VERSION:-v4.3.2}"
REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
LOCAL_DIR="${HUB_LOCAL_DIR:-.local}"
case "$LOCAL_DIR" in
  /*) ;;
  *) LOCAL_DIR="$REPO_ROOT/$LOCAL_DIR" ;;   # relative paths are relative to the repo root, as in lib.sh
esac
BIN_DIR="${LOCAL_DIR%/}/bin"
HELM="$BIN_DIR/helm"

built_version() { go version -m "$HELM" 2>/dev/null | awk '$1 == "mod" && $2 == "helm.sh/helm/v4" { print $3 }'; }

command -v go >/dev/null 2>&1 || { echo "helm.sh: Go is needed to build helm (go install)" >&2; exit 1; }
mkdir -p "$BIN_DIR"
exec 9>"$BIN_DIR/.helm.lock"
flock 9
if [ "$(built_version)" != "$HELM_VERSION" ]; then
  echo "helm.sh: go install helm.sh/helm/v4/cmd/helm@$HELM_VERSION into $BIN_DIR" >&2
  start=$(date +%s)
  GOBIN="$BIN_DIR" CGO_ENABLED=0 go install "helm.sh/helm/v4/cmd/helm@$HELM_VERSION" >&2
  echo "helm.sh: built in $(($(date +%s) - start)) s" >&2
fi
echo "$HELM"
