#!/bin/bash
# Commit a running `civcards train --method pg` run's curve and its evaluated networks (the
# ones its curve has a gauntlet for), every INTERVAL seconds while the run's process lives
# (docs/learning.md, issue 37); a network no longer on disk (pruned to keep the
# repository small) is left out. Only paths under studies/learning/DIR are staged or committed.
# usage: studies/learning/pg-commit-loop.sh DIR PID [INTERVAL]     e.g. civ4-pg 8943 600
set -u
name=$1; pid=$2; interval=${3:-1800}
dir=studies/learning/$name
cd "$(dirname "$0")/../.." || exit 1
commit() {
    [ -f "$dir/run.json" ] || return 0
    it=$(python3 -c "import json;print(json.load(open('$dir/run.json'))['iteration'])")
    nets=$(python3 -c "
import json
for c in json.load(open('$dir/run.json'))['curve']:
    if 'gauntlet' in c:
        print('$dir/net-i%03d.npz' % c['iteration'])" | while read -r f; do [ -f "$f" ] && echo "$f"; done)
    last=$(python3 -c "
import json
c=[c for c in json.load(open('$dir/run.json'))['curve'] if 'gauntlet' in c][-1]['gauntlet']['net_vs_greedy']
print('net vs greedy %.1f %% (%.1f-%.1f) of %d' % (100*c['rate'], 100*c['low'], 100*c['high'], c['games']))" 2>/dev/null)
    for try in 1 2 3 4 5; do
        # shellcheck disable=SC2086
        git add -- "$dir/run.json" "$dir/curve.json" "$dir/curve.png" $nets 2>/dev/null
        if git diff --cached --quiet -- "$dir"; then return 0; fi
        git commit -q -m "studies/learning/$name: policy-gradient run, iteration $it (last eval: $last) (issue 37)" -- "$dir" && return 0
        sleep $((try * 7))
    done
}
while kill -0 "$pid" 2>/dev/null; do
    commit
    sleep "$interval"
done
commit
