"""The CPU part of the director's pass over one tournament, run in a worker process.

Reading a tournament's doc into a `Tournament`, recording its finished games, stepping it
(pairing a round of a 1,000-entrant suizo takes about 0.15 s of CPU, the Dutch system at 44
entrants up to 0.9 s) and writing the doc back is pure work on data: it runs here, away from
the event loop (worker_pools.py), and the director keeps only the store's I/O and the
effects. Everything going in and out is plain data or the machine's frozen effect
dataclasses, so it crosses to a `spawn`ed process by pickling.
"""

from __future__ import annotations

import functools
import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tranque.server.table.outcome import GameOutcome
from tranque.server.tournaments import deals as tournament_deals
from tranque.server.tournaments.machine import CreateTable, Effect, Tournament


@dataclass(frozen=True)
class Advanced:
    """What one tournament's step came to: the doc to save (None: unchanged) and what the
    director does about it."""

    doc: dict[str, Any] | None  # the new doc, or None if nothing changed
    effects: list[Effect]
    pending: list[CreateTable]  # every game still `planned`: its table to set up
    playing: dict[str, str]  # table id → game key, of the games being played
    tables: list[str]  # every table id the doc names for a game not done (the director's index)
    wake_at: float | None
    status: str
    name: str
    bot_level: str
    game_cap_seconds: float
    started_at: float | None  # the row's columns of the doc as it is now
    finished_at: float | None
    starts_at: float | None


def advance(
    doc: Mapping[str, Any],
    outcomes: Mapping[str, GameOutcome],
    now: float,
    seed: str,
    replan: Mapping[str, str],
) -> Advanced:
    """Record `outcomes` (game key → its table's outcome), move the tables in `replan` (old
    table id → new, games still `planned`), `step` the machine with `random.Random(seed)`,
    and say what came of it."""
    tournament = Tournament.from_json(doc)
    effects: list[Effect] = []
    for key, outcome in outcomes.items():
        effects += tournament.record(key, outcome, now)
    for game in tournament.games():
        if game.state == "planned" and game.table_id in replan:
            game.table_id = replan[game.table_id]
    master = tournament_deals.master_of(doc)
    effects += tournament.step(
        now,
        random.Random(seed),
        _new_table_id,
        functools.partial(_commitments, master, tournament.config.hands),
    )
    return _advanced(tournament, doc, effects)


def mark_playing(doc: Mapping[str, Any], keys: Sequence[str], now: float) -> Advanced:
    """The games `keys` have their tables going: `playing` in the doc."""
    tournament = Tournament.from_json(doc)
    for key in keys:
        tournament.mark_playing(key, now)
    return _advanced(tournament, doc, [])


def _advanced(tournament: Tournament, before: Mapping[str, Any], effects: list[Effect]) -> Advanced:
    after = tournament.to_json()
    games = list(tournament.games())
    status = str(tournament.status)
    return Advanced(
        doc=None if after == before else after,
        effects=effects,
        pending=tournament.pending_tables(),
        playing={game.table_id: game.key for game in games if game.state == "playing"},
        tables=[game.table_id for game in games if game.state != "done"],
        wake_at=tournament.wake_at(),
        status=status,
        name=tournament.config.name,
        bot_level=tournament.config.bot_level,
        game_cap_seconds=tournament.config.game_cap_seconds,
        started_at=tournament.started_at,
        finished_at=tournament.finished_at if status in ("finished", "cancelled") else None,
        starts_at=tournament.started_at or tournament.config.starts_at,
    )


def _new_table_id() -> str:
    return secrets.token_urlsafe(9)


def _commitments(master: bytes, hands: int, number: int) -> list[str]:
    return tournament_deals.commitments(master, number, hands)
