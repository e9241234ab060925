#!/usr/bin/env bash
# Installs what the workspace needs on a machine that has only Node 20 and npm:
# pnpm (pinned), the dependencies, and the system programs the tests drive: tmux (the coding agent's terminal
# test), Chromium (the browser example's test), ripgrep (the search tool's fast path; the JS fallback is
# tested too) and bubblewrap (the optional bash sandbox).
# Sourced by .ci/run; also runnable on its own: `bash scripts/bootstrap.sh`.
set -euo pipefail
PNPM_VERSION=12.4.2

missing=()
command -v tmux >/dev/null 2>&1 || missing+=(tmux)
command -v rg >/dev/null 2>&1 || missing+=(ripgrep)
command -v pgrep >/dev/null 2>&1 || missing+=(procps)
command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
[ -x "${HEDDLE_CHROMIUM:-/usr/bin/chromium}" ] || missing+=(chromium)
if [ ${#missing[@]} -gt 0 ]; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "bootstrap: installing ${missing[*]} from Debian's packages"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "bootstrap: please install ${missing[*]} (the terminal, browser, search and sandbox tests need them)" >&2
  fi
fi
# In CI every program the tests drive must be there: a test that quietly takes a fallback proves nothing.
if [ "${CI:-}" = "true" ]; then
  for program in tmux rg pgrep bwrap "${HEDDLE_CHROMIUM:-/usr/bin/chromium}"; do
    command -v "$program" >/dev/null 2>&1 || { echo "bootstrap: $program is missing under CI=true" >&2; exit 1; }
  done
fi

# better-sqlite3 compiles against Node's own headers; without this node-gyp tries to download them.
node_prefix="$(dirname "$(dirname "$(command -v node)")")"
if [ -f "$node_prefix/include/node/node.h" ]; then export npm_config_nodedir="$node_prefix"; fi
if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$PNPM_VERSION" ]; then
  npm install --global --allow-scripts=pnpm "pnpm@$PNPM_VERSION" >/dev/null
fi
pnpm install --frozen-lockfile
