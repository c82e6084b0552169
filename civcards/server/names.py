"""Players' names: what a name may hold (:func:`clean_name`), what two names of a game must
not share (:func:`name_key`), and a seat's name once it asks for one (:func:`seat_name`)."""

from __future__ import annotations

import unicodedata

from .live import ApiError, Live

#: a name: at most so many characters (grapheme clusters), so many code points (stored),
#: so many columns wide, so many combining marks on one character
MAX_NAME = 40
MAX_NAME_CODEPOINTS = 64
MAX_NAME_WIDTH = 40
MAX_MARKS = 4

#: a name's ``Cf`` (format) characters that are allowed: the zero-width (non-)joiners of
#: emoji sequences and scripts, and the tags of flag sequences (🏴 + tags)
_NAME_FORMAT_OK = frozenset({0x200C, 0x200D}) | frozenset(range(0xE0020, 0xE0080))
#: variation selectors are marks (Mn) that only choose a glyph: not counted as marks
_VARIATION = frozenset(range(0xFE00, 0xFE10)) | frozenset(range(0xE0100, 0xE01F0))


def clean_name(name: str | None) -> str:
    """A display name, checked by grapheme clusters (user-perceived characters, ``regex``'s
    ``\\X``): trimmed and NFC-normalised; at most :data:`MAX_NAME` characters and
    :data:`MAX_NAME_WIDTH` columns on a terminal or a lobby row (``wcwidth``), at most
    :data:`MAX_MARKS` combining marks per character (no stacks drawn over other rows), no
    control, bidirectional or unassigned characters. Ordinary emoji, joined by zero-width
    joiners (👩‍👩‍👧‍👦) or with skin tones and flags, are names like any other."""
    if name is None:
        return ""
    name = unicodedata.normalize("NFC", name.strip())
    if not name:
        return ""
    # loaded with the first name given, not at the server's start (wcwidth's tables: 60 ms)
    import regex
    import wcwidth

    for ch in name:
        cat = unicodedata.category(ch)
        if cat in ("Cc", "Cs", "Co", "Cn", "Zl", "Zp") or (
            cat == "Cf" and ord(ch) not in _NAME_FORMAT_OK
        ):
            raise ApiError(
                422,
                "bad_name",
                "a name may not hold control, direction, unassigned or private characters "
                f"(U+{ord(ch):04X})",
            )
    clusters = regex.findall(r"\X", name)
    if len(clusters) > MAX_NAME or len(name) > MAX_NAME_CODEPOINTS:
        raise ApiError(422, "bad_name", f"a name has at most {MAX_NAME} characters")
    for c in clusters:
        marks = sum(
            1 for ch in c if unicodedata.category(ch).startswith("M") and ord(ch) not in _VARIATION
        )
        if marks > MAX_MARKS:
            raise ApiError(
                422,
                "bad_name",
                f"a character of a name carries at most {MAX_MARKS} accents or marks, not {marks}",
            )
    width = wcwidth.wcswidth(name)
    if width < 0 or width > MAX_NAME_WIDTH:
        raise ApiError(
            422,
            "bad_name",
            f"a name is at most {MAX_NAME_WIDTH} columns wide (a wide character, such as an "
            "emoji or a CJK ideograph, takes two)",
        )
    return name


def name_key(name: str) -> str:
    """What two names must not share within a game: the name, normalised, in any case."""
    return unicodedata.normalize("NFKC", name).casefold().strip()


def seat_name(live: Live, seat: int, name: str) -> str:
    """The seat's name after it asks for ``name`` (empty: keep its own): 409 for one that
    another seat has, or any change once the game has started."""
    info = live.seats[seat]
    if not name or name == info.name:
        return info.name
    if live.moves or live.pending is not None:
        raise ApiError(409, "name_fixed", "the game has started: names can no longer change")
    key = name_key(name)
    for i, other in enumerate(live.seats):
        if i != seat and name_key(other.name) == key:
            raise ApiError(
                409,
                "name_taken",
                f"{other.name!r} is already at this table: choose another name",
            )
    return name
