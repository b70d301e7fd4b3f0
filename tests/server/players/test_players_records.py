"""A finished game's record, downloaded from the player's history, replays with `tranque replay`
and checks out with `tranque verify`: a practice game played over a real WebSocket to its end
by an account, so the record is the one the table kept."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import httpx
import pytest

from tests.server.support.harness import LiveServer
from tests.server.support.http_helpers import client, register
from tests.server.support.scripted import ScriptedClient, game_settings
from tranque.cli import main
from tranque.engine.record import replay
from tranque.terminal.catalogue import t


def test_a_played_games_record_downloads_replays_and_verifies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with LiveServer(game_settings()) as server, client(server) as http:
        assert register(http, "jugadora").status_code == 201
        seated = http.post("/api/practice", json={"preset": "clasico", "players": 2, "bot_level": "random"})
        assert seated.status_code == 200

        async def play() -> None:
            async with ScriptedClient(
                server, seated.json()["table"], seated.json()["token"], rng=random.Random(7)
            ) as me:
                await me.play()

        asyncio.run(play())
        server.recorded()  # the game's history is kept just after its end
        games = http.get("/api/players/jugadora/games").json()["games"]
        assert len(games) == 1
        game_id = games[0]["game_id"]
        assert game_id == f"{seated.json()['table']}.1"
        page = http.get(f"/api/games/{game_id}").json()
        download = httpx.get(f"{server.http}/api/games/{game_id}/record", timeout=20)
    assert download.status_code == 200
    assert download.headers["content-disposition"] == f'attachment; filename="tranque-{game_id}.json"'
    record = download.json()
    replayed = replay(record)
    assert replayed.scores == page["scores"] and replayed.winners == page["winners"]
    assert games[0]["won"] == (0 in page["winners"])
    path = tmp_path / f"tranque-{game_id}.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", str(path)]) == 0
    assert main(["verify", str(path)]) == 0
    out = " ".join(capsys.readouterr().out.split())  # as rich wrapped it, unwrapped
    assert t("verify_site", "es") in out  # checked as a site record: every deal's commitment
    assert t("verify_all_ok", "es") in out
    assert all("commitment" in round_ for round_ in record["rounds"])
