#!/bin/sh
# The civ4 balance study of the card set reconstructed-3 (round 3's candidate U5; see
# studies/civ4-balance/README.md, "Round 3"): the study of run-study.sh (reconstructed-2) with
# the same lines and seeds, its 10,000 greedy mirrors per player count first. Each line writes
# one results file into data-reconstructed-3/ (skipped when it exists); then
#   civcards report --game civ4 studies/civ4-balance/data-reconstructed-3/*.parquet \
#       --out studies/civ4-balance/reconstructed-3
# turns them into its report. JOBS (default 2) sets the worker processes; CIVCARDS the
# command (default: civcards). The search-bot lines (Q6) are left out: they measure the bot,
# not the cards, and are in BENCHMARKS.md.
set -e
cd "$(dirname "$0")/../../.."
S="${CIVCARDS:-civcards} simulate --game civ4 --no-progress -j ${JOBS:-2}"
C="-O cards=reconstructed-3"
D=studies/civ4-balance/data-reconstructed-3
mkdir -p "$D"
run() { out=$1; shift; [ -f "$D/$out.parquet" ] || $S "$@" $C --out "$D/$out.parquet" --json > "$D/$out.json"; }
# Q1-Q3, Q5, Q7-Q14, Q16: greedy mirrors, the rules as written, 10,000 per player count
run mirror-2p-a -p 2 -b greedy -n 5000 --seed 101
run mirror-3p-a -p 3 -b greedy -n 2000 --seed 101
run mirror-4p-a -p 4 -b greedy -n 2000 --seed 101
run mirror-2p-b -p 2 -b greedy -n 5000 --seed 111
run mirror-3p-b -p 3 -b greedy -n 2000 --seed 111
run mirror-4p-b -p 4 -b greedy -n 2000 --seed 111
run mirror-3p-c -p 3 -b greedy -n 2000 --seed 112
run mirror-4p-c -p 4 -b greedy -n 2000 --seed 112
run mirror-3p-d -p 3 -b greedy -n 2000 --seed 113
run mirror-4p-d -p 4 -b greedy -n 2000 --seed 113
run mirror-3p-e -p 3 -b greedy -n 2000 --seed 114
run mirror-4p-e -p 4 -b greedy -n 2000 --seed 114
# Q1 (variant), Q10, Q15, Q13
run finish-2p -p 2 -b greedy -n 1000 --seed 103 -O finish_round=true
run finish-3p -p 3 -b greedy -n 300 --seed 103 -O finish_round=true
run finish-4p -p 4 -b greedy -n 300 --seed 103 -O finish_round=true
# Q4, Q5, Q16: each archetype in one seat against greedy, seats rotated
for a in military population techrush wonders culture; do
  run arch-$a-2p -p 2 -b $a,greedy --rotate -n 400 --seed 102
done
for a in military population techrush wonders culture; do
  run arch-$a-4p -p 4 -b $a,greedy,greedy,greedy --rotate -n 100 --seed 102
done
run oneshot-2p -p 2 -b greedy -n 1000 --seed 104 -O one_shot_steals=true
run hnw-2p -p 2 -b greedy -n 1000 --seed 105 -O happiness_not_wonders=true
for a in military population techrush wonders culture; do
  run hnw-arch-$a-2p -p 2 -b $a,greedy --rotate -n 200 --seed 102 -O happiness_not_wonders=true
done
run sametype-2p -p 2 -b greedy -n 500 --seed 106 -O same_type_trade=true
# Q10 by DESIGN-NOTES' own measure (a later session): run-study.sh's q10 lines and seeds
# (q10-lines.sh), the 2-player lines under the rules as written playing the first 2,000 of
# its 4,000 games
Q10_2P_GAMES=2000
. studies/civ4-balance/q10-lines.sh
