"""Fair play at rated tables, through a real server and real clients: the same-place rule
follows every address a seat is used from (players/table_rating.py), not only the one it sat
down from. Client addresses are given with X-Forwarded-For, which uvicorn trusts from the
loopback peer the tests are (as it would from a configured proxy)."""

from __future__ import annotations

import asyncio
import hashlib
import random
from typing import Any

import httpx

from tests.server.players.test_rated_tables import create_table, game_of, ratings_of, sit, xp_of
from tests.server.support.harness import LiveServer, Player, fast_settings
from tests.server.support.scenario_helpers import fix_seeds, joined, make_account
from tests.server.support.scripted import ScriptedClient, game_settings
from tranque.engine import Action, PlayerView
from tranque.server.store import GamePlayerRow
from tranque.server.table.bots import InlineBots


def forwarded(headers: dict[str, str], address: str) -> dict[str, str]:
    return {**headers, "X-Forwarded-For": address}


def test_FP2_a_seat_played_from_another_seats_address_makes_the_game_unrated() -> None:
    """A sits from 10.60.0.1, B from 10.60.0.2 (its phone, say); then B's seat token is
    fetched from 10.60.0.1 (GET /api/me/seats) and both seats are played from there."""
    with LiveServer(game_settings()) as server:
        (ana, ana_headers), (beto, beto_headers) = make_account(server, "ana"), make_account(server, "beto")
        table = create_table(server, ana_headers, preset="clasico", players=2, competitive=True)

        async def scenario() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
            _, ana_token = await sit(server, ana_headers, "10.60.0.1", table)
            await sit(server, beto_headers, "10.60.0.2", table)
            # Both sat from their own addresses: the game counts, as far as anyone knows yet.
            async with Player(server, {"X-Forwarded-For": "10.60.0.3"}) as watcher:
                await watcher.request({"type": "hello", "table": table})
                sync = next(frame for frame in watcher.frames if frame["type"] == "sync")
                assert sync["rating"]["rated"] is True, sync["rating"]
            seats = httpx.get(
                f"{server.http}/api/me/seats", headers=forwarded(beto_headers, "10.60.0.1"), timeout=20
            )
            assert seats.status_code == 200, seats.text
            (held,) = [seat for seat in seats.json() if seat["table"] == table]
            clients = [
                ScriptedClient(
                    server, table, token, rng=random.Random(seat), headers={"X-Forwarded-For": "10.60.0.1"}
                )
                for seat, token in enumerate((ana_token, held["token"]))
            ]
            for client in clients:
                await client.player.connect()
            try:
                ended = list(await asyncio.gather(*(client.play() for client in clients)))
            finally:
                for client in clients:
                    await client.player.close()
            shown = [
                frame["rating"] if frame["type"] == "sync" else frame["data"]
                for frame in clients[0].player.frames
                if frame["type"] == "sync" or (frame["type"] == "event" and frame["kind"] == "rating")
            ]
            return ended, shown

        ended, shown = asyncio.run(scenario())
        # The table said why as soon as it knew, before the game's end.
        assert shown and (shown[-1]["rated"], shown[-1]["reason"]) == (False, "same_address_in_play"), shown
        assert all("rating_changes" not in end for end in ended)
        server.recorded()
        game = game_of(server, table)
        assert (game.competitive, game.rated, game.unrated_reason) == (True, False, "same_address_in_play")
        assert ratings_of(server, [ana, beto], "duel") == {}
        assert [xp_of(server, user) for user in (ana, beto)] == [{}, {}]


async def sit_invited(server: LiveServer, headers: dict[str, str], address: str, invite: str) -> str:
    async with Player(server, headers=forwarded(headers, address)) as player:
        seated = await player.request({"type": "sit", "invite": invite})
    assert seated["type"] == "ack", seated
    token: str = seated["token"]
    return token


def private_game(server: LiveServer, competitive: bool) -> tuple[str, dict[str, str], dict[str, str]]:
    """A private duel between ana and beto (each from their own address) played to its end
    and recorded: (its table, ana's headers, beto's headers)."""
    (_, ana_headers), (_, beto_headers) = make_account(server, "ana"), make_account(server, "beto")
    body = {"preset": "clasico", "players": 2, "private": True, "competitive": competitive}
    made = httpx.post(f"{server.http}/api/tables", json=body, headers=ana_headers, timeout=20)
    assert made.status_code == 201, made.text
    table, invite = made.json()["table"], made.json()["invite"]

    async def scenario() -> None:
        tokens = [
            await sit_invited(server, headers, address, invite)
            for headers, address in ((ana_headers, "10.61.0.1"), (beto_headers, "10.61.0.2"))
        ]
        clients = [
            ScriptedClient(
                server, table, token, rng=random.Random(seat), headers={"X-Forwarded-For": address}
            )
            for seat, (token, address) in enumerate(zip(tokens, ("10.61.0.1", "10.61.0.2"), strict=True))
        ]
        for client in clients:
            await client.player.connect()
        try:
            await asyncio.gather(*(client.play() for client in clients))
        finally:
            for client in clients:
                await client.player.close()

    asyncio.run(scenario())
    server.recorded()
    return table, ana_headers, beto_headers


def both_records(server: LiveServer, table: str, headers: dict[str, str]) -> list[httpx.Response]:
    return [
        httpx.get(f"{server.http}{path}", headers=headers, timeout=20)
        for path in (f"/api/tables/{table}/record", f"/api/games/{table}.1/record")
    ]


def test_FP7b_a_tables_record_is_seen_exactly_as_its_games_record() -> None:
    with LiveServer(game_settings()) as server:
        table, ana_headers, _ = private_game(server, competitive=False)
        _, carla_headers = make_account(server, "carla")
        for outsider in ({}, carla_headers):  # anonymous, and a third account
            by_table, by_game = both_records(server, table, outsider)
            assert (by_table.status_code, by_game.status_code) == (404, 404), by_table.text
            assert "rounds" not in by_table.text
        by_table, by_game = both_records(server, table, ana_headers)  # one of its players
        assert (by_table.status_code, by_game.status_code) == (200, 200)
        assert by_table.json() == by_game.json()

        public = create_table(server, ana_headers, preset="clasico", players=2)
        (_, dora_headers), (_, eva_headers) = make_account(server, "dora"), make_account(server, "eva")

        async def play_public() -> None:
            tokens = [
                (await sit(server, headers, address, public))[1]
                for headers, address in ((dora_headers, "10.61.0.4"), (eva_headers, "10.61.0.5"))
            ]
            clients = [
                ScriptedClient(server, public, token, rng=random.Random(n)) for n, token in enumerate(tokens)
            ]
            for client in clients:
                await client.player.connect()
            try:
                await asyncio.gather(*(client.play() for client in clients))
            finally:
                for client in clients:
                    await client.player.close()

        asyncio.run(play_public())
        server.recorded()
        for anyone in ({}, carla_headers):
            by_table, by_game = both_records(server, public, anyone)
            assert (by_table.status_code, by_game.status_code) == (200, 200)
            assert by_table.json() == by_game.json()


def test_FP7c_a_competitive_game_at_a_private_table_is_public_once_it_ends() -> None:
    with LiveServer(game_settings()) as server:
        table, _, _ = private_game(server, competitive=True)
        _, carla_headers = make_account(server, "carla")
        game = game_of(server, table)
        assert (game.competitive, game.rated, game.private) == (True, True, False)
        for anyone in ({}, carla_headers):  # anonymous, and an account that did not play
            summary = httpx.get(f"{server.http}/api/games/{table}.1", headers=anyone, timeout=20)
            assert summary.status_code == 200, summary.text
            by_table, by_game = both_records(server, table, anyone)
            assert (by_table.status_code, by_game.status_code) == (200, 200)
            listed = httpx.get(f"{server.http}/api/players/ana/games", headers=anyone, timeout=20)
            assert [item["game_id"] for item in listed.json()["games"]] == [f"{table}.1"], listed.text


# The covering bot's share of a seat's decisions (T1) ----------------------------------------

ANA, BETO = "10.62.0.1", "10.62.0.2"


class RecordingBots(InlineBots):
    """Seeded bots (the same move for the same view) that note the level each move was asked of."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.levels: list[str] = []

    async def choose(self, level: str, view: PlayerView) -> Action:
        self.levels.append(level)
        return await super().choose(level, view)


def t1_seeds(label: str, attempt: int) -> list[bytes]:
    return [hashlib.sha256(f"T1:{label}:{attempt}:{n}".encode()).digest() for n in range(12)]


def covered_duel(server: LiveServer, label: str, attempt: int, back_after: int, level: str) -> dict[str, Any]:
    """A competitive duel (deals fixed by `attempt`, bots seeded: the same attempt plays the
    same way) in which ana lets three turns run out, the covering bot makes `back_after` of
    her decisions, then she says `return` and plays to the end; beto plays all along. What
    happened: the end, who the table says won, the moves of seat 0 by who made them, and the
    levels the covering bot was asked to play at (the host chose `level`)."""
    (ana, ana_headers), (beto, beto_headers) = (
        make_account(server, f"ana{label}{attempt}"),
        make_account(server, f"beto{label}{attempt}"),
    )
    body = {"preset": "clasico", "players": 2, "target": 100, "competitive": True, "bot_level": level}
    made = httpx.post(f"{server.http}/api/tables", json=body, headers=ana_headers, timeout=20)
    assert made.status_code == 201, made.text
    table = made.json()["table"]

    async def rig() -> None:
        found = server.state.registry.tables[table]
        fix_seeds(found, t1_seeds(label, attempt))
        found.bots = bots

    bots = RecordingBots(attempt)
    server.on_server(rig)
    pause = server.state.settings.between_rounds_seconds
    auto = server.state.settings.auto_move_seconds

    async def scenario() -> dict[str, Any]:
        _, ana_token = await sit(server, ana_headers, ANA, table)
        _, beto_token = await sit(server, beto_headers, BETO, table)
        her = await joined(server, table, ana_token, headers={"X-Forwarded-For": ANA})
        him = await joined(server, table, beto_token, headers={"X-Forwarded-For": BETO})
        sync = next(frame for frame in him.frames if frame["type"] == "sync")
        turn_seconds = sync["rules"]["turn_seconds"]
        moves: list[tuple[str, bool]] = []  # seat 0's: (by, forced)
        covered = returned = False
        turn = sync["turn"]
        auto_turn = False
        try:
            while True:
                if turn is not None:
                    seat, turn_id, auto_turn = turn["seat"], turn["turn_id"], turn.get("auto", False)
                    player = him if seat == 1 else her
                    if auto_turn and (seat == 1 or returned or not covered):
                        await asyncio.to_thread(server.advance, auto)
                    elif seat == 1 or returned:
                        options = await player.wait_for(
                            lambda p=player, t=turn_id: next(  # type: ignore[misc]
                                (f for f in p.frames if f["type"] == "options" and f["turn_id"] == t), None
                            )
                        )
                        await player.ok(
                            {"type": "act", "action": options["legal_actions"][0], "turn_id": turn_id}
                        )
                    elif not covered:
                        await asyncio.to_thread(server.advance, turn_seconds)  # ana's clock runs out
                    turn = None
                event = await him.next_event()
                kind, data = event["kind"], event["data"]
                if kind == "turn":
                    turn = data
                elif kind == "seat" and data["seat"] == 0 and data["state"] == "covered":
                    covered = True
                elif kind == "action" and data["seat"] == 0:
                    moves.append((data["by"], auto_turn))
                    bot_decisions = sum(1 for by, forced in moves if by == "bot" and not forced)
                    if data["by"] == "bot" and not auto_turn and bot_decisions == back_after:
                        await her.ok({"type": "return"})
                        returned = True
                elif kind == "round_ended":
                    await asyncio.to_thread(server.advance, pause)
                elif kind == "game_ended":
                    return {
                        "end": data,
                        "moves": moves,
                        "returned": returned,
                        "users": (ana, beto),
                        "levels": bots.levels,
                    }
        finally:
            await her.close()
            await him.close()

    played = asyncio.run(scenario())
    server.recorded()
    played["table"] = table
    return played


def seat_zero_won_back(played: dict[str, Any]) -> bool:
    return bool(played["returned"]) and played["end"]["winners"] == [0]


def bot_share(played: dict[str, Any]) -> tuple[int, int]:
    """Seat 0's decisions and how many the bot made (forced moves are none)."""
    decisions = [by for by, forced in played["moves"] if not forced]
    return len(decisions), decisions.count("bot")


def players_of(server: LiveServer, table: str) -> list[GamePlayerRow]:
    async def read() -> list[GamePlayerRow]:
        found: list[GamePlayerRow] = await server.state.store.game_players(f"{table}.1")
        return found

    return sorted(server.on_server(read), key=lambda player: player.seat)


def first_where(server: LiveServer, label: str, back_after: int, level: str, fits: Any) -> dict[str, Any]:
    """The first attempt (deterministic deals and bots, so always the same one) that fits."""
    for attempt in range(16):
        played = covered_duel(server, label, attempt, back_after, level)
        if fits(played):
            return played
    raise AssertionError(f"no attempt of {label} fits")


def test_T1_a_seat_the_covering_bot_mostly_played_loses_the_rated_game_it_won_on_the_table() -> None:
    with LiveServer(fast_settings(auto_move_seconds=0.05, between_rounds_seconds=5)) as server:

        def fits(played: dict[str, Any]) -> bool:
            decisions, by_bot = bot_share(played)
            return seat_zero_won_back(played) and 3 * by_bot > decisions

        played = first_where(server, "mostly", 8, "greedy", fits)
        table, (ana, beto) = played["table"], played["users"]
        # The table's result: ana's seat won, and she was back (not covered) at the end...
        assert played["end"]["winners"] == [0] and played["returned"]
        # ...but the bot made more than a third of her decisions: scored as her abandon.
        ana_row, beto_row = players_of(server, table)
        assert (ana_row.won, ana_row.abandoned, ana_row.xp) == (False, True, 0)
        assert (beto_row.won, beto_row.abandoned, beto_row.xp) == (True, False, 20)
        changes = {change["seat"]: change for change in played["end"]["rating_changes"]}
        assert changes[0]["after"] < changes[0]["before"] and changes[0]["xp"] == 0, changes
        assert changes[1]["after"] > changes[1]["before"], changes
        found = ratings_of(server, [ana, beto], "duel")
        assert found[ana].shown < found[beto].shown
        assert xp_of(server, ana) == {}


def test_T1_control_back_early_the_seat_keeps_the_game_it_won_and_the_bot_is_no_expert() -> None:
    """The host chose the expert for the table's bots; the one that covers a seat at a
    competitive table plays as «Bota gorda» (greedy) all the same."""
    with LiveServer(fast_settings(auto_move_seconds=0.05, between_rounds_seconds=5)) as server:
        played = first_where(server, "early", 1, "expert", seat_zero_won_back)
        assert played["levels"] and set(played["levels"]) == {"greedy"}, played["levels"]
        decisions, by_bot = bot_share(played)
        assert by_bot == 1 and 3 * by_bot <= decisions
        ana_row, beto_row = players_of(server, played["table"])
        assert (ana_row.won, ana_row.abandoned, ana_row.xp) == (True, False, 20)
        assert (beto_row.won, beto_row.abandoned) == (False, False)
        changes = {change["seat"]: change for change in played["end"]["rating_changes"]}
        assert changes[0]["after"] > changes[0]["before"], changes
