"""Peña against peña (tournaments/battle.py): the peña standing from a hand-made list of
entrants, its ties; the option's checks; registering for a peña (a member of one of the
event's peñas, refused otherwise); and a whole arena battle driven to its end, whose peña
standing is each peña's best N entrants of the arena's own standing."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from tests.server.tournaments.simulated import drive
from tranque.server.store import MemoryStore
from tranque.server.table.clock import FakeClock
from tranque.server.tournaments.battle import BattleEntrant, battle_standing
from tranque.server.tournaments.config import Entry, Format, TournamentConfig, TournamentError
from tranque.server.tournaments.machine import Tournament
from tranque.server.tournaments.service import Tournaments

ROJA, AZUL, VERDE = 7, 9, 11


def test_each_penas_best_n_count_and_ties_are_broken_as_documented() -> None:
    entrants = [
        BattleEntrant(ROJA, "ana", 1, 5, 120, 600),
        BattleEntrant(AZUL, "beto", 2, 4, 90, 500),
        BattleEntrant(ROJA, "caro", 3, 4, 30, 480),
        BattleEntrant(AZUL, "dani", 4, 4, 30, 470),
        BattleEntrant(VERDE, "eva", 5, 3, 80, 400),
        BattleEntrant(VERDE, "fede", 6, 3, 40, 380),
        BattleEntrant(ROJA, "gabo", 7, 2, -10, 300),  # roja's third: not counted with N = 2
        BattleEntrant(AZUL, "hugo", 8, 1, -50, 200),
        BattleEntrant(99, "ivan", 9, 9, 0, 0),  # a peña not in the battle: ignored
    ]
    rows = battle_standing([ROJA, AZUL, VERDE], 2, entrants)
    # roja ana+caro 9 wins, efectividad 150; azul beto+dani 8; verde eva+fede 6.
    assert [
        (r.pena_id, r.rank, r.score, r.efectividad, r.points_for, r.counted, r.entrants) for r in rows
    ] == [
        (ROJA, 1, 9, 150, 1080, ("ana", "caro"), 3),
        (AZUL, 2, 8, 120, 970, ("beto", "dani"), 3),
        (VERDE, 3, 6, 120, 780, ("eva", "fede"), 2),
    ]
    # N = 3: roja 11 (150 - 10 = 140), azul 9; a tie on wins broken by efectividad.
    tied = [
        BattleEntrant(ROJA, "ana", 1, 3, 10, 300),
        BattleEntrant(AZUL, "beto", 2, 3, 40, 300),
        BattleEntrant(VERDE, "caro", 3, 3, 40, 310),
    ]
    assert [(r.pena_id, r.rank) for r in battle_standing([ROJA, AZUL, VERDE], 1, tied)] == [
        (VERDE, 1),  # 3 wins, efectividad 40, 310 for
        (AZUL, 2),  # 3 wins, efectividad 40, 300 for
        (ROJA, 3),  # 3 wins, efectividad 10
    ]
    # All equal but the best counted entrant's place; then equal in everything: one rank.
    same = [BattleEntrant(ROJA, "ana", 2, 3, 0, 0), BattleEntrant(AZUL, "beto", 1, 3, 0, 0)]
    assert [(r.pena_id, r.rank) for r in battle_standing([ROJA, AZUL], 1, same)] == [(AZUL, 1), (ROJA, 2)]
    empty = battle_standing([ROJA, AZUL], 5, [])
    assert [(r.pena_id, r.rank, r.score, r.counted) for r in empty] == [(ROJA, 1, 0, ()), (AZUL, 1, 0, ())]


def arena(**changes: Any) -> TournamentConfig:
    base = TournamentConfig(
        name="Roja contra Azul",
        format=Format.ARENA,
        entry=Entry.DUEL,
        size=16,
        window_seconds=1800.0,
        starts_at=100.0,
        battle_penas=(ROJA, AZUL),
        battle_counting=2,
    )
    config: TournamentConfig = replace(base, **changes)
    return config


@pytest.mark.parametrize(
    ("changes", "key"),
    [
        ({"format": Format.SUIZO, "rounds": 3, "window_seconds": None}, "tournament_config.battle_arena"),
        ({"battle_penas": (ROJA,)}, "tournament_config.battle_penas"),
        ({"battle_penas": (ROJA, ROJA)}, "tournament_config.battle_penas"),
        ({"battle_counting": 0}, "tournament_config.battle_counting"),
        ({"battle_counting": 21}, "tournament_config.battle_counting"),
    ],
)
def test_the_option_is_checked(changes: dict[str, Any], key: str) -> None:
    with pytest.raises(TournamentError) as raised:
        arena(**changes).checked()
    assert raised.value.key == key and raised.value.message != raised.value.message_en


def test_the_option_reads_from_json() -> None:
    body = {
        "name": "Batalla",
        "format": "arena",
        "entry": "duel",
        "window_seconds": 600,
        "battle_penas": [3, 4],
    }
    assert TournamentConfig.from_json({**body, "battle_counting": 3}).battle_penas == (3, 4)
    with pytest.raises(TournamentError) as raised:
        TournamentConfig.from_json({**body, "battle_penas": "3,4"})
    assert raised.value.key == "tournament_config.battle_penas"


def test_an_entrant_plays_for_one_of_the_battles_penas() -> None:
    t = Tournament.new("t", arena().checked(), 1000, 0.0)
    for pena_id in (None, 99):
        with pytest.raises(TournamentError) as raised:
            t.register(1, "ana", 1500, 1.0, pena_id=pena_id)
        assert raised.value.key == "tournament_battle_pena"
    assert t.entrants == []
    t.register(1, "ana", 1500, 1.0, pena_id=ROJA)
    t.register(2, "beto", 1500, 1.0, pena_id=AZUL)
    assert [(e["names"], e["pena_id"]) for e in t.public_json()["entrants"]] == [
        (["ana"], ROJA),
        (["beto"], AZUL),
    ]
    assert [(row["pena_id"], row["entrants"], row["score"]) for row in t.public_json()["battle"]] == [
        (ROJA, 1, 0),
        (AZUL, 1, 0),
    ]
    again = Tournament.from_json(t.to_json())
    assert [e.pena_id for e in again.entrants] == [ROJA, AZUL]


def test_a_whole_battle_counts_each_penas_best_n_of_the_arena_standing() -> None:
    t = Tournament.new("t", arena(battle_counting=2).checked(), 1000, 0.0)
    penas = {1: ROJA, 2: ROJA, 3: ROJA, 4: ROJA, 5: AZUL, 6: AZUL}  # a big peña and a small one
    for account, pena_id in penas.items():
        t.register(account, f"p{account}", 1600 - account, 1.0, pena_id=pena_id)
    run = drive(t, seed=1)
    body = run.tournament.public_json()
    standing = body["standings"]
    assert standing and run.tournament.status.value == "finished"
    pena_of = {e["names"][0]: e["pena_id"] for e in body["entrants"]}
    expected = []
    for pena_id in (ROJA, AZUL):
        best = [row for row in standing if pena_of[row["names"][0]] == pena_id][:2]
        expected.append((pena_id, sum(row["wins"] for row in best), [row["names"][0] for row in best]))
    expected.sort(key=lambda item: -item[1])
    got = [(row["pena_id"], row["score"], row["counted"]) for row in body["battle"]]
    assert got == expected
    assert got[0][0] == AZUL  # this run: the small peña's two best beat the big one's two best


def test_the_arena_pairs_pena_against_pena_not_members_of_one_pena() -> None:
    t = Tournament.new("t", arena().checked(), 1000, 0.0)
    # Ratings and registration put two of a peña next to each other in every pair of the order.
    for account, pena_id in {1: ROJA, 2: ROJA, 3: AZUL, 4: AZUL, 5: ROJA, 6: AZUL}.items():
        t.register(account, f"p{account}", 1600 - account, 1.0, pena_id=pena_id)
    t.step(100.0, random.Random(1), iter(f"table-{n}" for n in range(1, 99)).__next__)
    pena_of = {e.no: e.pena_id for e in t.entrants}
    games = list(t.games())
    assert len(games) == 3
    assert all(pena_of[a] != pena_of[b] for (a,), (b,) in (game.sides for game in games))


@pytest.mark.anyio
async def test_registering_for_a_pena_needs_its_membership() -> None:
    store = MemoryStore()
    await store.start()
    ana = await store.create_user("ana", "hash", 1.0)
    beto = await store.create_user("beto", "hash", 1.0)
    roja = await store.create_pena("Roja", "roja", "gallo", "", "open", ana.user_id, 1.0)
    azul = await store.create_pena("Azul", "azul", "gallo", "", "open", beto.user_id, 1.0)
    service = Tournaments(store, FakeClock())
    with pytest.raises(TournamentError) as raised:
        await service.create(ana, arena(battle_penas=(roja.id, 555)))
    assert raised.value.key == "tournament_battle_no_pena"
    made = await service.create(ana, arena(battle_penas=(roja.id, azul.id)))
    tournament_id = made.tournament.id
    with pytest.raises(TournamentError) as raised:
        await service.register(ana, tournament_id, pena_id=azul.id)  # ana is no member of azul
    assert raised.value.key == "tournament_battle_member"
    with pytest.raises(TournamentError) as raised:
        await service.register(ana, tournament_id)
    assert raised.value.key == "tournament_battle_pena"
    entered = await service.register(ana, tournament_id, pena_id=roja.id)
    assert [(e.names, e.pena_id) for e in entered.tournament.entrants] == [(("ana",), roja.id)]
