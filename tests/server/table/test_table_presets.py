"""What a table form needs, from the server (docs/protocol.md, `GET /api/presets`): every
choice it lists is accepted by `POST /api/tables` and `POST /api/practice`, and the tables a
form offers with their own targets (ponce to 20 palitos, sin pozo one against one to 50,
salón to 250) are created over HTTP, seated over a real WebSocket and played to the end."""

from __future__ import annotations

import asyncio
import itertools
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.server.support.harness import LiveServer
from tests.server.support.http_helpers import client, register
from tests.server.support.scenario_helpers import Client
from tests.server.support.scripted import ScriptedClient, game_settings, stored_events
from tranque.engine.presets import PRESETS
from tranque.server.accounts.sessions import SESSION_COOKIE
from tranque.server.http.api import PracticeRequest
from tranque.server.http.errors import ApiError
from tranque.server.table.choices import catalogue


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with LiveServer(game_settings()) as live:
        yield live


def combinations(preset: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Every table a form built from `preset`'s description may ask for."""
    for players in preset["players"]:
        for mode, target, seconds, bonus in itertools.product(
            preset["modes"][str(players)],
            preset["target_choices"][str(players)],
            preset["turn_seconds_choices"],
            preset["capicua_bonus_choices"],
        ):
            yield {
                "preset": preset["name"],
                "players": players,
                "mode": mode,
                "target": target,
                "turn_seconds": seconds,
                "capicua_bonus": bonus,
            }


@pytest.mark.parametrize("preset", catalogue(), ids=lambda preset: preset["name"])
def test_every_combination_a_preset_lists_is_accepted_as_it_was_asked(preset: dict[str, Any]) -> None:
    asked = list(combinations(preset))
    assert asked
    for options in asked:
        rules = PracticeRequest(**options).rules()  # the check of both endpoints (TableRequest)
        chosen = {name: getattr(rules, name) for name in options if name != "preset"}
        assert {**chosen, "mode": rules.mode.value} == {k: v for k, v in options.items() if k != "preset"}


@pytest.mark.parametrize("preset", catalogue(), ids=lambda preset: preset["name"])
def test_the_defaults_are_among_the_choices_and_are_the_engines(preset: dict[str, Any]) -> None:
    defaults = preset["defaults"]
    assert defaults["players"] in preset["players"]
    assert defaults["turn_seconds"] in preset["turn_seconds_choices"]
    assert defaults["capicua_bonus"] in preset["capicua_bonus_choices"]
    for players in preset["players"]:
        key = str(players)
        assert defaults["mode"][key] == preset["modes"][key][0]
        assert defaults["target"][key] in preset["target_choices"][key]
        rules = PracticeRequest(preset=preset["name"], players=players).rules()
        assert (rules.mode.value, rules.target) == (defaults["mode"][key], defaults["target"][key])


def test_a_capicua_bonus_is_offered_exactly_where_the_engine_accepts_one() -> None:
    offered = {preset["name"]: preset["capicua"] for preset in catalogue()}
    assert offered == {name: name not in ("ponce", "futbol", "en-contra") for name in PRESETS}
    for name, allowed in offered.items():
        if not allowed:
            with pytest.raises(ApiError) as refused:
                PracticeRequest(preset=name, capicua_bonus=20).rules()
            assert refused.value.code == "bad_rules"
            assert refused.value.parameter == "capicua_bonus"


def test_presets_say_in_both_languages_everything_a_form_needs(server: LiveServer) -> None:
    presets = {p["name"]: p for p in httpx.get(f"{server.http}/api/presets", timeout=20).json()}
    assert list(presets) == list(PRESETS)
    for name, preset in presets.items():
        assert preset["summary"] == PRESETS[name].summary
        assert preset["summary_en"] and preset["summary_en"] != preset["summary"]
        assert preset["title_en"]
        assert preset["seatings"] == preset["modes"]
    assert presets["ponce"]["target_choices"] == {"4": [20]}
    assert presets["ponce"]["capicua"] is False and presets["ponce"]["capicua_bonus_choices"] == [0]
    assert presets["sin-pozo"]["target_choices"]["2"] == [50]
    assert presets["sin-pozo"]["modes"] == {"2": ["individual"], "4": ["pairs", "individual"]}
    assert presets["salon"]["target_choices"]["4"] == [50, 100, 150, 200, 250, 300]
    assert presets["clasico"]["capicua_bonus_choices"] == [0, 20]
    assert presets["clasico"]["turn_seconds_choices"] == [20, 30, 45]
    assert presets["futbol"]["defaults"]["players"] == 2
    bots = httpx.get(f"{server.http}/api/bots", timeout=20).json()
    assert all(bot["title_en"] and bot["summary_en"] != bot["summary"] for bot in bots)


FORM_TABLES = [
    {"preset": "ponce", "players": 4, "mode": "pairs", "target": 20},
    {"preset": "sin-pozo", "players": 2, "mode": "individual", "target": 50},
    {"preset": "salon", "players": 4, "mode": "pairs", "target": 250},
]


@pytest.mark.parametrize("options", FORM_TABLES, ids=lambda options: options["preset"])
def test_a_table_with_its_own_target_is_created_seated_and_played_to_the_end(
    server: LiveServer, options: dict[str, Any]
) -> None:
    """As the form does it: POST /api/tables with every field the form sends, `sit` with the
    session, `hello` with the seat's token, «Completar con la máquina», and a game to the end."""
    name = f"host{options['preset'].replace('-', '')}"
    with client(server) as http:
        assert register(http, name).status_code == 201
        body = {**options, "turn_seconds": 30, "capicua_bonus": 0, "bot_level": "random", "private": False}
        created = http.post("/api/tables", json=body)
        assert created.status_code == 201, created.text
        table_id = created.json()["table"]
        cookie = {"Cookie": f"{SESSION_COOKIE}={http.cookies[SESSION_COOKIE]}"}

    async def scenario() -> dict[str, Any]:
        async with Client(server, cookie) as host:
            seated = await host.ok({"type": "sit", "table": table_id})
            player = ScriptedClient(server, table_id, seated["token"], rng=random.Random(7))
            await player.player.connect()
            await player.join()
            await host.hello(table_id, seated["token"])
            await host.ok({"type": "fill_bots", "level": "random"})
            try:
                return await player.play()
            finally:
                await player.player.close()

    ended = asyncio.run(scenario())
    assert ended["reason"] == "target"
    assert max(ended["scores"]) >= options["target"]
    events = stored_events(server, table_id)
    assert events[0].data["rules"]["target"] == options["target"]
    assert events[0].data["rules"]["preset_name"] == options["preset"]
    assert [event.kind for event in events].count("round_ended") >= 1
