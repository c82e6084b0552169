#!/bin/sh
# Balance under strong play (issue 40): ismcts mirrors of the default set-up
# (reconstructed-3, finish_round on at 2 players): 400 games at 2 players first, then 200
# each at 3 and 4, in chunks of 10 games (one results file a chunk, seeds
# 40000 + 1000 P + 10 i onwards), each committed as it is written, so that a run stopped
# anywhere resumes where it was (a chunk whose file exists is skipped). Run from the
# repository root, niced, one process (the machine is shared):
#   BOT=ismcts:200it PY=.venv/bin/python nice -n 19 sh studies/civ4-balance/search-r3/run.sh
# BOT: the search kit's budget (step 1 of issue 40's search-play work: the cheapest budget
# that beats greedy clearly, budget.sh); the files are named after it
# (ismcts200it-2p-c00.parquet ...); 200 iterations beat greedy clearly (the README). JOBS (default 1) may be set.
# ORDER=down runs a second process beside the first without meeting it until the end: the
# 4-player chunks from the last down, then the 3-player ones (a chunk another process is
# writing, its .tmp files present, is skipped: after a crash, remove the stale
# $R/*.tmp* before resuming). The balance page's
# opening table reads every chunk present:
#   .venv/bin/python scripts/civ4_balance_current.py --write studies/civ4-balance/README.md
R=studies/civ4-balance/search-r3
BOT=${BOT:-ismcts:200it}
TAG=$(echo "$BOT" | tr -d ':')
PY=${PY:-python}
chunk() {  # chunk PLAYERS INDEX
  f="$R/$TAG-$1p-c$(printf %02d "$2").parquet"
  [ -f "$f" ] && return 0
  [ -f "$f.tmp.parquet" ] || [ -f "$f.json.tmp" ] && return 0
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
if [ "${ORDER:-up}" = down ]; then
  i=19
  while [ $i -ge 0 ]; do chunk 4 $i; i=$((i - 1)); done
  i=19
  while [ $i -ge 0 ]; do chunk 3 $i; i=$((i - 1)); done
  exit 0
fi
i=0
while [ $i -lt 40 ]; do chunk 2 $i; i=$((i + 1)); done
i=0
while [ $i -lt 20 ]; do chunk 3 $i; chunk 4 $i; i=$((i + 1)); done
