#!/usr/bin/env bash
# Installs pnpm (pinned) and the workspace's dependencies on a machine that has only Node 20 and npm.
# Sourced by .ci/run; also runnable on its own: `bash scripts/bootstrap.sh`.
set -euo pipefail
PNPM_VERSION=12.4.2
# better-sqlite3 compiles against Node's own headers; without this node-gyp tries to download them.
node_prefix="$(dirname "$(dirname "$(command -v node)")")"
if [ -f "$node_prefix/include/node/node.h" ]; then export npm_config_nodedir="$node_prefix"; fi
if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$PNPM_VERSION" ]; then
  npm install --global --allow-scripts=pnpm "pnpm@$PNPM_VERSION" >/dev/null
fi
pnpm install --frozen-lockfile
