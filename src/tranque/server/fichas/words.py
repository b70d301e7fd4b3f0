"""What a movement of fichas reads as in a player's history (pure): Spanish and English.

The profile and the admin page show each movement as one line, «Apuesta en una mesa»,
«Ganaste el bote», «Recarga diaria»..., from its kind and its `ref` (the game or tournament).
A table's id means nothing to a person: a movement of a game that is kept links to its replay
instead (`line`'s `replay`).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from tranque.server.fichas.ledger import Kind, Movement

TOURNAMENT_REF = "tournament:"

# kind → (Spanish, English)
_GAME_WORDS: dict[Kind, tuple[str, str]] = {
    Kind.GRANT: ("Regalo de bienvenida", "Welcome gift"),
    Kind.REFILL: ("Recarga diaria", "Daily top-up"),
    Kind.STAKE: ("Apuesta en una mesa", "Stake at a table"),
    Kind.UNSTAKE: (
        "Apuesta devuelta: dejaste la mesa antes de empezar",
        "Stake returned: you left the table before the start",
    ),
    Kind.PAYOUT: ("Ganaste el bote", "You won the pot"),
    Kind.REFUND: ("Devolución: partida anulada o que no contó", "Refund: game annulled or not counted"),
    Kind.FORFEIT: ("Apuesta perdida por abandono", "Stake lost for abandoning"),
    Kind.CUT: ("Parte de la banca", "The bank's cut"),
    Kind.ENTRY: ("Entrada al torneo", "Tournament entry"),
    Kind.PRIZE: ("Premio del torneo", "Tournament prize"),
}

_TOURNAMENT_WORDS: dict[Kind, tuple[str, str]] = {
    Kind.ENTRY: ("Entrada al torneo", "Tournament entry"),
    Kind.REFUND: ("Devolución de la entrada al torneo", "Tournament entry refunded"),
    Kind.PRIZE: ("Premio del torneo", "Tournament prize"),
    Kind.CUT: ("Parte de la banca (torneo)", "The bank's cut (tournament)"),
}


def table_of(ref: str) -> str:
    """The table of a game's `ref` (``<table>.<game>``).

    >>> table_of("abc123.2"), table_of("")
    ('abc123', '')
    """
    head, dot, tail = ref.rpartition(".")
    return head if dot and tail.isdigit() else ref


def tournament_of(ref: str) -> str | None:
    """The tournament of a tournament's `ref`, else None.

    >>> tournament_of("tournament:t9"), tournament_of("abc.1")
    ('t9', None)
    """
    return ref[len(TOURNAMENT_REF) :] if ref.startswith(TOURNAMENT_REF) else None


def words(movement: Movement) -> tuple[str, str]:
    """The movement's line, in Spanish and English.

    >>> words(Movement("s", "account:1", "pot:t1.1", 50, Kind.STAKE, 1, "t1.1", 0.0))
    ('Apuesta en una mesa', 'Stake at a table')
    >>> words(Movement("r", "pot:tournament:x", "account:1", 50, Kind.REFUND, 1, "tournament:x", 0.0))[0]
    'Devolución de la entrada al torneo'
    """
    tournament = tournament_of(movement.ref)
    found = (_TOURNAMENT_WORDS if tournament is not None else _GAME_WORDS).get(movement.kind)
    return found or _GAME_WORDS[movement.kind]


def game_of(movement: Movement) -> str | None:
    """The game a movement belongs to (its `ref`, ``<table>.<game>``), else None.

    >>> game_of(Movement("s", "account:1", "pot:t1.1", 50, Kind.STAKE, 1, "t1.1", 0.0))
    't1.1'
    >>> game_of(Movement("e", "account:1", "pot:tournament:x", 50, Kind.ENTRY, 2, "tournament:x", 0.0))
    """
    return movement.ref if movement.ref and tournament_of(movement.ref) is None else None


def line(movement: Movement, user_id: int | None, kept: Collection[str] = frozenset()) -> dict[str, Any]:
    """One line of a history: the movement's words, its signed amount for `user_id` (None: the
    amount as it moved), its kind, game or tournament, whether its game is among `kept` (the
    games with a replay), and when."""
    spanish, english = words(movement)
    tournament = tournament_of(movement.ref)
    game = game_of(movement)
    return {
        "serial": movement.serial,
        "kind": movement.kind.value,
        "amount": movement.amount if user_id is None else movement.signed(user_id),
        "text": spanish,
        "text_en": english,
        "table": None if game is None else table_of(game),
        "game": game,
        "replay": game in kept,
        "tournament": tournament,
        "at": movement.at,
    }
