# Sourced by run-study.sh and run-study-reconstructed-3.sh (from the repository root, with
# their run() defined): Q10 by DESIGN-NOTES' own measure, greedy against the same bot without
# Writing or Code of Laws (greedy:not=WRI never buys it nor takes it free, unless it is the
# last technology left), seats rotated. Q10_2P_GAMES sets the games of the two 2-player lines
# under the rules as written.
run q10-wri-2p -p 2 -b greedy,greedy:not=WRI --rotate -n "$Q10_2P_GAMES" --seed 117
run q10-col-2p -p 2 -b greedy,greedy:not=COL --rotate -n "$Q10_2P_GAMES" --seed 117
run q10-wri-2p-oneshot -p 2 -b greedy,greedy:not=WRI --rotate -n 2000 --seed 118 -O one_shot_steals=true
run q10-col-2p-oneshot -p 2 -b greedy,greedy:not=COL --rotate -n 2000 --seed 118 -O one_shot_steals=true
run q10-wri-3p -p 3 -b greedy,greedy:not=WRI,greedy:not=WRI --rotate -n 1500 --seed 117
run q10-col-3p -p 3 -b greedy,greedy:not=COL,greedy:not=COL --rotate -n 1500 --seed 117
run q10-wri-4p -p 4 -b greedy,greedy:not=WRI,greedy:not=WRI,greedy:not=WRI --rotate -n 1200 --seed 117
run q10-col-4p -p 4 -b greedy,greedy:not=COL,greedy:not=COL,greedy:not=COL --rotate -n 1200 --seed 117
