#!/usr/bin/env bash
# Install gno into ./.venv and run the main job on a small real corpus, with the embedded
# defaults (no server, no model hub). The demo keeps its index under ./.gno-demo so that it
# never touches your own gno configuration. Usage: bash scripts/quickstart.sh [FOLDER] [QUERY]
set -euo pipefail
cd "$(dirname "$0")/.."
corpus="${1:-../shared/data/foam-docs}"
query="${2:-how do I link notes together}"

run() { printf '\n$ %s\n' "$*"; "$@"; }

[ -x .venv/bin/gno ] || { python3 -m venv .venv && .venv/bin/pip install -q --upgrade pip && .venv/bin/pip install -q -e .; }
export GNO_CONFIG_DIR="$PWD/.gno-demo/config" GNO_DATA_DIR="$PWD/.gno-demo/data" GNO_CACHE_DIR="${GNO_CACHE_DIR:-$PWD/.gno-demo/cache}"
export PATH="$PWD/.venv/bin:$PATH"

gno collection list --quiet | grep -q '^demo' || run gno collection add "$corpus" --name demo
run gno index                     # sync, then embed with the bundled MiniLM model (offline)
run gno query "$query" -n 3       # hybrid: BM25 + vectors, fused
run gno search "wikilinks" -n 3   # keyword only
run gno status
