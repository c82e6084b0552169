#!/bin/sh
# Issue 40, step 1: the search kit's cheapest budget that beats greedy clearly at civ4 2p,
# on the default set-up (reconstructed-3, finish_round on at 2 players), seats rotated.
# Chunks of 10 games (5 deals, each under both seatings), seeds 1..10 = 100 games a budget,
# one JSON file a chunk in budget/ (a chunk whose file exists is skipped), so a stopped run
# resumes. Run from the repository root:
#   PY=.venv/bin/python sh studies/civ4-balance/search-r3/budget.sh 50 100 200
# Pool a budget's chunks (wins, Wilson 95 %):
#   .venv/bin/python scripts/pool_arenas.py studies/civ4-balance/search-r3/budget/ismcts50it-s*.json
R=studies/civ4-balance/search-r3/budget
PY=${PY:-python}
mkdir -p "$R"
for b in "$@"; do
  s=1
  while [ $s -le ${CHUNKS:-10} ]; do
    f="$R/ismcts${b}it-s$(printf %02d $s).json"
    if [ ! -f "$f" ]; then
      nice -n 19 "$PY" -m civcards.cli arena --game civ4 -p 2 -b "ismcts:${b}it,greedy" -n 10 \
        --seed "$s" --jobs 1 --no-progress --json > "$f.tmp" && mv "$f.tmp" "$f"
    fi
    s=$((s + 1))
  done
done
