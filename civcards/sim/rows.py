"""One row per simulated game, written to Parquet or CSV (``simulate --out``) and read back.

The columns are the same for every run of a game, whatever the number of
players (the seats a game does not have are empty), so files of several runs
can be read together:

* ``game`` (its index in the run), ``seed`` (the deal's seed), ``players``,
  then one column per set-up option of the game (CIV: ``deal``, ``teams``),
  ``start`` (the seat that moved first);
* ``bot_<s>`` the bot at seat ``s``;
* ``winners`` the winning seats separated by spaces, ``win_<s>`` 1 if seat
  ``s`` won, else 0, ``shared`` whether rivals shared the victory,
  ``start_won`` 1 if the first seat is among the winners;
* ``victory``: how the game ended, in the game's word (CIV: ``hegemony`` or
  ``majority``);
* ``turns`` (the game's turn counter at the end) and ``moves`` (the moves
  played);
* then the game's own columns (:meth:`civcards.game_api.Game.sim_columns`;
  CIV's: :mod:`civcards.games.carta.sim`).
"""

from __future__ import annotations

import csv
import gzip
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from ..game_api import Game
from .simulate import GameResult

SUFFIXES = (".parquet", ".csv", ".csv.gz")
_OPTION_TYPES = {"bool": "bool", "int": "int", "choice": "str"}


def _default() -> Game:
    from .simulate import default_game

    return default_game()


def columns(game: Game) -> dict[str, str]:
    """Column name -> type (``int``, ``str``, ``bool``) of ``game``'s rows, in file order."""
    seats = game.max_players
    out: dict[str, str] = {"game": "int", "seed": "int", "players": "int"}
    for o in game.options:
        out.setdefault(o.name, _OPTION_TYPES.get(o.kind, "str"))
    out["start"] = "int"
    out.update({f"bot_{s}": "str" for s in range(seats)})
    out["winners"] = "str"
    out.update({f"win_{s}": "int" for s in range(seats)})
    out.update({"shared": "bool", "start_won": "int", "victory": "str"})
    out.update({"turns": "int", "moves": "int"})
    hook = getattr(game, "sim_columns", None)
    if hook is not None:
        for name, kind in hook().items():
            out.setdefault(name, kind)
    return out


def game_row(r: GameResult, game: Game | None = None) -> dict[str, Any]:
    """The row of one game (absent seats are None)."""
    game = game or _default()
    seats = game.max_players
    row: dict[str, Any] = {"game": r.index, "seed": r.seed, "players": r.players}
    for o in game.options:
        row[o.name] = r.options.get(o.name)
    row["start"] = r.start
    won = set(r.winners)
    for s in range(seats):
        row[f"bot_{s}"] = r.seats[s] if s < r.players else None
    row["winners"] = " ".join(str(w) for w in sorted(won))
    for s in range(seats):
        row[f"win_{s}"] = int(s in won) if s < r.players else None
    row["shared"] = r.shared
    row["start_won"] = int(r.start in won)
    row["victory"] = r.victory
    row["turns"] = r.turns
    row["moves"] = r.moves
    row.update(r.extra)
    return row


def check_out_path(path: str | Path) -> Path:
    """Check that ``path`` has a known suffix and that its folder can be written."""
    p = Path(path)
    name = p.name.lower()
    if not name.endswith(SUFFIXES):
        raise ValueError(f"{str(p)!r}: the results file must end in .parquet, .csv or .csv.gz")
    if p.is_dir():
        raise ValueError(f"{str(p)!r} is a folder, not a file")
    if name.endswith(".parquet"):
        _pyarrow()
    parent = p.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ValueError(f"cannot create the folder {str(parent)!r} ({e.strerror})") from None
    if not parent.is_dir():
        raise ValueError(f"{str(parent)!r} is not a folder")
    return p


def _pyarrow() -> Any:
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise ValueError(
            "Parquet files need pyarrow: pip install 'civcards[sim]', or write a .csv file"
        ) from None
    return pyarrow


def write_rows(path: str | Path, rows: Iterable[dict[str, Any]], game: Game | None = None) -> int:
    """Write ``rows`` of ``game`` (default: the default game) to ``path`` (Parquet or CSV by
    its suffix); returns the count."""
    p = check_out_path(path)
    cols = columns(game or _default())
    data = list(rows)
    if p.name.lower().endswith(".parquet"):
        pa = _pyarrow()
        types = {"int": pa.int64(), "str": pa.string(), "bool": pa.bool_()}
        schema = pa.schema([(name, types[t]) for name, t in cols.items()])
        table = pa.Table.from_pylist(data, schema=schema)
        pa.parquet.write_table(table, str(p), compression="zstd")
        return len(data)
    opener: Any = gzip.open if p.name.lower().endswith(".gz") else open
    with opener(p, "wt", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=list(cols))
        w.writeheader()
        for row in data:
            w.writerow({k: _csv_value(row.get(k)) for k in cols})
    return len(data)


def _csv_value(v: Any) -> Any:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    return v


def read_rows(path: str | Path, game: Game | None = None) -> list[dict[str, Any]]:
    """The rows of ``game`` in a file written by :func:`write_rows`; ValueError with a
    sentence if not."""
    p = Path(path)
    name = p.name.lower()
    if not name.endswith(SUFFIXES):
        raise ValueError(f"{str(p)!r}: a results file ends in .parquet, .csv or .csv.gz")
    if not p.is_file():
        raise ValueError(f"{str(p)!r} does not exist or is not a file")
    pa = _pyarrow() if name.endswith(".parquet") else None
    try:
        if pa is not None:
            rows: list[dict[str, Any]] = pa.parquet.read_table(str(p)).to_pylist()
        else:
            rows = list(_read_csv(p, columns(game or _default())))
    except Exception as e:  # pyarrow's, gzip's and the parsers' many errors: one sentence
        reason = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise ValueError(f"cannot read {str(p)!r} as a results file ({reason})") from None
    need = {"players", "start", "victory", "turns", "winners"}
    for row in rows[:1]:
        missing = sorted(need - set(row))
        if missing:
            raise ValueError(
                f"{str(p)!r} is not a results file of `civcards simulate --out` "
                f"(no column {', '.join(missing)})"
            )
    return rows


def _read_csv(p: Path, cols: dict[str, str]) -> Iterator[dict[str, Any]]:
    opener: Any = gzip.open if p.name.lower().endswith(".gz") else open
    with opener(p, "rt", newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            yield {k: _parse(cols.get(k, "str"), v) for k, v in row.items()}


def _parse(kind: str, text: str | None) -> Any:
    if text is None or text == "":
        return None
    if kind == "int":
        return int(text)
    if kind == "bool":
        if text not in ("true", "false"):
            raise ValueError(f"{text!r} is not true or false")
        return text == "true"
    return text
