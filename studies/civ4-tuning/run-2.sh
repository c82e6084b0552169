#!/bin/sh
cd /tmp/tune
cp /tmp/cards.orig.toml civcards/civ4/cards.toml
python3 - <<'PY'
p='civcards/civ4/cards.toml'; s=open(p).read()
for a,b in (('population_cost_base = 6 ','population_cost_base = 10 '),('"2" = 5','"2" = 6')):
    assert a in s; s=s.replace(a,b,1)
open(p,'w').write(s)
PY
env PYTHONPATH=/tmp/tune /work/main/.venv/bin/python -m civcards.cli simulate --game civ4 --no-progress -j 1 -p 2 -b greedy -n 600 --seed 21 --out /tmp/tunedata/popbase10-keep6-2p.parquet --json > /tmp/tunedata/popbase10-keep6-2p.json
cp /tmp/cards.orig.toml civcards/civ4/cards.toml
