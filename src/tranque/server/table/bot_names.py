"""The names and faces of the bots at a table: people of the Caribbean, each with a drawing.

A bot seated at a table is given a person-like name and a face (one of the site's avatars,
web/avatars/<face>.svg) that no other bot at the table has. Both come from the table's id, so
the same table names its bots the same way every time; and both are written into the `seat`
event that seats the bot, so a replay, a log and a restart read them from the events, never
work them out again.

>>> identity("abc", 1) == identity("abc", 1)
True
>>> len({identity("abc", seat)[1] for seat in range(6)})
6

A tournament names its bots when it makes them (`tournament_name`), and the table seats such
a bot under that name with the face that goes with it (`face_for`), or another free one.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable
from typing import Final

# Every name with its face: one name for each of the site's twelve drawings.
PEOPLE: Final[tuple[tuple[str, str], ...]] = (
    ("Toño", "gallo"),
    ("Chela", "loro"),
    ("Nando", "tambor"),
    ("Yeya", "mango"),
    ("Pacho", "cafe"),
    ("Mariela", "mar"),
    ("Tico", "iguana"),
    ("Nena", "coco"),
    ("Lucho", "sol"),
    ("Cande", "palma"),
    ("Rafa", "guitarra"),
    ("Migdalia", "tucan"),
)
FACES: Final[dict[str, str]] = dict(PEOPLE)


def _order(key: str) -> list[tuple[str, str]]:
    """The people in an order of `key`'s own, the same on every run and every machine."""
    seed = int.from_bytes(hashlib.sha256(f"tranque-bots:{key}".encode()).digest()[:8], "big")
    people = list(PEOPLE)
    random.Random(seed).shuffle(people)
    return people


def identity(table_id: str, seat: int, taken: Iterable[str] = ()) -> tuple[str, str]:
    """The name and face of the bot at `seat` of table `table_id`: the seat's place in the
    table's order of people, or the next one whose face is not in `taken` (faces already
    shown at the table)."""
    used = set(taken)
    people = _order(table_id)
    for step in range(len(people)):
        name, face = people[(seat + step) % len(people)]
        if face not in used:
            return name, face
    return people[seat % len(people)]


def face_for(name: str, table_id: str, seat: int, taken: Iterable[str] = ()) -> str:
    """The face of a bot named `name` elsewhere (a tournament's): its own when it is free at
    the table, else the table's choice for the seat."""
    used = set(taken)
    own = FACES.get(name.rsplit(" ", 1)[0] if name not in FACES else name)
    if own is not None and own not in used:
        return own
    return identity(table_id, seat, used)[1]


def tournament_name(tournament_id: str, number: int) -> str:
    """The name of the tournament's `number`-th bot (from 1): the people in the tournament's
    own order, then again with a number after the name (`Toño 2`) once all have played."""
    people = _order(tournament_id)
    name = people[(number - 1) % len(people)][0]
    rounds = (number - 1) // len(people)
    return name if rounds == 0 else f"{name} {rounds + 1}"
