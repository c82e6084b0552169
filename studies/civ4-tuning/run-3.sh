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
set_cards 'starting_hand = [6, 7, 8, 9]' 'starting_hand = [6, 8, 8, 9]'
$S --out /tmp/tunedata/hand68-2p.parquet --json > /tmp/tunedata/hand68-2p.json
set_cards 'code = "WRI"
name = "Writing"
era = 2
cost = 12' 'code = "WRI"
name = "Writing"
era = 2
cost = 15'
$S --out /tmp/tunedata/wri15-2p.parquet --json > /tmp/tunedata/wri15-2p.json
cp /tmp/cards.orig.toml civcards/civ4/cards.toml
