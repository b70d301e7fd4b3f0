"""A rated game across a SIGKILL (tests/server/cluster/test_restart.py's server process): two accounts
play a competitive duel, the server is killed between rounds and started again, the game
goes on to its end, and the store holds exactly one game's ratings and XP, also after another
restart once it is over. And a SIGKILL between a game's end and its recording (the first
process runs no recorder, players/recorder.py): the restarted server records it, once."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx
import pytest

from tests.server.cluster.test_restart import ServerProcess
from tests.server.support.restart_duel import Account, duel_unrecorded, ended, opened, run_on, sit, user_ids
from tranque.server.players.rating_scale import shown
from tranque.server.store.schema import games


async def counted(url: str) -> tuple[list[tuple[float, float, int]], list[dict[str, int]], int]:
    """Ana's and Beto's ratings (μ, σ, games) and XP, and how many games are kept."""
    async with opened(url) as store:
        users = await user_ids(store)
        found = await store.ratings_of(users, "duel")
        xp = [await store.xp_of(user) for user in users]
        async with store.engine.connect() as connection:
            kept = len((await connection.execute(games.select())).all())
    return [(found[u].mu, found[u].sigma, found[u].games) for u in users if u in found], xp, kept


RECORDED_WITHIN = 60.0  # seconds the running server may take to record a game end


async def recorded(url: str) -> tuple[list[tuple[float, float, int]], list[dict[str, int]], int]:
    """`counted` once the running server's recorder has kept a game (within a deadline)."""
    deadline = time.monotonic() + RECORDED_WITHIN
    while (await counted(url))[2] == 0:
        assert time.monotonic() < deadline, "the game end was not recorded"
        await asyncio.sleep(0.05)
    return await counted(url)  # read again: the first reads may have run before its commit


async def rated_game(server: ServerProcess, people: list[httpx.Client], players: list[Account]) -> None:
    # A game to 200 outlasts its first round whatever the deal: a double-six set holds 168 points,
    # so the kill always falls between rounds (a game to 100 ended in its first round with 106).
    body = {"preset": "clasico", "players": 2, "target": 200, "turn_seconds": 20, "competitive": True}
    table = people[0].post("/api/tables", json=body).json()["table"]
    seats = [await sit(server, http, f"192.0.2.{n + 1}", table) for n, http in enumerate(people)]
    players.extend(Account(server, table, token, seat) for seat, token in seats)
    for player in players:
        await player.connect()

    ends = await asyncio.gather(
        *(player.play(lambda frame: frame.get("kind") == "round_ended") for player in players)
    )
    assert max(ends[0]["data"]["scores"]) < 200  # the game goes on after this round
    last_seen = [player.client.last_seq for player in players]
    server.kill()
    for player in players:
        await player.client.close()

    server.start()
    for player, seen, end in zip(players, last_seen, ends, strict=True):
        await player.connect(last_seq=seen, handled_up_to=seen)
        await player.respond(end)  # «listo», which the kill cut off

    finals = await asyncio.gather(*(player.play(ended) for player in players))
    assert finals[0]["data"] == finals[1]["data"]
    changes = finals[0]["data"]["rating_changes"]
    for player in players:
        await player.client.close()
    ratings, xp, kept = await recorded(server.database_url)
    server.stop()

    assert await counted(server.database_url) == (ratings, xp, kept)
    assert kept == 1
    assert [played for _, _, played in ratings] == [1, 1]
    assert sorted(totals["all"] for totals in xp) == [5, 20]
    assert [change["xp"] for change in changes] == [totals["all"] for totals in xp]

    server.start()  # once more, with the game over: nothing is counted again
    server.stop()
    assert await counted(server.database_url) == (ratings, xp, kept)


@pytest.mark.processes  # a server process to kill and start again (tests/conftest.py)
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_rated_game_across_a_sigkill_is_counted_once(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    run_on(backend, request, tmp_path, rated_game)


async def killed_before_its_recording(
    server: ServerProcess, people: list[httpx.Client], players: list[Account]
) -> None:
    _, data = await duel_unrecorded(server, people, players)
    changes = data["rating_changes"]
    assert await counted(server.database_url) == ([], [{}, {}], 0)  # the end only, nothing recorded
    server.kill()
    for player in players:
        await player.client.close()

    server.start()  # its recorder catches up at once
    ratings, xp, kept = await recorded(server.database_url)
    assert kept == 1
    assert [played for _, _, played in ratings] == [1, 1]
    assert sorted(totals["all"] for totals in xp) == [5, 20]
    assert [change["xp"] for change in changes] == [totals["all"] for totals in xp]
    rating_after = [round(shown(mu, sigma)) for mu, sigma, _ in ratings]
    assert [change["after"] for change in changes] == rating_after  # as the game's end showed them

    server.stop()
    server.start()  # once more: nothing is recorded again
    server.stop()
    assert await counted(server.database_url) == (ratings, xp, kept)


@pytest.mark.processes  # a server process to kill and start again (tests/conftest.py)
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_sigkill_between_a_games_end_and_its_recording_loses_nothing(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    run_on(backend, request, tmp_path, killed_before_its_recording)
