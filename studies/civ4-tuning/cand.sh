# Sourced by the tuning rounds built on reconstructed-2 (r3/run.sh, r4/run.sh), run from the
# repository root with T (a scratch folder) and R (the round's folder, relative to the root) set.
# It defines
#   cand NAME PLAYERS GAMES [SUFFIX]
# which plays candidate NAME (cards-reconstructed-2.toml with R/NAME.changes.json applied by
# r2/mkset.py, in a copy of the package) as greedy mirrors, seed 21, with the options in OPTS,
# into R/NAME-<PLAYERS>p<SUFFIX>.parquet and .json (skipped when the file exists). PY (default
# python) is the interpreter with the package's dependencies.
ROOT=$(pwd)
PY=$(command -v "${PY:-python}")
case "$PY" in /*) ;; *) PY="$ROOT/$PY" ;; esac  # the runs start in another folder
OPTS=""
cand() {
  out="$1-$2p$4"
  [ -f "$R/$out.parquet" ] && return 0
  rm -rf "$T/$1"; mkdir -p "$T/$1"; cp -r civcards "$T/$1/"
  [ -f "$R/$1.changes.json" ] && MKSET_SRC=civcards/civ4/cards-reconstructed-2.toml \
    python3 studies/civ4-tuning/r2/mkset.py "$T/$1/civcards/civ4/cards-reconstructed-2.toml" "$R/$1.changes.json"
  # run inside the copy: `python -m` puts the working directory first on the path
  (cd "$T/$1" && env PYTHONPATH="$T/$1" "$PY" -m civcards.cli simulate --game civ4 --no-progress -j 1 -p "$2" \
    -b greedy -n "$3" --seed 21 -O cards=reconstructed-2 $OPTS --out "$ROOT/$R/$out.parquet" --json) > "$R/$out.json"
}
