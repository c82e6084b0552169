#!/bin/sh
cd /tmp/tune
set_cards() { cp /tmp/cards.orig.toml civcards/civ4/cards.toml; python3 - "$@" <<'PY'
import sys
p='civcards/civ4/cards.toml'; s=open(p).read()
args=sys.argv[1:]
for a,b in zip(args[::2], args[1::2]):
    assert a in s, a
    s=s.replace(a,b,1)
open(p,'w').write(s)
PY
}
S="env PYTHONPATH=/tmp/tune /work/main/.venv/bin/python -m civcards.cli simulate --game civ4 --no-progress -j 1 -p 2 -b greedy -n 600 --seed 21"
set_cards 'population_cost_base = 6 ' 'population_cost_base = 8 '
$S --out /tmp/tunedata/popbase8-2p.parquet --json > /tmp/tunedata/popbase8-2p.json
set_cards 'population_cost_base = 6 ' 'population_cost_base = 8 ' '"2" = 5' '"2" = 6'
$S --out /tmp/tunedata/popbase8-keep6-2p.parquet --json > /tmp/tunedata/popbase8-keep6-2p.json
cp /tmp/cards.orig.toml civcards/civ4/cards.toml
$S --out /tmp/tunedata/base-2p.parquet --json > /tmp/tunedata/base-2p.json
