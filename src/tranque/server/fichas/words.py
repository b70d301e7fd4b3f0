"""What a movement of fichas reads as in a player's history (pure): Spanish and English.

The profile and the admin page show each movement as one line, «Apuesta en la mesa X»,
«Ganaste el bote», «Recarga diaria»..., from its kind and its `ref` (the game or tournament).
"""

from __future__ import annotations

from typing import Any

from tranque.server.fichas.ledger import Kind, Movement

TOURNAMENT_REF = "tournament:"

# kind → (Spanish, English); {table} is the table of the game, when there is one.
_GAME_WORDS: dict[Kind, tuple[str, str]] = {
    Kind.GRANT: ("Regalo de bienvenida", "Welcome gift"),
    Kind.REFILL: ("Recarga diaria", "Daily top-up"),
    Kind.STAKE: ("Apuesta en la mesa {table}", "Stake at table {table}"),
    Kind.UNSTAKE: ("Apuesta devuelta: dejaste la mesa {table}", "Stake returned: you left table {table}"),
    Kind.PAYOUT: ("Ganaste el bote (mesa {table})", "You won the pot (table {table})"),
    Kind.REFUND: (
        "Devolución: partida anulada o que no contó (mesa {table})",
        "Refund: game annulled or not counted (table {table})",
    ),
    Kind.FORFEIT: (
        "Apuesta perdida por abandono (mesa {table})",
        "Stake lost for abandoning (table {table})",
    ),
    Kind.CUT: ("Parte de la banca (mesa {table})", "The bank's cut (table {table})"),
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
    ('Apuesta en la mesa t1', 'Stake at table t1')
    >>> words(Movement("r", "pot:tournament:x", "account:1", 50, Kind.REFUND, 1, "tournament:x", 0.0))[0]
    'Devolución de la entrada al torneo'
    """
    tournament = tournament_of(movement.ref)
    table = {"table": "" if tournament is not None else table_of(movement.ref)}
    found = (_TOURNAMENT_WORDS if tournament is not None else _GAME_WORDS).get(movement.kind)
    spanish, english = found or _GAME_WORDS[movement.kind]
    return spanish.format(**table), english.format(**table)


def line(movement: Movement, user_id: int | None) -> dict[str, Any]:
    """One line of a history: the movement's words, its signed amount for `user_id` (None: the
    amount as it moved), its kind, game or tournament, and when."""
    spanish, english = words(movement)
    tournament = tournament_of(movement.ref)
    return {
        "serial": movement.serial,
        "kind": movement.kind.value,
        "amount": movement.amount if user_id is None else movement.signed(user_id),
        "text": spanish,
        "text_en": english,
        "table": None if tournament is not None or not movement.ref else table_of(movement.ref),
        "game": movement.ref if tournament is None and movement.ref else None,
        "tournament": tournament,
        "at": movement.at,
    }
