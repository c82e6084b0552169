"""The rules live in the repository: every rule number the code and the tests cite is
defined in ``docs/rules/`` (or, for the notation's clarifications, ``docs/notation/``), the
card tables there are what the card data gives now, the notation pages' examples are the
test data, and no file sends a reader to a specification folder outside the repository."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES_CARTA = ROOT / "docs" / "rules" / "carta.md"
RULES_CIV4 = ROOT / "docs" / "rules" / "civ4.md"
NOTATION_CARTA = ROOT / "docs" / "notation" / "carta.md"
NOTATION_CIV4 = ROOT / "docs" / "notation" / "civ4.md"

#: the text files of the code and the tests (compiled catalogues and images are not text)
TEXT_SUFFIXES = frozenset({".py", ".md", ".toml", ".js", ".css", ".html", ".mako", ".po", ".pot"})
#: verbatim copies of the specification, kept as test data (checked by test_shared_copies.py)
SPEC_COPIES = ROOT / "tests" / "data"
THIS = Path(__file__).resolve()

#: a citation: CIV's R12, civ4's C45, RU17 and Q10 (a sub-step such as C42.1 cites C42).
#: A word boundary on both sides keeps out codes such as ``#C0392B`` or ``2F1C``.
CITATION = re.compile(r"\b(RU|R|C|Q)(\d+)\b")
#: "clarification 24", "clarifications 1-8", "clarifications 7, 8 and 23"
CLARIFICATION = re.compile(
    r"\b[Cc]larifications?\s+(\d+(?:\s*(?:-|–|,|and)\s*\d+)*)",
)


def _sources() -> Iterator[Path]:
    for folder in (ROOT / "civcards", ROOT / "tests"):
        for p in sorted(folder.rglob("*")):
            # this file is left out: it holds examples of what the scans must catch
            if (
                p.is_file()
                and p.suffix in TEXT_SUFFIXES
                and SPEC_COPIES not in p.parents
                and p != THIS
            ):
                yield p


def _defined(page: Path, pattern: str) -> set[int]:
    return {int(n) for n in re.findall(pattern, page.read_text(encoding="utf-8"), re.M)}


def _clarifications(page: Path) -> set[int]:
    """The numbers of the list under the page's heading ``## Clarifications``."""
    text = page.read_text(encoding="utf-8")
    section = text[text.index("\n## Clarifications\n") :]
    following = re.search(r"\n## ", section[1:])
    if following is not None:
        section = section[: following.start() + 1]
    return {int(n) for n in re.findall(r"^ {0,3}(\d+)\. ", section, re.M)}


def defined_numbers() -> dict[str, set[int]]:
    """Each citation prefix and the numbers the rules pages define for it."""
    return {
        "R": _defined(RULES_CARTA, r"^\*\*R(\d+)\. "),
        "C": _defined(RULES_CIV4, r"^\*\*C(\d+)\. "),
        "RU": _defined(RULES_CIV4, r"^- \*\*RU(\d+)\*\* "),
        "Q": _defined(RULES_CIV4, r"^\| Q(\d+) \| "),
        "clarification": _clarifications(RULES_CIV4) | _clarifications(NOTATION_CIV4),
    }


def _numbers(span: str) -> list[int]:
    out: list[int] = []
    for part in re.split(r"\s*(?:,|and)\s*", span):
        ends = [int(x) for x in re.split(r"\s*[-–]\s*", part) if x]
        out += list(range(ends[0], ends[-1] + 1)) if len(ends) == 2 else ends
    return out


def undefined_citations(text: str, defined: dict[str, set[int]]) -> list[str]:
    """The citations in ``text`` that no rules page defines."""
    bad = [f"{kind}{n}" for kind, n in CITATION.findall(text) if int(n) not in defined[kind]]
    for span in CLARIFICATION.findall(text):
        bad += [f"clarification {n}" for n in _numbers(span) if n not in defined["clarification"]]
    return bad


def test_the_rules_pages_define_every_number_of_the_specs() -> None:
    """R1-R25 (CIV); C1-C72, RU1-RU32, Q1-Q16 and the clarifications (civ4), each once."""
    d = defined_numbers()
    assert d["R"] == set(range(1, 26))
    assert d["C"] == set(range(1, 73))
    assert d["RU"] == set(range(1, 33))
    assert d["Q"] == set(range(1, 17))
    assert _clarifications(RULES_CIV4) == set(range(1, 11))
    assert _clarifications(NOTATION_CIV4) == set(range(1, 25))
    for page, pattern, count in (
        (RULES_CARTA, r"^\*\*R\d+\. ", 25),
        (RULES_CIV4, r"^\*\*C\d+\. ", 72),
        (RULES_CIV4, r"^- \*\*RU\d+\*\* ", 32),
    ):
        assert len(re.findall(pattern, page.read_text(encoding="utf-8"), re.M)) == count


def test_the_scan_finds_citations_and_only_citations() -> None:
    """The scanner itself: citations are found (sub-steps, ranges, clarification lists);
    card codes, resources, hex colours and identifiers are not citations."""
    d = {"R": {8, 12}, "C": {42, 45}, "RU": {17}, "Q": {10}, "clarification": {1, 2, 3, 7}}
    assert undefined_citations("R12, R8.4, C42.1, C45 (RU17), Q10; clarifications 1-3, 7", d) == []
    assert undefined_citations("R26 and C73, RU33, Q17", d) == ["R26", "C73", "RU33", "Q17"]
    assert undefined_citations("clarifications 2, 8 and 9", d) == [
        "clarification 8",
        "clarification 9",
    ]
    assert undefined_citations("#C0392B 2F1C p3=CC RC4 xR2 C_1 Q4_share", d) == []


def test_every_cited_rule_is_defined_in_docs_rules() -> None:
    """Every R, C, RU and Q number and every clarification cited in civcards/ and tests/
    is defined in docs/rules/ (or docs/notation/ for the notation's clarifications)."""
    defined = defined_numbers()
    bad: list[str] = []
    for path in _sources():
        text = path.read_text(encoding="utf-8")
        for cite in sorted(set(undefined_citations(text, defined))):
            bad.append(f"{path.relative_to(ROOT)}: {cite}")
    assert not bad, "cited but not defined in docs/rules/:\n" + "\n".join(bad)


def _rules_tables() -> ModuleType:
    path = ROOT / "scripts" / "rules_tables.py"
    spec = importlib.util.spec_from_file_location("rules_tables", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("rules_tables", module)
    spec.loader.exec_module(module)
    return module


def test_the_card_tables_are_what_the_card_data_gives() -> None:
    """docs/rules/*.md's generated tables equal what scripts/rules_tables.py writes now."""
    tool = _rules_tables()
    assert tool.stale_pages() == [], "run: python scripts/rules_tables.py"


def test_the_card_tables_go_stale_when_the_data_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check can fail: a section that renders differently makes its page stale."""
    tool = _rules_tables()
    sections = dict(tool.SECTIONS[tool.CARTA_PAGE])
    sections["carta thresholds"] = lambda: "| players |\n|---|"
    monkeypatch.setitem(tool.SECTIONS, tool.CARTA_PAGE, sections)
    assert tool.stale_pages() == [tool.CARTA_PAGE]


def test_each_civ4_card_set_is_shown_and_called_reconstructed() -> None:
    from civcards.civ4.options import CARD_SETS

    text = RULES_CIV4.read_text(encoding="utf-8")
    for name in CARD_SETS:
        assert f"Card set **{name}**, RECONSTRUCTED" in text
    assert len(CARD_SETS) == 3


EXAMPLE = re.compile(r"<!-- example: (\S+) -->\n```json\n(.*?)\n```", re.S)


@pytest.mark.parametrize("page", [NOTATION_CARTA, NOTATION_CIV4], ids=lambda p: p.stem)
def test_the_notation_pages_show_the_test_data(page: Path) -> None:
    """The examples of docs/notation/ are the records of tests/data/ (a shown position may
    leave out its ``legal`` list), so the page cannot drift from what the tests replay."""
    shown = EXAMPLE.findall(page.read_text(encoding="utf-8"))
    assert len(shown) >= 2
    for rel, block in shown:
        data = json.loads((ROOT / rel).read_text(encoding="utf-8"))
        obj = json.loads(block)
        if "legal" not in obj:
            data.pop("legal", None)
        assert obj == data, rel


#: a path into the specification folder that lies beside the repository, not in it
OUTSIDE = re.compile(r"(?<![\w.-])(?:\.\./)*" + "shared" + r"/")
#: where the tests look for that folder, to compare their copies of it (test_shared_copies.py)
LOCATOR = ROOT / "tests" / "shared.py"


def test_no_file_sends_a_reader_outside_the_repository() -> None:
    """The rules and the notation are docs/rules/ and docs/notation/: no file of the code,
    the tests, the scripts, the docs, the studies or the README points at the specification
    folder beside a clone."""
    files = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    files += sorted((ROOT / "studies").rglob("*.md")) + sorted((ROOT / "scripts").glob("*.py"))
    files += [p for p in _sources() if p != LOCATOR]
    bad = [
        f"{p.relative_to(ROOT)}:{i}: {line.strip()}"
        for p in files
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if OUTSIDE.search(line)
    ]
    assert not bad, "point these at docs/rules/ or docs/notation/:\n" + "\n".join(bad)
    assert OUTSIDE.search("see ../shared/RULES.md") and OUTSIDE.search("`shared/civ4/`")
    assert not OUTSIDE.search("tests/shared.py") and not OUTSIDE.search("overshared/x")


def test_readme_and_architecture_link_the_rules() -> None:
    for page in (ROOT / "README.md", ROOT / "docs" / "architecture.md"):
        text = page.read_text(encoding="utf-8")
        for target in ("rules/carta.md", "rules/civ4.md", "notation/carta.md", "notation/civ4.md"):
            assert target in text, f"{page.name} does not link {target}"
