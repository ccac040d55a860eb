#!/usr/bin/env bash
# The long versions of tests/reliability/: 5x the Hypothesis examples and
# floods, and the load test at 50 clients x 20 calls. Figures are printed and
# appended (JSON lines) to ${HARBOR_RELIABILITY_FIGURES:-reliability-figures.jsonl}.
# Usage: scripts/reliability/run_full.sh [pytest args...]
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${PYTHON:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/.venv/bin/python}
export HARBOR_RELIABILITY_SCALE=${HARBOR_RELIABILITY_SCALE:-5}
export HARBOR_LOAD_CLIENTS=${HARBOR_LOAD_CLIENTS:-50}
export HARBOR_LOAD_CALLS=${HARBOR_LOAD_CALLS:-20}
export HARBOR_RELIABILITY_FIGURES=${HARBOR_RELIABILITY_FIGURES:-$PWD/reliability-figures.jsonl}
exec "$PY" -m pytest -q -s -p no:cacheprovider tests/reliability "$@"
