#!/bin/sh
# Round 4 of the tuning (studies/civ4-balance/README.md, "Round 4: Writing and Code of Laws"):
# Q10's next step as the report recommended it: Writing at 15 coins (and Code of Laws at 15
# too), under the rules as written and under the one_shot_steals variant, built on
# reconstructed-2 with the tech-cost knob. Each candidate is cards-reconstructed-2.toml with
# NAME.changes.json applied by ../r2/mkset.py, put into a copy of the package, and played
# as 2-player greedy mirrors (2,000 games, seed 21: the deals of round 3's base-2p-2000).
# Run from the repository root; PY (default python) is the interpreter with the package's
# dependencies.
set -e
T=${TMPDIR:-/tmp}/civ4-tune-r4
R=studies/civ4-tuning/r4
. studies/civ4-tuning/cand.sh  # cand NAME PLAYERS GAMES [SUFFIX]
# the rules as written (the base is round 3's base-2p-2000: the same deals and set)
for c in W15 W15C15; do cand $c 2 2000; done
# one_shot_steals (C63, C64: each steal once, in the Purchase step of the purchase)
OPTS="-O one_shot_steals=true"
for c in base W15 W15C15; do cand $c 2 2000 -oneshot; done
OPTS=""
