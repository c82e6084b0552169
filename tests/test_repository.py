"""The repository's shape: ``docs/`` holds prose and the figures it shows, the data of
each study lives in ``studies/<name>/``, and every relative Markdown link resolves
(README.md, BENCHMARKS.md, docs/, studies/)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
STUDIES = ROOT / "studies"

#: what docs/ may hold: prose and figures; data and run scripts go into studies/<name>/
PROSE_AND_FIGURES = frozenset({".md", ".png", ".svg", ".jpg", ".jpeg", ".gif", ".webp"})
#: docs/ stays small enough to read and to clone
DOCS_MAX_BYTES = 3 * 1024 * 1024

LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
INLINE_CODE = re.compile(r"`[^`\n]*`")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.M)


def _files(folder: Path) -> list[Path]:
    """The files under ``folder``, hidden ones (editor and OS droppings) left out."""
    return sorted(
        p
        for p in folder.rglob("*")
        if p.is_file() and not any(part.startswith(".") for part in p.relative_to(folder).parts)
    )


def _markdown_files() -> list[Path]:
    files = [ROOT / "README.md", ROOT / "BENCHMARKS.md"]
    for folder in (DOCS, STUDIES):
        files += [p for p in _files(folder) if p.suffix == ".md"]
    return [p for p in files if p.exists()]


def _prose(text: str) -> str:
    """The text outside code blocks and inline code, where a link is a link."""
    return INLINE_CODE.sub("", FENCE.sub("", text))


def _anchors(path: Path) -> set[str]:
    """GitHub's anchors for the headings of a Markdown file: lower case, punctuation
    dropped, spaces to hyphens; a repeated heading gets -1, -2, ..."""
    seen: dict[str, int] = {}
    anchors: set[str] = set()
    for heading in HEADING.findall(FENCE.sub("", path.read_text(encoding="utf-8"))):
        plain = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link: its text
        slug = re.sub(r"[^\w\- ]", "", plain.lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        anchors.add(slug if n == 0 else f"{slug}-{n}")
    return anchors


def _broken_links(path: Path, root: Path = ROOT) -> list[str]:
    broken = []
    for target in LINK.findall(_prose(path.read_text(encoding="utf-8"))):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # http:, https:, mailto: ...
            continue
        file_part, _, anchor = target.partition("#")
        dest = (path.parent / file_part).resolve() if file_part else path
        where = f"{path.relative_to(root)}: ({target})"
        if not dest.exists():
            broken.append(f"{where} names no file or folder")
        elif anchor and dest.suffix == ".md" and anchor.lower() not in _anchors(dest):
            broken.append(f"{where} names no heading of {dest.relative_to(root)}")
    return broken


def test_docs_hold_only_prose_and_figures() -> None:
    other = [
        str(p.relative_to(ROOT)) for p in _files(DOCS) if p.suffix.lower() not in PROSE_AND_FIGURES
    ]
    assert not other, (
        f"docs/ holds prose and figures only; move these into their study's folder under studies/: {other}"
    )


def test_docs_are_small() -> None:
    size = sum(p.stat().st_size for p in _files(DOCS))
    assert size < DOCS_MAX_BYTES, (
        f"docs/ is {size / 2**20:.1f} MB, over {DOCS_MAX_BYTES / 2**20:.0f} MB"
    )


def test_every_figure_in_docs_is_shown() -> None:
    shown = set()
    for md in _markdown_files():
        for target in LINK.findall(_prose(md.read_text(encoding="utf-8"))):
            shown.add((md.parent / target.partition("#")[0]).resolve())
    unshown = [
        str(p.relative_to(ROOT))
        for p in _files(DOCS)
        if p.suffix.lower() != ".md" and p.resolve() not in shown
    ]
    assert not unshown, f"figures in docs/ that no page shows: {unshown}"


def test_every_study_has_a_readme() -> None:
    studies = [p for p in STUDIES.iterdir() if p.is_dir() and not p.name.startswith(".")]
    assert studies, "studies/ holds the studies"
    missing = [p.name for p in studies if not (p / "README.md").is_file()]
    assert not missing, f"studies without a README.md: {missing}"


def test_relative_markdown_links_resolve() -> None:
    broken = [line for md in _markdown_files() for line in _broken_links(md)]
    assert not broken, "broken links:\n" + "\n".join(broken)


def test_the_link_checker_sees_a_broken_link(tmp_path: Path) -> None:
    """The checker itself: a missing file, a missing heading and a link in code."""
    page = tmp_path / "page.md"
    page.write_text(
        "# A title\n\n## Web table under load (issue 22)\n\n"
        "[ok](#a-title) [ok2](#web-table-under-load-issue-22) [gone](missing.md) "
        "[bad](#no-such) `[code](nowhere.md)`\n\n```\n[fenced](nowhere.md)\n```\n",
        encoding="utf-8",
    )
    assert _broken_links(page, tmp_path) == [
        "page.md: (missing.md) names no file or folder",
        "page.md: (#no-such) names no heading of page.md",
    ]
