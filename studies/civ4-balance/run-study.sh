#!/bin/sh
# The simulations of the civ4 balance study (studies/civ4-balance/README.md) for the tuned card
# set reconstructed-2, in the order run. Each line writes one results file (skipped when it
# exists); then
#   civcards report --game civ4 studies/civ4-balance/data/*.parquet --out studies/civ4-balance
# turns them into the report. JOBS (default 2) sets the worker processes; CIVCARDS the
# command (default: civcards). The runs of the original set (reconstructed-1, the "before"
# figures of the changelog) are in data-reconstructed-1/ (that study's script is this file's
# history: git log -p studies/civ4-balance/run-study.sh).
set -e
cd "$(dirname "$0")/../../.."
S="${CIVCARDS:-civcards} simulate --game civ4 --no-progress -j ${JOBS:-2}"
C="-O cards=reconstructed-2"
D=studies/civ4-balance/data
run() { out=$1; shift; [ -f "$D/$out.parquet" ] || $S "$@" $C --out "$D/$out.parquet" --json > "$D/$out.json"; }
# Q1-Q3, Q5, Q7-Q14, Q16: greedy mirrors, the rules as written
run mirror-2p-a -p 2 -b greedy -n 5000 --seed 101
run mirror-3p-a -p 3 -b greedy -n 2000 --seed 101
run mirror-4p-a -p 4 -b greedy -n 2000 --seed 101
# Q4, Q5, Q16: each archetype in one seat against greedy, seats rotated
for a in military population techrush wonders culture; do
  run arch-$a-2p -p 2 -b $a,greedy --rotate -n 400 --seed 102
done
# Q1 (variant), Q10, Q15, Q13
run finish-2p -p 2 -b greedy -n 1000 --seed 103 -O finish_round=true
run oneshot-2p -p 2 -b greedy -n 1000 --seed 104 -O one_shot_steals=true
run hnw-2p -p 2 -b greedy -n 1000 --seed 105 -O happiness_not_wonders=true
for a in military population techrush wonders culture; do
  run hnw-arch-$a-2p -p 2 -b $a,greedy --rotate -n 200 --seed 102 -O happiness_not_wonders=true
done
for a in military population techrush wonders culture; do
  run arch-$a-4p -p 4 -b $a,greedy,greedy,greedy --rotate -n 100 --seed 102
done
run finish-3p -p 3 -b greedy -n 300 --seed 103 -O finish_round=true
run finish-4p -p 4 -b greedy -n 300 --seed 103 -O finish_round=true
run sametype-2p -p 2 -b greedy -n 500 --seed 106 -O same_type_trade=true
# more games for the seat and length questions (towards 10,000 per player count; in chunks,
# so that the runs finished by the deadline count: the report says how many there are)
run mirror-2p-b -p 2 -b greedy -n 5000 --seed 111
run mirror-3p-b -p 3 -b greedy -n 1000 --seed 111
run mirror-4p-b -p 4 -b greedy -n 1000 --seed 111
run mirror-3p-c -p 3 -b greedy -n 1000 --seed 112
run mirror-4p-c -p 4 -b greedy -n 1000 --seed 112
run mirror-3p-d -p 3 -b greedy -n 1000 --seed 113
run mirror-4p-d -p 4 -b greedy -n 1000 --seed 113
# (run beside the lines above, one worker each)
run mirror-4p-e -p 4 -b greedy -n 800 --seed 114 -j 1
run mirror-3p-e -p 3 -b greedy -n 800 --seed 114 -j 1
# (a later session: the rest of the 10,000 games at 3 and 4 players)
run mirror-3p-f -p 3 -b greedy -n 2100 --seed 115
run mirror-4p-f -p 4 -b greedy -n 2100 --seed 115
run mirror-3p-g -p 3 -b greedy -n 2100 --seed 116
run mirror-4p-g -p 4 -b greedy -n 2100 --seed 116
# Q6: civ4's search bot (ismcts with civ4's kit) against greedy, and two budgets against each
# other (small budgets and few games: the study machine's time, see the report)
S1="${CIVCARDS:-civcards} simulate --game civ4 --no-progress -j 1"
run1() { out=$1; shift; [ -f "$D/$out.parquet" ] || $S1 "$@" $C --out "$D/$out.parquet" --json > "$D/$out.json"; }
run1 q6-ismcts50-2p -p 2 -b ismcts:50it,greedy --rotate -n 20 --seed 107
run1 q6-ismcts50-4p -p 4 -b ismcts:50it,greedy,greedy,greedy --rotate -n 8 --seed 107
# (ismcts:50it against ismcts:10it, seed 108, stopped with "'defend ?SPR' is not a step": a
# search-kit bug in a game of two searchers, reported; strength by budget is read against greedy)
run1 q6-ismcts200-2p -p 2 -b ismcts:200it,greedy --rotate -n 10 --seed 109
# (these two stopped with "'defend ?CAT' is not a step" and "'defend ?CHR' is not a step":
# the same search-kit bug, reported; their rows are not in data/)
# run1 q6-ismcts200-4p -p 4 -b ismcts:200it,greedy,greedy,greedy --rotate -n 8 --seed 109
# run1 q6-ismcts50-2p-b -p 2 -b ismcts:50it,greedy --rotate -n 20 --seed 110
# Q10 by DESIGN-NOTES' own measure (a later session): q10-lines.sh, 4,000 games a 2-player
# line under the rules as written
Q10_2P_GAMES=4000
. studies/civ4-balance/q10-lines.sh
# Q4's last target, no archetype beats the search bot: each archetype against ismcts:1000it,
# 2 players, seats rotated (a later session; few games: the search bot takes about a minute
# of CPU a game)
# (16 games an archetype first, seeds 119-120; 32 more on 2026-11-29, seeds 121-124)
for sx in 119: 120:-b 121:-c 122:-d 123:-e 124:-f; do
  for a in military population techrush wonders culture; do
    run q4-$a-ismcts-2p${sx#*:} -p 2 -b $a,ismcts:1000it --rotate -n 8 --seed ${sx%%:*}
  done
done
