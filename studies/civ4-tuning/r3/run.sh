#!/bin/sh
# Round 3 of the tuning (studies/civ4-balance/README.md, "Round 3: fewer attacking units"):
# candidates for Q5 built on reconstructed-2 with the unit-count knob (open since
# 2026-11-28). Each candidate is cards-reconstructed-2.toml with NAME.changes.json applied
# by ../r2/mkset.py, put into a copy of the package, and played as greedy mirrors (seed 21).
# The base (reconstructed-2 itself) is played the same way, side by side. Run from the
# repository root; PY (default python) is the interpreter with the package's dependencies.
set -e
T=${TMPDIR:-/tmp}/civ4-tune-r3
R=studies/civ4-tuning/r3
. studies/civ4-tuning/cand.sh  # cand NAME PLAYERS GAMES [SUFFIX]
for c in base U1 U2 U3; do cand $c 2 600; done
# a further cut of the attackers (6 left), and the two player counts where thefts are over
cand U4 2 600
for c in base U2 U4; do cand $c 4 400; done
# between U3 and U4 (8 attackers), with more games for the seat question (the first 600
# games of a run of 2,000 are those of the run of 600: the same seed)
cand U5 2 2000 -2000
cand base 2 2000 -2000
cand U5 4 600
cand U3 4 400
# the first seat at 2 players with fewer attacks (U5: 58.5 % in 2,000 games), under the
# variant recommended for 2 players; and U5 at 3 players
OPTS="-O finish_round=true"
cand U5 2 1000 -finish
cand base 2 1000 -finish
OPTS=""
cand U5 3 600
cand base 3 600
