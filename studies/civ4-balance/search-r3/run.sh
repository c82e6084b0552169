#!/bin/sh
# Balance under strong play (issue 40): ismcts:1000it mirrors of the default set-up
# (reconstructed-3, finish_round on at 2 players), 400 games at 2 players and 200 each at
# 3 and 4, in chunks of 10 games (one results file a chunk, seeds 40000 + 1000 P + 10 i
# onwards), each committed as it is written, so that a run stopped anywhere resumes where
# it was (a chunk whose file exists is skipped). Run from the repository root, niced:
#   PY=.venv/bin/python nice -n 19 sh studies/civ4-balance/search-r3/run.sh
# Read the chunks together (the report reads many files), e.g.
#   civcards report --game civ4 studies/civ4-balance/search-r3/ismcts1000-2p-c*.parquet --out /tmp/r
#   python scripts/card_use.py studies/civ4-balance/search-r3/ismcts1000-2p-c*.parquet
# BOT (default ismcts:1000it) and JOBS (default 1) may be set.
R=studies/civ4-balance/search-r3
BOT=${BOT:-ismcts:1000it}
PY=${PY:-python}
chunk() {  # chunk PLAYERS INDEX
  f="$R/ismcts1000-$1p-c$(printf %02d "$2").parquet"
  [ -f "$f" ] && return 0
  seed=$((40000 + 1000 * $1 + 10 * $2))
  "$PY" -m civcards.cli simulate --game civ4 --no-progress -j "${JOBS:-1}" -p "$1" -b "$BOT" \
    -n 10 --seed "$seed" --out "$f.tmp.parquet" --json > "$f.json.tmp" || return 1
  mv "$f.tmp.parquet" "$f"; mv "$f.json.tmp" "${f%.parquet}.json"
  for try in 1 2 3 4 5; do
    git add "$f" "${f%.parquet}.json" && \
      git commit -q -m "civ4 balance under strong play: $BOT mirror, $1 players, chunk $2 (10 games, seed $seed) (issue 40)" \
        -- "$f" "${f%.parquet}.json" && break
    sleep 7
  done
}
i=0
while [ $i -lt 40 ]; do
  chunk 2 $i
  [ $i -lt 20 ] && chunk 3 $i
  [ $i -lt 20 ] && chunk 4 $i
  i=$((i + 1))
done
