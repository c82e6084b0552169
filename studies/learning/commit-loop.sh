#!/bin/bash
# Commit a running `civcards train` run's curve and latest checkpoints (never the buffers),
# every INTERVAL seconds while the run's process lives (docs/learning.md, issue 37).
# usage: studies/learning/commit-loop.sh GAME PID [INTERVAL]
set -u
game=$1; pid=$2; interval=${3:-3600}
dir=studies/learning/$game
cd "$(dirname "$0")/../.." || exit 1
commit() {
    [ -f "$dir/run.json" ] || return 0
    gen=$(python3 -c "import json;print(json.load(open('$dir/run.json'))['generation'])")
    for try in 1 2 3 4 5; do
        git add "$dir/run.json" "$dir/curve.json" "$dir/curve.png" "$dir"/net-g*.npz 2>/dev/null
        git ls-files --deleted -- "$dir" | xargs -r git rm --cached -q --
        if git diff --cached --quiet -- "$dir"; then return 0; fi
        git commit -q -m "studies/learning/$game: training run, generation $gen (issue 37)" -- "$dir" && return 0
        sleep $((try * 7))
    done
}
while kill -0 "$pid" 2>/dev/null; do
    sleep "$interval"
    commit
done
commit
