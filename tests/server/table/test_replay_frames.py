"""The replay viewer's frames (server/table/replay_frames.py) and `GET /api/games/{id}/replay`.

Frames of real games (bots playing engine games from fixed seeds, and games played to the
end over real WebSockets) must step from each deal to the record's final position: every
play lands in the line, tiles are neither lost nor made, the last frame's scores are the
game's. The endpoint shows public games to anyone and private ones only to their players.
"""

from __future__ import annotations

import asyncio
import copy
import itertools
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.server.support.harness import LiveServer
from tests.server.support.scenario_helpers import make_account
from tests.server.support.scripted import ScriptedClient, game_settings
from tranque.bots import arena, make_bot
from tranque.engine import Drawing, Game, Rules
from tranque.engine.record import RecordError, replay, to_record
from tranque.server.table.line_layout import lay_out, line_json
from tranque.server.table.replay_frames import replay_frames

GAMES = [("clasico", 4, 3), ("clasico", 2, 5), ("ponce", 4, 11), ("sin-pozo", 2, 2), ("futbol", 2, 4)]


def bots_game(preset: str, players: int, seed: int) -> Game:
    """A whole game of greedy bots, dealt from `seed`."""
    rules = Rules.from_options(preset, players=players)
    game = Game(rules, seed=seed)
    return arena.play_out(game, [make_bot("greedy", seed=seat) for seat in range(rules.players)])


@pytest.fixture(scope="module", params=GAMES, ids=[f"{p}-{n}" for p, n, _ in GAMES])
def played(request: pytest.FixtureRequest) -> tuple[Game, dict[str, Any]]:
    preset, players, seed = request.param
    game = bots_game(preset, players, seed)
    return game, to_record(game)


class TestFrames:
    def test_the_last_frame_is_the_records_final_position(self, played: tuple[Game, dict[str, Any]]) -> None:
        game, record = played
        frames, rounds = replay_frames(record)
        last = frames[-1]
        assert last["kind"] == "end"
        assert last["scores"] == game.scores == record["scores"]
        assert last["goals"] == game.goals
        assert last["turn"] is None
        assert last["hands"] == [[str(tile) for tile in hand] for hand in game.round.hands]
        assert rounds[-1]["scores"] == game.scores
        assert len(rounds) == len(record["rounds"])
        assert last["line"] == line_json(lay_out(_plays(record["rounds"][-1])))["line"]

    def test_one_frame_per_deal_action_and_end(self, played: tuple[Game, dict[str, Any]]) -> None:
        _, record = played
        frames, rounds = replay_frames(record)
        assert len(frames) == sum(len(r["actions"]) + 2 for r in record["rounds"])
        for number, (round_data, summary) in enumerate(zip(record["rounds"], rounds, strict=True)):
            steps = frames[summary["start"] : summary["end"] + 1]
            assert [f["kind"] for f in steps] == ["deal", *(a["type"] for a in round_data["actions"]), "end"]
            assert {f["round"] for f in steps} == {number}
            assert steps[0]["hands"] == round_data["hands"]
            assert steps[0]["line"] == [] and steps[0]["action"] is None
            assert steps[0]["turn"] == round_data["starter"]
            for frame, action in zip(steps[1:-1], round_data["actions"], strict=True):
                assert frame["action"]["seat"] == action["seat"]
                assert frame["action"]["kind"] == action["type"]
            assert summary["result"] == round_data["result"]

    def test_every_tile_played_lands_in_the_line_and_leaves_its_hand(
        self, played: tuple[Game, dict[str, Any]]
    ) -> None:
        _, record = played
        frames, _ = replay_frames(record)
        for before, after in itertools.pairwise(frames):
            action = after["action"]
            if action is None or action["kind"] != "play":
                continue
            tile, seat = action["tile"], action["seat"]
            assert tile in before["hands"][seat] and tile not in after["hands"][seat]
            assert Counter(box["tile"] for box in after["line"]) == Counter(
                [*(box["tile"] for box in before["line"]), tile]
            )
            where = after["line"][0] if action["end"] == "left" else after["line"][-1]
            assert where["tile"] == tile

    def test_tiles_are_neither_lost_nor_made(self, played: tuple[Game, dict[str, Any]]) -> None:
        game, record = played
        frames, rounds = replay_frames(record)
        drawing = game.rules.drawing is Drawing.UNTIL_PLAYABLE  # else the rest is out of play
        for round_data, summary in zip(record["rounds"], rounds, strict=True):
            dealt = sum(len(hand) for hand in round_data["hands"]) + drawing * len(round_data["boneyard"])
            for frame in frames[summary["start"] : summary["end"] + 1]:
                held = sum(len(hand) for hand in frame["hands"])
                assert held + len(frame["line"]) + frame["pozo"] == dealt

    def test_a_domino_round_ends_with_its_winners_hand_empty(
        self, played: tuple[Game, dict[str, Any]]
    ) -> None:
        _, record = played
        frames, rounds = replay_frames(record)
        for summary in rounds:
            result = summary["result"]
            if result is not None and result["kind"] == "domino":
                assert frames[summary["end"]]["hands"][result["winner_seat"]] == []

    def test_each_rounds_summary_is_the_engines(self, played: tuple[Game, dict[str, Any]]) -> None:
        _, record = played
        frames, rounds = replay_frames(record)
        replayed = replay(record)
        assert [r["result"] for r in rounds] == [
            None if rnd.result is None else rnd.result.to_json() for rnd in replayed.rounds
        ]
        for summary in rounds:
            assert frames[summary["end"]]["scores"] == summary["scores"]

    def test_a_record_that_does_not_replay_is_refused(self, played: tuple[Game, dict[str, Any]]) -> None:
        _, record = played
        changed = copy.deepcopy(record)
        changed["scores"] = [999] * len(changed["scores"])
        with pytest.raises(RecordError):
            replay_frames(changed)


def _plays(round_data: dict[str, Any]) -> list[tuple[str, str | None]]:
    return [(a["tile"], a.get("side")) for a in round_data["actions"] if a["type"] == "play"]


# The endpoint, over a real server -----------------------------------------------------------


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with LiveServer(game_settings()) as live:
        yield live


def play_out(server: LiveServer, table: str, token: str) -> dict[str, Any]:
    async def play() -> dict[str, Any]:
        async with ScriptedClient(server, table, token, rng=random.Random(3)) as client:
            return await client.play()

    ended = asyncio.run(play())
    server.recorded()  # the game's history is kept after its end
    return ended


def private_game(server: LiveServer, user_id: int) -> tuple[str, str]:
    """A private two-player table with the account at seat 0 and a bot, its game started."""
    registry = server.state.registry

    async def make() -> tuple[str, str]:
        rules = Rules.from_options("clasico", players=2)
        table = await registry.create(rules, registry.options(kind="private", bot_level="greedy"))
        token = await table.take_seat(table.seats[0], "ana", user_id)
        await table.give_to_bot(table.seats[1], "greedy")
        await table.start_game()
        return table.table_id, token

    return server.on_server(make)


def get(server: LiveServer, path: str, headers: dict[str, str] | None = None) -> httpx.Response:
    return httpx.get(f"{server.http}{path}", headers=headers or {}, timeout=30)


class TestEndpoint:
    def test_a_practice_game_replays_to_its_end_for_anyone(self, server: LiveServer) -> None:
        seated = server.post("/api/practice", {"preset": "clasico", "players": 2, "bot_level": "greedy"})
        ended = play_out(server, seated["table"], seated["token"])
        game_id = f"{seated['table']}.1"
        response = get(server, f"/api/games/{game_id}/replay")
        assert response.status_code == 200
        body = response.json()
        assert body["game"]["game_id"] == game_id
        assert body["game"]["scores"] == ended["scores"] == body["frames"][-1]["scores"]
        assert body["game"]["winners"] == ended["winners"]
        assert body["game"]["private"] is False
        assert body["game"]["seats"][0]["name"] == "Invitado"
        assert all("user_id" not in seat for seat in body["game"]["seats"])
        assert body["sides"] == [[0], [1]]
        assert len(body["rounds"]) == body["game"]["rounds"]
        record = get(server, f"/api/tables/{seated['table']}/record").json()
        assert body["frames"] == replay_frames(record)[0]
        assert body["rules"] == record["rules"]

    def test_the_record_downloads_as_a_file(self, server: LiveServer) -> None:
        seated = server.post("/api/practice", {"preset": "clasico", "players": 2, "bot_level": "greedy"})
        play_out(server, seated["table"], seated["token"])
        game_id = f"{seated['table']}.1"
        response = get(server, f"/api/games/{game_id}/record")
        assert response.status_code == 200
        assert response.headers["content-disposition"] == f'attachment; filename="tranque-{game_id}.json"'
        assert response.json() == get(server, f"/api/tables/{seated['table']}/record").json()
        replay(response.json())

    def test_a_private_game_only_to_its_players(self, server: LiveServer) -> None:
        user_id, ana = make_account(server, "ana_replay")
        _, other = make_account(server, "otro_replay")
        table, token = private_game(server, user_id)
        ended = play_out(server, table, token)
        game_id = f"{table}.1"
        for path in (f"/api/games/{game_id}/replay", f"/api/games/{game_id}/record"):
            seen = get(server, path, ana)
            assert seen.status_code == 200
            for headers in (other, None):
                refused = get(server, path, headers)
                assert refused.status_code == 404
                assert refused.json()["code"] == "no_such_game"
        body = get(server, f"/api/games/{game_id}/replay", ana).json()
        assert body["game"]["private"] is True
        assert body["frames"][-1]["scores"] == ended["scores"]
        assert [p["name"] for p in body["game"]["participants"]] == ["ana"]
        assert body["game"]["participants"][0]["won"] == (0 in ended["winners"])

    def test_a_game_not_kept_is_404_in_both_languages(self, server: LiveServer) -> None:
        for path in ("/api/games/nada.1/replay", "/api/games/nada.1/record"):
            response = get(server, path)
            assert response.status_code == 404
            assert response.json() == {
                "code": "no_such_game",
                "message": "Esa partida no existe o no la puedes ver.",
                "message_en": "That game does not exist or you cannot see it.",
            }

    def test_a_game_still_being_played_has_no_replay(self, server: LiveServer) -> None:
        seated = server.post("/api/practice", {"preset": "clasico", "players": 2, "bot_level": "greedy"})
        response = get(server, f"/api/games/{seated['table']}.1/replay")
        assert response.status_code == 404
        assert response.json()["code"] == "no_such_game"
