"""Run from the repository root. mkset.py OUT.toml CHANGES.json: the original cards.toml with changes applied.
CHANGES: {"rules": {"population_cost_base": 10}, "CODE": {"cost": 15, "effects": "[ ... ]"}, "tech_cost_add": {"1":1,...}}"""

import json
import os
import re
import sys
from pathlib import Path


def field(pattern: str, block: str) -> str:
    """The first group of ``pattern``'s match in ``block`` (multi-line); every tech has one."""
    m = re.search(pattern, block, re.M)
    assert m is not None, (pattern, block)
    return m.group(1)


src = Path(os.environ.get("MKSET_SRC", "civcards/civ4/cards.toml")).read_text()  # r3: the tuned set
ch = json.loads(Path(sys.argv[2]).read_text())
lines = src.split("\n")
code = None
out = []
add = ch.get("tech_cost_add", {})
for ln in lines:
    m = re.match(r'code = "(\w+)"', ln)
    if m:
        code = m.group(1)
    if ln.startswith("[") and not ln.startswith("[["):
        code = None
    m2 = re.match(r"(\w+) = (.*?)(\s*#.*)?$", ln)
    if m2 and code and code in ch and m2.group(1) in ch[code]:
        v = ch[code][m2.group(1)]
        ln = f"{m2.group(1)} = {v if isinstance(v, str) else json.dumps(v)}" + (m2.group(3) or "")
    if m2 and code is None and m2.group(1) in ch.get("rules", {}):
        ln = f"{m2.group(1)} = {ch['rules'][m2.group(1)]}" + (m2.group(3) or "")
    out.append(ln)
text = "\n".join(out)
# tech cost additions per era: second pass
if add:
    blocks = text.split("[[tech]]")
    for i in range(1, len(blocks)):
        e = field(r"^era = (\d)", blocks[i])
        c = field(r'^code = "(\w+)"', blocks[i])
        if c in ch and "cost" in ch[c]:
            continue
        extra: int = add.get(e, 0)
        cost = int(field(r"^cost = (\d+)", blocks[i]))
        blocks[i] = re.sub(r"^cost = \d+", f"cost = {cost + extra}", blocks[i], count=1, flags=re.M)
    text = "[[tech]]".join(blocks)
Path(sys.argv[1]).write_text(text)
