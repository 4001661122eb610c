#!/usr/bin/env bash
# Install gno into ./.venv and run the main job on a small real corpus, with the embedded
# defaults (no server, no model hub). The demo keeps its index under ./.gno-demo so that it
# never touches your own gno configuration. Usage: bash scripts/quickstart.sh [FOLDER] [QUERY]
# With no FOLDER it indexes the Foam docs when the project's ../shared/data is beside the clone,
# and otherwise gno's own docs/ folder, which every clone has.
set -euo pipefail
cd "$(dirname "$0")/.."
foam=../shared/data/foam-docs
if [ $# -ge 1 ]; then
  corpus="$1" query="${2:-how do I link notes together}" keyword="link"
elif [ -d "$foam" ]; then
  corpus="$foam" query="how do I link notes together" keyword="wikilinks"
else
  corpus=docs query="where does the embedding model come from" keyword="fingerprint"
fi

run() { printf '\n$ %s\n' "$*"; "$@"; }

[ -x .venv/bin/gno ] || { python3 -m venv .venv && .venv/bin/pip install -q --upgrade pip && .venv/bin/pip install -q -e .; }
export GNO_CONFIG_DIR="$PWD/.gno-demo/config" GNO_DATA_DIR="$PWD/.gno-demo/data" GNO_CACHE_DIR="${GNO_CACHE_DIR:-$PWD/.gno-demo/cache}"
export PATH="$PWD/.venv/bin:$PATH"

# A demo collection left by an earlier run over another folder is replaced, not mixed in.
demo_path=$(gno collection list --quiet | awk -F'\t' '$1 == "demo" { print $2 }')
[ -d "$corpus" ] || { echo "Folder not found: $corpus" >&2; exit 1; }
want=$(cd "$corpus" && pwd -P)
if [ -n "$demo_path" ] && [ "$demo_path" != "$want" ]; then run gno collection remove demo; demo_path=; fi
[ -n "$demo_path" ] || run gno collection add "$corpus" --name demo
run gno index                     # sync, then embed with the bundled MiniLM model (offline)
run gno query "$query" -n 3       # hybrid: BM25 + vectors, fused
run gno search "$keyword" -n 3    # keyword only
run gno status
