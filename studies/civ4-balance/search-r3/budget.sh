#!/bin/sh
# Issue 40, step 1: the search kit's cheapest budget that beats greedy clearly at civ4 2p,
# on the default set-up (reconstructed-3, finish_round on at 2 players), seats rotated.
# Chunks of 10 games (5 deals, each under both seatings), seeds 1..10 = 100 games a budget,
# one JSON file a chunk in budget/, each committed as it is written (a chunk whose file
# exists is skipped), so a stopped run resumes. Run from the repository root:
#   PY=.venv/bin/python sh studies/civ4-balance/search-r3/budget.sh 50 100 200
# The balance page's budget table pools the chunks by budget (Wilson 95 %; "clearly": the
# interval's low end above 60 %):
#   .venv/bin/python scripts/civ4_balance_current.py --write studies/civ4-balance/README.md
# or one budget: .venv/bin/python scripts/pool_arenas.py studies/civ4-balance/search-r3/budget/ismcts200it-s*.json
R=studies/civ4-balance/search-r3/budget
PY=${PY:-python}
mkdir -p "$R"
for b in "$@"; do
  s=1
  while [ $s -le ${CHUNKS:-10} ]; do
    f="$R/ismcts${b}it-s$(printf %02d $s).json"
    if [ ! -f "$f" ]; then
      nice -n 19 "$PY" -m civcards.cli arena --game civ4 -p 2 -b "ismcts:${b}it,greedy" -n 10 \
        --seed "$s" --jobs 1 --no-progress --json > "$f.tmp" && mv "$f.tmp" "$f" && \
      for try in 1 2 3 4 5; do
        git add "$f" && git commit -q -m "civ4 search budget against greedy, default set-up 2p: ismcts:${b}it, chunk $s (10 games, seed $s) (issue 40)" -- "$f" && break
        sleep 7
      done
    fi
    s=$((s + 1))
  done
done
