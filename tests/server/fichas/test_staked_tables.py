"""Staked tables through a real server (table/stakes.py): a competitive table created with a
stake over HTTP, people sitting over WebSockets, the pot in the store. What sitting, leaving
and a game's end move is read from the server's store (memory, or SQLite / PostgreSQL with
TRANQUE_TEST_DB)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from tests.server.players.test_rated_tables import create_table, first_sync, play_all
from tests.server.support.harness import LiveServer, Player, fast_settings
from tests.server.support.scenario_helpers import make_account
from tests.server.support.scripted import game_settings
from tranque.server.fichas import ledger


def balance(server: LiveServer, user_id: int) -> int:
    async def read() -> int:
        found: int = await server.state.fichas.balance(user_id)
        return found

    return server.on_server(read)


def pot(server: LiveServer, table: str, game: int = 1) -> int:
    async def read() -> int:
        found: int = await server.state.store.ficha_balance(ledger.pot(table, game))
        return found

    return server.on_server(read)


def post_table(server: LiveServer, headers: dict[str, str], **body: Any) -> httpx.Response:
    return httpx.post(f"{server.http}/api/tables", json=body, headers=headers, timeout=20)


async def sit_frames(
    server: LiveServer, headers: dict[str, str], address: str, table: str
) -> tuple[dict[str, Any], Player]:
    """Sit, and keep the socket open (its frames: the seat, the pot): the caller closes it."""
    player = Player(server, headers={**headers, "X-Forwarded-For": address})
    await player.connect()
    answer: dict[str, Any] = await player.request({"type": "sit", "table": table})
    return answer, player


def test_a_stake_is_refused_off_the_levels_at_a_casual_table_and_with_fichas_off() -> None:
    with LiveServer(fast_settings()) as server:
        _, headers = make_account(server, "ana")
        off_level = post_table(server, headers, preset="clasico", players=2, competitive=True, stake=7)
        assert off_level.status_code == 400
        assert off_level.json()["code"] == "fichas_bad_stake"
        assert "10, 50, 100" in off_level.json()["message"]
        casual = post_table(server, headers, preset="clasico", players=2, competitive=False, stake=50)
        assert (casual.status_code, casual.json()["code"]) == (400, "fichas_stake_not_allowed")
        assert httpx.get(f"{server.http}/api/lobby", timeout=20).json() == []  # nothing was made
        assert httpx.get(f"{server.http}/api/stakes", timeout=20).json() == {
            "enabled": True,
            "stakes": [10, 50, 100, 500],
        }
    with LiveServer(fast_settings(fichas_enabled=False)) as server:
        _, headers = make_account(server, "ana")
        off = post_table(server, headers, preset="clasico", players=2, competitive=True, stake=50)
        assert (off.status_code, off.json()["code"]) == (404, "fichas_off")
        assert httpx.get(f"{server.http}/api/stakes", timeout=20).json() == {"enabled": False, "stakes": []}
        plain = post_table(server, headers, preset="clasico", players=2, competitive=True)
        assert plain.status_code == 201  # no stake: a competitive table as ever
        row = httpx.get(f"{server.http}/api/tables/{plain.json()['table']}", timeout=20).json()
        assert "stake" not in row and "pot" not in row  # with fichas off, no word of them


def test_sitting_without_cover_is_refused_with_both_figures_and_changes_nothing() -> None:
    with LiveServer(fast_settings(fichas_grant=40, fichas_floor=0)) as server:
        ana, ana_headers = make_account(server, "ana")
        table = create_table(server, ana_headers, preset="clasico", players=2, competitive=True, stake=50)

        async def scenario() -> dict[str, Any]:
            answer, player = await sit_frames(server, ana_headers, "198.51.100.1", table)
            await player.close()
            return answer

        refused = asyncio.run(scenario())
        assert refused["type"] == "error" and refused["code"] == "fichas_not_enough"
        assert "50" in refused["message"] and "40" in refused["message"]
        assert "50" in refused["message_en"] and "40" in refused["message_en"]
        summary = httpx.get(f"{server.http}/api/tables/{table}", timeout=20).json()
        assert [seat["kind"] for seat in summary["seats"]] == ["empty", "empty"]
        assert (summary["stake"], summary["pot"]) == (50, 0)
        assert balance(server, ana) == 40


def test_two_tabs_of_one_account_sitting_at_two_staked_tables_with_one_balance_only_one_sits() -> None:
    with LiveServer(fast_settings(fichas_grant=60, fichas_floor=0)) as server:
        ana, ana_headers = make_account(server, "ana")
        _, beto_headers = make_account(server, "beto")
        tables = [
            create_table(server, beto_headers, preset="clasico", players=2, competitive=True, stake=50)
            for _ in range(2)
        ]

        async def scenario() -> list[dict[str, Any]]:
            tab_headers = {**ana_headers, "X-Forwarded-For": "198.51.100.1"}
            tabs = [Player(server, headers=tab_headers) for _ in tables]
            for tab in tabs:
                await tab.connect()
            pairs = zip(tabs, tables, strict=True)
            sits = [tab.request({"type": "sit", "table": table}) for tab, table in pairs]
            answers = await asyncio.gather(*sits)
            for tab in tabs:
                await tab.close()
            return list(answers)

        answers = asyncio.run(scenario())
        assert sorted(answer["type"] for answer in answers) == ["ack", "error"]
        (refused,) = [answer for answer in answers if answer["type"] == "error"]
        assert refused["code"] == "fichas_not_enough"
        assert balance(server, ana) == 10
        assert sorted(pot(server, table) for table in tables) == [0, 50]
        summaries = [httpx.get(f"{server.http}/api/tables/{table}", timeout=20).json() for table in tables]
        seated = [[seat["kind"] for seat in summary["seats"]] for summary in summaries]
        assert sorted(seated) == [["empty", "empty"], ["human", "empty"]]


def test_leaving_a_staked_seat_before_the_game_gives_the_stake_back_and_shows_the_pot() -> None:
    with LiveServer(fast_settings()) as server:
        ana, ana_headers = make_account(server, "ana")
        table = create_table(server, ana_headers, preset="clasico", players=2, competitive=True, stake=50)
        assert balance(server, ana) == 1000

        async def scenario() -> tuple[list[dict[str, Any]], dict[str, Any], list[dict[str, Any]]]:
            seated, ana_socket = await sit_frames(server, ana_headers, "198.51.100.1", table)
            assert seated["type"] == "ack"
            await ana_socket.request({"type": "hello", "table": table, "token": seated["token"]})
            watching = await first_sync(server, table)
            lobby = httpx.get(f"{server.http}/api/lobby", timeout=20).json()
            stood = await ana_socket.request({"type": "stand"})
            assert stood["type"] == "ack", stood
            # (The `pot` frame comes before the ack: the command sends it as it ends.)
            await ana_socket.close()
            return lobby, watching, ana_socket.frames

        lobby, watching, frames = asyncio.run(scenario())
        assert [(row["stake"], row["pot"]) for row in lobby if row["table"] == table] == [(50, 50)]
        assert (watching["stake"], watching["pot"]) == (50, 50)
        pots = [frame["pot"] for frame in frames if frame["type"] == "pot"]
        assert pots[-1] == 0
        assert balance(server, ana) == 1000 and pot(server, table) == 0
        history = server.on_server(lambda: server.state.fichas.history(ana, 10))
        kinds = [movement.kind.value for movement in history]
        assert kinds[:2] == ["unstake", "stake"]  # newest first


def test_a_staked_duel_played_to_the_end_pays_the_winner_less_the_cut_and_shows_it() -> None:
    with LiveServer(game_settings()) as server:
        (ana, ana_headers), (beto, beto_headers) = make_account(server, "ana"), make_account(server, "beto")
        table = create_table(server, ana_headers, preset="clasico", players=2, competitive=True, stake=50)

        addresses = ["198.51.100.1", "198.51.100.2"]

        async def scenario() -> tuple[list[dict[str, Any]], list[str]]:
            first, ana_socket = await sit_frames(server, ana_headers, addresses[0], table)
            second, beto_socket = await sit_frames(server, beto_headers, addresses[1], table)
            await ana_socket.close()
            await beto_socket.close()
            playing = await first_sync(server, table, first["token"])
            assert (playing["phase"], playing["stake"], playing["pot"]) == ("playing", 50, 100)
            tokens = [first["token"], second["token"]]
            return await play_all(server, table, tokens, addresses), tokens

        ended, tokens = asyncio.run(scenario())
        server.recorded()  # the pot is emptied with the game's result
        (team,) = ended[0]["winners"]
        users = (ana, beto)
        # The pot of 100: the bank's cut of 40%, the winner takes 60 (10 more than the stake).
        assert balance(server, users[team]) == 1000 - 50 + 60
        assert balance(server, users[1 - team]) == 1000 - 50
        assert pot(server, table) == 0
        moved = [(60, "payout") if seat == team else (-50, "stake") for seat in range(2)]
        assert ended[0]["ficha_changes"] == [
            {"seat": seat, "user_id": users[seat], "amount": amount, "kind": kind}
            for seat, (amount, kind) in enumerate(moved)
        ] + [{"seat": None, "user_id": None, "amount": 40, "kind": "cut"}]
        # Each one's history: the game's lines, now that it is kept, say it has a replay.
        for seat, headers in enumerate((ana_headers, beto_headers)):
            lines = httpx.get(f"{server.http}/api/me/fichas", headers=headers, timeout=20).json()["movements"]
            games = [(line["kind"], line["game"], line["replay"]) for line in lines if line["game"]]
            kinds = ["payout", "stake"] if seat == team else ["stake"]
            assert games == [(kind, f"{table}.1", True) for kind in kinds], games

        # A rematch is a new game with a pot of its own: the vote that completes it stakes both.
        async def rematch() -> dict[str, Any]:
            for token, address in zip(tokens, addresses, strict=True):
                async with Player(server, headers={"X-Forwarded-For": address}) as player:
                    await player.request({"type": "hello", "table": table, "token": token})
                    answer = await player.request({"type": "rematch"})
                    assert answer["type"] == "ack", answer
            return await first_sync(server, table, tokens[0])

        again = asyncio.run(rematch())
        assert (again["game"], again["phase"], again["stake"], again["pot"]) == (2, "playing", 50, 100)
        assert pot(server, table, 2) == 100
        assert balance(server, users[team]) == 1000 - 50 + 60 - 50
        assert balance(server, users[1 - team]) == 1000 - 50 - 50


def test_a_bot_account_sits_at_a_staked_table_without_staking_and_a_person_still_stakes() -> None:
    with LiveServer(fast_settings()) as server:
        ana, ana_headers = make_account(server, "ana")
        with httpx.Client(base_url=server.http, headers=ana_headers, timeout=20) as http:
            made = http.post("/api/me/bots", json={"name": "Robotina"})
            assert made.status_code == 201, made.text
            token = made.json()["token"]
            options = {"preset": "clasico", "players": 2, "bots": True, "competitive": True, "stake": 50}
            created = http.post("/api/tables", json=options)
            assert created.status_code == 201, created.text
            table = created.json()["table"]

        async def scenario() -> tuple[dict[str, Any], dict[str, Any], int]:
            async with Player(server, {"Authorization": f"Bearer {token}"}) as bot:
                by_bot = await bot.request({"type": "sit", "table": table, "seat": 0})
                pot_after_bot = pot(server, table)
                by_ana, ana_socket = await sit_frames(server, ana_headers, "198.51.100.1", table)
                await ana_socket.close()
            return by_bot, by_ana, pot_after_bot

        by_bot, by_ana, pot_after_bot = asyncio.run(scenario())
        assert by_bot["type"] == "ack" and by_ana["type"] == "ack", (by_bot, by_ana)
        assert pot_after_bot == 0  # the bot put nothing in
        assert pot(server, table) == 50  # the person's stake only
        assert balance(server, ana) == 1000 - 50

        async def bot_movements() -> list[str]:
            found = await server.state.store.find_user("Robotina")
            assert found is not None and found.user_id != ana
            history = await server.state.store.ficha_history(found.user_id, 10, None)
            return [movement.kind.value for movement in history]

        assert "stake" not in server.on_server(bot_movements)
