#!/bin/sh
# The tuning runs behind reconstructed-2 (studies/civ4-balance/README.md, "Tuning"): each
# candidate is the original cards.toml with changes (NAME.changes.json, applied by mkset.py),
# put into a copy of the package, and played as 2-player greedy mirrors (600 or 1,000 games,
# seed 21; J also at 3 and 4 players, 600 games). Run from the repository root.
set -e
T=${TMPDIR:-/tmp}/civ4-tune
R=studies/civ4-tuning/r2
ROOT=$(pwd)
PY=$(command -v "${PY:-python}")
cand() {  # cand NAME PLAYERS GAMES
  rm -rf "$T/$1"; mkdir -p "$T/$1"; cp -r civcards "$T/$1/"
  cp civcards/civ4/cards.toml "$T/$1/civcards/civ4/cards.toml"
  [ -f "$R/$1.changes.json" ] && python3 "$R/mkset.py" "$T/$1/civcards/civ4/cards.toml" "$R/$1.changes.json"
  # run inside the copy: `python -m` puts the working directory first on the path, so run
  # from the repository root it would play the checkout's own cards
  (cd "$T/$1" && env PYTHONPATH="$T/$1" "$PY" -m civcards.cli simulate --game civ4 --no-progress -j 1 -p "$2" \
    -b greedy -n "$3" --seed 21 -O cards=reconstructed-1 --out "$ROOT/$R/$1-$2p.parquet" --json) > "$R/$1-$2p.json"
}
# A and B were string replacements in cards.toml (no changes file):
#   A: population_cost_base 6 -> 10; techs_per_era "2" 5 -> 6, "3" 6 -> 7, "4" 7 -> 8
#   B: A + Writing cost 12 -> 15, Code of Laws cost 13 -> 15 and steal_resources 3 -> 2,
#      Masonry's wonder discount 2 -> 4
for c in D C E; do cand $c 2 600; done
for c in F G H I J K; do cand $c 2 1000; done
cand J 3 600
cand J 4 600
