#!/bin/sh
# Round 5 of the tuning (issue 40, Q8, recommendation 6): the costs and the culture and
# happiness values of the eight idle buildings (Temple, Monument, Colosseum, Theatre,
# Library, Monastery, Aqueduct, Courthouse) on reconstructed-3, the default set. Each
# candidate is cards-reconstructed-3.toml with NAME.changes.json applied by ../r2/mkset.py,
# in a copy of the package, played as greedy mirrors (seed 21) under the platform's
# defaults (finish_round on at 2 players); "base" is reconstructed-3 itself. Read with
#   python scripts/card_use.py studies/civ4-tuning/r5/*-2p.parquet
#   python scripts/civ4_candidates.py studies/civ4-tuning/r5/*-2p.parquet
# Run from the repository root; PY (default python) has the package's dependencies.
set -e
T=${TMPDIR:-/tmp}/civ4-tune-r5
R=studies/civ4-tuning/r5
ROOT=$(pwd)
PY=$(command -v "${PY:-python}")
case "$PY" in /*) ;; *) PY="$ROOT/$PY" ;; esac
cand() {  # cand NAME PLAYERS GAMES
  out="$1-$2p"
  [ -f "$R/$out.parquet" ] && return 0
  rm -rf "$T/$1"; mkdir -p "$T/$1"; cp -r civcards "$T/$1/"
  [ -f "$R/$1.changes.json" ] && MKSET_SRC=civcards/civ4/cards-reconstructed-3.toml \
    python3 studies/civ4-tuning/r2/mkset.py "$T/$1/civcards/civ4/cards-reconstructed-3.toml" "$R/$1.changes.json"
  (cd "$T/$1" && env PYTHONPATH="$T/$1" "$PY" -m civcards.cli simulate --game civ4 --no-progress -j 1 -p "$2" \
    -b greedy -n "$3" --seed 21 -O cards=reconstructed-3 --out "$ROOT/$R/$out.parquet" --json) > "$R/$out.json"
}
for c in ${CANDS:-base cheap4 cheap2 values both}; do cand "$c" 2 "${GAMES:-400}"; done
