"""Rated games through a real server: accounts make a competitive table over HTTP, sit over
WebSockets from their own addresses (X-Forwarded-For, which uvicorn trusts from the loopback
peer the tests are, as it would from a configured proxy) and play it to the end with scripted
clients; what the game changed is then read from the server's store (memory, or SQLite /
PostgreSQL with TRANQUE_TEST_DB)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
from openskill.models import PlackettLuce

from tests.server.support.harness import LiveServer, Player, fast_settings
from tests.server.support.scenario_helpers import make_account
from tests.server.support.scripted import ScriptedClient, game_settings
from tranque.server.store import GameRow, RatingRow

LIBRARY = PlackettLuce()


def create_table(server: LiveServer, headers: dict[str, str], **body: Any) -> str:
    response = httpx.post(f"{server.http}/api/tables", json=body, headers=headers, timeout=20)
    assert response.status_code == 201, response.text
    table: str = response.json()["table"]
    return table


async def sit(server: LiveServer, headers: dict[str, str], address: str, table: str) -> tuple[int, str]:
    async with Player(server, headers={**headers, "X-Forwarded-For": address}) as player:
        seated = await player.request({"type": "sit", "table": table})
    assert seated["type"] == "ack", seated
    return seated["seat"], seated["token"]


async def play_all(
    server: LiveServer, table: str, tokens: list[str], addresses: list[str]
) -> list[dict[str, Any]]:
    """Every seat played to the end, each from its own address (the one it sat down from: a
    seat played from another seat's address is not rated)."""
    clients = [
        ScriptedClient(server, table, token, rng=random.Random(seat), headers={"X-Forwarded-For": address})
        for seat, (token, address) in enumerate(zip(tokens, addresses, strict=True))
    ]
    for client in clients:
        await client.player.connect()
    try:
        return list(await asyncio.gather(*(client.play() for client in clients)))
    finally:
        for client in clients:
            await client.player.close()


async def first_sync(server: LiveServer, table: str, token: str | None = None) -> dict[str, Any]:
    async with Player(server) as player:
        await player.request({"type": "hello", "table": table, "token": token})
        sync: dict[str, Any] = next(frame for frame in player.frames if frame["type"] == "sync")
    return sync


def ratings_of(server: LiveServer, users: list[int], pool: str) -> dict[int, RatingRow]:
    async def read() -> dict[int, RatingRow]:
        found: dict[int, RatingRow] = await server.state.store.ratings_of(users, pool)
        return found

    return server.on_server(read)


def xp_of(server: LiveServer, user: int) -> dict[str, int]:
    async def read() -> dict[str, int]:
        found: dict[str, int] = await server.state.store.xp_of(user)
        return found

    return server.on_server(read)


def game_of(server: LiveServer, table: str) -> GameRow:
    async def read() -> GameRow | None:
        game: GameRow | None = await server.state.store.load_game(f"{table}.1")
        return game

    game = server.on_server(read)
    assert game is not None
    return game


def test_a_competitive_duel_played_to_the_end_changes_ratings_and_xp_in_the_store() -> None:
    with LiveServer(game_settings()) as server:
        (ana, ana_headers), (beto, beto_headers) = make_account(server, "ana"), make_account(server, "beto")
        table = create_table(server, ana_headers, preset="clasico", players=2, competitive=True)
        lobby = httpx.get(f"{server.http}/api/lobby", timeout=20).json()
        assert [row["competitive"] for row in lobby if row["table"] == table] == [True]
        assert httpx.get(f"{server.http}/api/tables/{table}", timeout=20).json()["competitive"] is True

        async def scenario() -> list[dict[str, Any]]:
            seat_ana = await sit(server, ana_headers, "198.51.100.1", table)
            waiting = await first_sync(server, table)
            assert waiting["phase"] == "waiting" and waiting["rating"]["rated"] is True
            assert waiting["rating"]["seats"][0] == {"seat": 0, "rating": 450, "provisional": True}
            seat_beto = await sit(server, beto_headers, "198.51.100.2", table)
            assert (seat_ana[0], seat_beto[0]) == (0, 1)
            playing = await first_sync(server, table, seat_ana[1])
            assert playing["rating"]["chances"] == [0.5, 0.5]
            return await play_all(
                server, table, [seat_ana[1], seat_beto[1]], ["198.51.100.1", "198.51.100.2"]
            )

        ended = asyncio.run(scenario())
        server.recorded()  # ratings and XP are kept after the game's end
        assert ended[0] == ended[1]
        (team,) = ended[0]["winners"]
        ranks = [0.0 if seat == team else 1.0 for seat in range(2)]
        after = LIBRARY.rate([[LIBRARY.rating()], [LIBRARY.rating()]], ranks=ranks)
        found = ratings_of(server, [ana, beto], "duel")
        for seat, user in enumerate((ana, beto)):
            assert (found[user].mu, found[user].sigma) == (after[seat][0].mu, after[seat][0].sigma)
            assert xp_of(server, user)["all"] == (20 if seat == team else 5)
        assert ended[0]["rating_changes"] == [
            {"seat": seat, "before": 450, "after": round(found[user].shown), "xp": 20 if seat == team else 5}
            for seat, user in enumerate((ana, beto))
        ]
        game = game_of(server, table)
        assert (game.competitive, game.rated, game.unrated_reason) == (True, True, None)


def test_two_players_from_one_address_are_told_before_the_game_and_change_nothing() -> None:
    with LiveServer(game_settings()) as server:
        made = [make_account(server, name) for name in ("ana", "beto", "carla")]
        users = [user for user, _ in made]
        table = create_table(server, made[0][1], preset="clasico", players=3, competitive=True)

        async def scenario() -> list[dict[str, Any]]:
            first = await sit(server, made[0][1], "198.51.100.7", table)
            second = await sit(server, made[1][1], "198.51.100.7", table)
            sync = await first_sync(server, table, first[1])
            assert sync["phase"] == "waiting"
            assert (sync["rating"]["rated"], sync["rating"]["reason"]) == (False, "same_address")
            third = await sit(server, made[2][1], "198.51.100.8", table)
            return await play_all(
                server,
                table,
                [first[1], second[1], third[1]],
                ["198.51.100.7", "198.51.100.7", "198.51.100.8"],
            )

        ended = asyncio.run(scenario())
        server.recorded()  # ratings and XP are kept after the game's end
        assert "rating_changes" not in ended[0]
        game = game_of(server, table)
        assert (game.competitive, game.rated, game.unrated_reason) == (True, False, "same_address")
        assert ratings_of(server, users, "individual") == {}
        assert [xp_of(server, user) for user in users] == [{}, {}, {}]


def test_at_a_two_seat_table_the_last_seat_taken_shows_the_same_address_before_the_game() -> None:
    """The second sitter starts the game: the table's `rating` (not rated, same address) is
    sent before `game_started`, so the players read it before the first tile."""
    with LiveServer(game_settings()) as server:
        (_, ana), (_, beto) = make_account(server, "ana"), make_account(server, "beto")
        table = create_table(server, ana, preset="clasico", players=2, competitive=True)

        async def scenario() -> list[dict[str, Any]]:
            _, token = await sit(server, ana, "198.51.100.9", table)
            async with Player(server) as follower:
                await follower.request({"type": "hello", "table": table, "token": token})
                await sit(server, beto, "198.51.100.9", table)
                await follower.expect(lambda m: m.get("kind") == "game_started")
                return [frame for frame in follower.frames if frame.get("type") == "event"]

        events = asyncio.run(scenario())
        kinds = [event["kind"] for event in events]
        shown = [event["data"] for event in events if event["kind"] == "rating"]
        assert shown and (shown[-1]["rated"], shown[-1]["reason"]) == (False, "same_address")
        last_rating = max(i for i, kind in enumerate(kinds) if kind == "rating")
        assert last_rating < kinds.index("game_started"), kinds


def test_a_casual_table_is_not_rated() -> None:
    with LiveServer(game_settings()) as server:
        (ana, ana_headers), (beto, beto_headers) = make_account(server, "ana"), make_account(server, "beto")
        table = create_table(server, ana_headers, preset="clasico", players=2)

        async def scenario() -> list[dict[str, Any]]:
            first = await sit(server, ana_headers, "198.51.100.1", table)
            second = await sit(server, beto_headers, "198.51.100.2", table)
            return await play_all(server, table, [first[1], second[1]], ["198.51.100.1", "198.51.100.2"])

        ended = asyncio.run(scenario())
        server.recorded()  # ratings and XP are kept after the game's end
        assert "rating_changes" not in ended[0]
        assert (game_of(server, table).rated, game_of(server, table).unrated_reason) == (False, "casual")
        assert ratings_of(server, [ana, beto], "duel") == {}


def test_quick_match_tables_are_competitive() -> None:
    with LiveServer(fast_settings(quick_match_wait_seconds=5.0)) as server:
        made = [make_account(server, name) for name in ("ana", "beto")]

        async def scenario() -> dict[str, Any]:
            players = [
                Player(server, headers={**h, "X-Forwarded-For": f"198.51.100.{i + 1}"})
                for i, (_, h) in enumerate(made)
            ]
            for player in players:
                await player.connect()
            try:
                for player in players:
                    assert (await player.request({"type": "quick_match"}))["type"] == "ack"
                await asyncio.to_thread(server.advance, 5.0)
                found = [await player.expect(lambda m: m.get("type") == "matched") for player in players]
            finally:
                for player in players:
                    await player.close()
            return await first_sync(server, found[0]["table"], found[0]["token"])

        sync = asyncio.run(scenario())
        assert sync["kind"] == "quick"
        assert (sync["rating"]["competitive"], sync["rating"]["rated"]) == (True, True)


def test_FP3_two_addresses_of_one_ipv6_64_are_one_place_and_not_rated() -> None:
    """One host's IPv6 privacy addresses (one /64) are the same place: the table's `rating`
    says the game will not be rated, for the same address, before it starts."""
    with LiveServer(game_settings()) as server:
        (_, ana), (_, beto) = make_account(server, "ana"), make_account(server, "beto")
        table = create_table(server, ana, preset="clasico", players=2, competitive=True)

        async def scenario() -> list[dict[str, Any]]:
            _, token = await sit(server, ana, "2001:db8:1:2::10", table)
            async with Player(server) as follower:
                await follower.request({"type": "hello", "table": table, "token": token})
                await sit(server, beto, "2001:db8:1:2::11", table)
                await follower.expect(lambda m: m.get("kind") == "game_started")
                return [frame for frame in follower.frames if frame.get("type") == "event"]

        shown = [event["data"] for event in asyncio.run(scenario()) if event["kind"] == "rating"]
        assert shown and (shown[-1]["rated"], shown[-1]["reason"]) == (False, "same_address")


def test_FP3_two_ipv6_64s_are_two_places() -> None:
    with LiveServer(game_settings()) as server:
        (_, ana), (_, beto) = make_account(server, "ana"), make_account(server, "beto")
        table = create_table(server, ana, preset="clasico", players=2, competitive=True)

        async def scenario() -> dict[str, Any]:
            await sit(server, ana, "2001:db8:1:2::10", table)
            _, token = await sit(server, beto, "2001:db8:1:3::10", table)
            return await first_sync(server, table, token)

        rating = asyncio.run(scenario())["rating"]
        assert (rating["rated"], rating["reason"]) == (True, None)
