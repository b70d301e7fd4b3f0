"""Tournaments' JSON in the contract's shapes (docs/protocol.md, «Tournaments»), for the browser
tests that draw the pages from fixed answers: a list, a live minitorneo of 8, the same one
finished with its podium, and a duplicado round whose deals are committed and revealed (the
commitments made here with hashlib, as the server makes them)."""

from __future__ import annotations

import hashlib
from typing import Any

NOW = 1_796_000_000.0  # a fixed moment: the pages show it in the browser's local time

HUMANS = ["ana", "beto", "carla", "dora"]
BOTS = ["Bot Heurístico 1", "Bot Heurístico 2", "Bot Heurístico 3", "Bot Heurístico 4"]


def summary(ident: str, name: str, **changes: Any) -> dict[str, Any]:
    row: dict[str, Any] = {
        "id": ident,
        "name": name,
        "format": "minitorneo",
        "entry": "duel",
        "status": "open",
        "size": 8,
        "entrants": 5,
        "starts_at": None,
        "rated": False,
        "private": False,
        "creator": "ana",
        "round": 0,
        "rounds": None,
    }
    row.update(changes)
    return row


def listing(status: str) -> dict[str, Any]:
    rows = {
        "upcoming": [
            summary("t-copa", "Copa del Caribe", entrants=5),
            summary(
                "t-suizo",
                "Suizo de los viernes",
                format="suizo",
                entry="pairs",
                size=40,
                entrants=12,
                starts_at=NOW + 86_400,
                rated=True,
                rounds=5,
            ),
            summary(
                "t-arena",
                "Arena relámpago",
                format="arena",
                entry="rotating",
                size=100,
                entrants=31,
                starts_at=NOW + 3_600,
            ),
        ],
        "live": [summary("t-live", "Minitorneo de la tarde", status="running", entrants=8, round=2)],
        "finished": [summary("t-done", "Minitorneo de la tarde", status="finished", entrants=8, round=3)],
    }[status]
    return {"tournaments": rows, "page": 1, "pages": 1}


def side(entrants: list[int], names: list[str], points: int | None, won: bool) -> dict[str, Any]:
    return {"entrants": entrants, "names": names, "points": points, "won": won}


def standing(
    entrant: int, place: int, names: list[str], played: int, wins: int, pf: int, pa: int
) -> dict[str, Any]:
    return {
        "place": place,
        "entrant": entrant,
        "names": names,
        "played": played,
        "wins": wins,
        "losses": played - wins,
        "byes": 0,
        "points_for": pf,
        "points_against": pa,
        "efectividad": pf - pa,
        "partners_tiebreak": None,
        "matchpoints": None,
    }


NAMES: dict[int, list[str]] = {n + 1: [name] for n, name in enumerate(HUMANS + BOTS)}
ENTRANTS: list[dict[str, Any]] = [{"no": no, "names": names, "bot": no > 4} for no, names in NAMES.items()]


def game(
    key: str, table: str, state: str, a: int, b: int, points: tuple[int, int] | None, winner: int | None
) -> dict[str, Any]:
    pa, pb = points if points else (None, None)
    return {
        "key": key,
        "table": table,
        "state": state,
        "sides": [side([a], NAMES[a], pa, winner == a), side([b], NAMES[b], pb, winner == b)],
    }


ROUND_1 = {
    "number": 1,
    "started_at": NOW - 900,
    "byes": [],
    "commitments": None,
    "seeds": None,
    "games": [
        game("1-1", "mesa-11", "done", 1, 8, (20, 6), 1),
        game("1-2", "mesa-12", "done", 4, 5, (21, 13), 4),
        game("1-3", "mesa-13", "done", 2, 7, (9, 20), 7),
        game("1-4", "mesa-14", "done", 3, 6, (22, 10), 3),
    ],
}
ROUND_2_LIVE: dict[str, Any] = {
    "number": 2,
    "started_at": NOW - 300,
    "byes": [],
    "commitments": None,
    "seeds": None,
    "games": [
        game("2-1", "mesa-21", "playing", 1, 4, None, None),
        game("2-2", "mesa-22", "done", 7, 3, (12, 20), 3),
    ],
}
ROUND_2_DONE = {
    **ROUND_2_LIVE,
    "games": [game("2-1", "mesa-21", "done", 1, 4, (20, 17), 1), ROUND_2_LIVE["games"][1]],
}
ROUND_3 = {
    "number": 3,
    "started_at": NOW - 120,
    "byes": [],
    "commitments": None,
    "seeds": None,
    "games": [
        game("3-1", "mesa-31", "done", 1, 3, (23, 11), 1),
        game("3-2", "mesa-32", "done", 4, 7, (20, 8), 4),
    ],
}

CONFIG: dict[str, Any] = {
    "name": "Minitorneo de la tarde",
    "format": "minitorneo",
    "entry": "duel",
    "preset": "clasico",
    "target": 20,
    "size": 8,
    "rounds": None,
    "hands": 4,
    "window_seconds": None,
    "game_cap_seconds": 600.0,
    "turn_seconds": None,
    "starts_at": None,
    "bot_fill": True,
    "fill_wait_seconds": 30.0,
    "bot_level": "heuristic",
    "rated": False,
    "private": False,
    "requires_attendance": False,
}


def detail(status: str) -> dict[str, Any]:
    """The minitorneo of 8: live in its semi-finals (ana at her table), or finished."""
    live = status == "running"
    rounds = [ROUND_1, ROUND_2_LIVE] if live else [ROUND_1, ROUND_2_DONE, ROUND_3]
    table = [
        standing(1, 1, NAMES[1], 3, 3, 63, 34),
        standing(3, 2, NAMES[3], 3, 2, 53, 45),
        standing(4, 3, NAMES[4], 3, 2, 58, 58),
        standing(7, 4, NAMES[7], 3, 1, 40, 49),
        standing(2, 5, NAMES[2], 1, 0, 9, 20),
        standing(5, 5, NAMES[5], 1, 0, 13, 21),
        standing(6, 5, NAMES[6], 1, 0, 10, 22),
        standing(8, 5, NAMES[8], 1, 0, 6, 20),
    ]
    return {
        **summary(
            "t-live" if live else "t-done", CONFIG["name"], status=status, entrants=8, round=len(rounds)
        ),
        "config": CONFIG,
        "entrants": ENTRANTS,
        "standings": table,
        "rounds": rounds,
        "podium": []
        if live
        else [
            {"place": 1, "entrant": 1, "names": NAMES[1]},
            {"place": 2, "entrant": 3, "names": NAMES[3]},
            {"place": 3, "entrant": 4, "names": NAMES[4]},
        ],
        "me": {
            "registered": True,
            "can_register": False,
            "can_withdraw": False,
            "can_cancel": False,
            "table": "mesa-21" if live else None,
            "seat": 0 if live else None,
        },
    }


def open_detail(private_invite: str | None = None) -> dict[str, Any]:
    return {
        **summary("t-copa", "Copa del Caribe", entry="pairs", private=private_invite is not None),
        "config": {**CONFIG, "name": "Copa del Caribe", "entry": "pairs"},
        "entrants": ENTRANTS[:5],
        "standings": [],
        "rounds": [],
        "podium": [],
        "me": {
            "registered": False,
            "can_register": True,
            "can_withdraw": False,
            "can_cancel": False,
            "table": None,
            "seat": None,
        },
    }


def deal(k: int) -> tuple[str, str, str]:
    seed = hashlib.sha256(f"seed:1:{k}".encode()).digest()
    salt = hashlib.sha256(f"salt:1:{k}".encode()).digest()[:16]
    return seed.hex(), salt.hex(), hashlib.sha256(seed + salt).hexdigest()


def duplicate_detail(tampered: bool = False) -> dict[str, Any]:
    """A duplicado round of 3 deals, over: its commitments and its seeds (one swapped when
    `tampered`), a bye, and matchpoints in the standings."""
    deals = [deal(k) for k in range(3)]
    seeds = [{"seed": s, "salt": salt, "commitment": c} for s, salt, c in deals]  # the server's shape
    if tampered:
        seeds[1], seeds[2] = seeds[2], seeds[1]
    rows = [standing(n, n, NAMES[n], 1, 1 if n <= 2 else 0, 30 - n, 20 + n) for n in (1, 2, 3, 4, 5)]
    for row, mp in zip(rows, (10.5, 8.0, 6.0, 4.0, 3.5), strict=True):
        row["matchpoints"] = mp
    return {
        **summary(
            "t-dup",
            "Duplicado del domingo",
            format="duplicado",
            status="running",
            entrants=5,
            round=1,
            rounds=3,
        ),
        "config": {**CONFIG, "format": "duplicado", "rounds": 3, "hands": 3},
        "entrants": ENTRANTS[:5],
        "standings": rows,
        "rounds": [
            {
                "number": 1,
                "started_at": NOW,
                "byes": [5],
                "commitments": [c for _, _, c in deals],
                "seeds": seeds,
                "games": [
                    game("1-1", "mesa-d1", "done", 1, 4, (31, 12), 1),
                    game("1-2", "mesa-d2", "done", 2, 3, (25, 19), 2),
                ],
            }
        ],
        "podium": [],
        "me": {
            "registered": False,
            "can_register": False,
            "can_withdraw": False,
            "can_cancel": False,
            "table": None,
            "seat": None,
        },
    }
