#!/bin/sh
# The baselines arenas (issue 37, "Also"): one arena a game, 2 players, every seating
# rotated, rated with openskill; played in order in chunks of about MIN minutes (default
# 10), the two games by turns, each chunk committed as it is written, so that a run
# stopped anywhere resumes where it was (studies/baselines/play.py: the games already in a
# chunk are skipped, a chunk cut short by a kill is kept). Run from the repository root,
# niced, one process (the machine is shared):
#   PY=.venv/bin/python nohup nice -n 19 sh studies/baselines/run.sh > /tmp/baselines.log 2>&1 &
# The table, from every chunk present:
#   .venv/bin/python scripts/baselines_table.py studies/baselines/carta studies/baselines/civ4
R=studies/baselines
PY=${PY:-python}
MIN=${MIN:-10}
SEED=37
CARTA_BOTS="random,greedy,ismcts:100it,ismcts:300it,ismcts:1000it,net,ismcts+net:300it"
CARTA_GAMES=420  # 10 cycles of the 42 seatings
CIV4_BOTS="random,greedy,culture,military,population,techrush,wonders,ismcts:100it,ismcts:300it,ismcts:1000it,net,ismcts+net:300it"
CIV4_GAMES=132  # 1 cycle of the 132 seatings
chunk() {  # chunk GAME BOTS GAMES; returns 3 when the arena is complete
  "$PY" $R/play.py --game "$1" --bots "$2" -n "$3" --seed $SEED --dir "$R/$1" \
    --minutes "$MIN" --no-progress
  rc=$?
  have=$(cat "$R/$1"/c*.jsonl 2>/dev/null | wc -l)
  for try in 1 2 3 4 5; do
    git add "$R/$1"/c*.jsonl 2>/dev/null
    git diff --cached --quiet -- "$R/$1" && break
    git commit -q -m "baselines: the $1 arena, chunk $(ls "$R/$1" | grep -c 'jsonl$'), $have of $3 games (seed $SEED) (issue 37)" \
      -- "$R/$1" && break
    sleep 7
  done
  return $rc
}
carta=0; civ4=0
while [ $carta -ne 3 ] || [ $civ4 -ne 3 ]; do
  chunk carta "$CARTA_BOTS" $CARTA_GAMES; carta=$?
  chunk civ4 "$CIV4_BOTS" $CIV4_GAMES; civ4=$?
  if [ $carta -ne 0 ] && [ $carta -ne 3 ]; then exit 1; fi
  if [ $civ4 -ne 0 ] && [ $civ4 -ne 3 ]; then exit 1; fi
done
