"""Catalogue tools (need Babel, the ``dev`` extra): ``python -m civcards.locale COMMAND``.

* ``template``: write ``civcards/locale/<domain>.pot`` for every domain from its
  English catalogue (the English ``.po`` is where message ids are added), with
  each English text as an extracted comment for the translators; then
  ``pybabel update`` merges the template into every language.
* ``check``: say which translations are missing, empty or fuzzy, and which
  ``.mo`` files are older than their ``.po`` (exit status 1 if any).
"""

from __future__ import annotations

import datetime
import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from ..i18n import DEFAULT_LANG, LANGS, LOCALE_DIR

#: a fixed date keeps the templates (and so ``pybabel update``) reproducible
STAMP = datetime.datetime(2025, 1, 1, tzinfo=datetime.UTC)


def po_path(lang: str, domain: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"


def po_domains() -> list[str]:
    """Every domain with an English ``.po`` file."""
    return sorted(p.stem for p in (LOCALE_DIR / DEFAULT_LANG / "LC_MESSAGES").glob("*.po"))


def read(lang: str, domain: str) -> Catalog:
    with po_path(lang, domain).open("rb") as f:
        return read_po(f, locale=lang, domain=domain)


def template(domain: str) -> Catalog:
    """The template of ``domain``: the English catalogue's ids, the English texts as comments."""
    en = read(DEFAULT_LANG, domain)
    pot = Catalog(
        domain=domain,
        project="civcards",
        version="0.1",
        copyright_holder="civcards",
        creation_date=STAMP,
        revision_date=STAMP,
        fuzzy=False,
    )
    for msg in en:
        if msg.id:
            # a plural text (msgid_plural): its English forms, one after the other
            said = " | ".join(_forms(msg.string))
            empty: str | tuple[str, ...] = "" if isinstance(msg.id, str) else ("", "")
            pot.add(msg.id, empty, auto_comments=[f"en: {said}"], context=msg.context)
    return pot


def write_template(domain: str) -> Path:
    path = LOCALE_DIR / f"{domain}.pot"
    buf = io.BytesIO()
    write_po(buf, template(domain), width=100, sort_output=False)
    path.write_bytes(buf.getvalue())
    return path


def problems() -> list[str]:
    """Every missing, empty or fuzzy translation, and every stale ``.mo`` (one line each)."""
    out: list[str] = []
    for domain in po_domains():
        ids = [m.id for m in read(DEFAULT_LANG, domain) if m.id]
        for lang in LANGS:
            path = po_path(lang, domain)
            if not path.is_file():
                out.append(f"{path}: missing")
                continue
            cat = read(lang, domain)
            for key in ids:
                msg = cat.get(key)
                if msg is None:
                    out.append(f"{path}: {_key(key)} is missing")
                elif isinstance(key, str) != isinstance(msg.id, str):
                    out.append(f"{path}: {_key(key)} has plural forms in one catalogue only")
                elif not all(s.strip() for s in _forms(msg.string)):
                    out.append(f"{path}: {_key(key)} is empty")
                elif msg.fuzzy:
                    out.append(f"{path}: {_key(key)} is fuzzy (check it, then remove the flag)")
            known = {_key(k) for k in ids}
            extra = sorted(_key(m.id) for m in cat if m.id and _key(m.id) not in known)
            out.extend(f"{path}: {key} is not in the English catalogue" for key in extra)
            mo = path.with_suffix(".mo")
            if not mo.is_file() or mo.read_bytes() != compiled(cat):
                out.append(f"{mo}: not compiled from {path.name} (run `make translations`)")
    return out


def _key(msgid: str | tuple[str, ...] | list[str]) -> str:
    """A message's key: its id (the singular id of a plural text)."""
    return msgid if isinstance(msgid, str) else msgid[0]


def _forms(string: str | tuple[str, ...] | list[str] | None) -> list[str]:
    """A translation's texts: one, or each plural form (none: missing)."""
    if string is None:
        return [""]
    return [string] if isinstance(string, str) else list(string) or [""]


def compiled(cat: Catalog) -> bytes:
    """The ``.mo`` bytes that ``pybabel compile`` writes for ``cat``."""
    buf = io.BytesIO()
    write_mo(buf, cat)
    return buf.getvalue()


def main(argv: list[str]) -> int:
    if argv == ["template"]:
        for domain in po_domains():
            print(write_template(domain))
        return 0
    if argv == ["check"]:
        found = problems()
        for line in found:
            print(line)
        return 1 if found else 0
    print("usage: python -m civcards.locale template|check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
