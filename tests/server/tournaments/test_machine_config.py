"""`TournamentConfig`: strict checks, one refusal code per problem, and its JSON."""

from __future__ import annotations

from typing import Any

import pytest

from tranque.server.refusals import REFUSALS
from tranque.server.tournaments.config import Entry, Format, TournamentConfig, TournamentError, presets_for

GOOD: dict[str, Any] = {
    "name": "Suizo del viernes",
    "format": "suizo",
    "entry": "duel",
    "rounds": 5,
    "size": 32,
}


def refusal(data: dict[str, Any]) -> TournamentError:
    with pytest.raises(TournamentError) as raised:
        TournamentConfig.from_json(data)
    return raised.value


def test_a_good_configuration_round_trips_through_json() -> None:
    config = TournamentConfig.from_json(GOOD)
    assert config.format is Format.SUIZO and config.entry is Entry.DUEL and config.rounds == 5
    assert TournamentConfig.from_json(config.to_json()) == config
    assert config.to_json()["format"] == "suizo"


def test_every_format_with_every_entry_it_allows() -> None:
    for data in (
        {"format": "minitorneo", "entry": "duel", "size": 4},
        {"format": "minitorneo", "entry": "pairs", "size": 16},
        {"format": "suizo", "entry": "rotating", "rounds": 3, "size": 4},
        {"format": "suizo", "entry": "pairs", "rounds": 3},
        {"format": "arena", "entry": "duel", "window_seconds": 3600},
        {"format": "arena", "entry": "rotating", "window_seconds": 1800.5},
        {"format": "duplicado", "entry": "duel", "rounds": 4, "hands": 6},
        {"format": "duplicado", "entry": "pairs", "rounds": 2},
    ):
        TournamentConfig.from_json({"name": "Copa", **data})


@pytest.mark.parametrize(
    ("changes", "key", "field"),
    [
        ({"bogus": 1}, "tournament_config.unknown", "bogus"),
        ({"name": "ab"}, "tournament_config.name", "name"),
        ({"name": "x" * 61}, "tournament_config.name", "name"),
        ({"name": 7}, "tournament_config.name", "name"),
        ({"format": "liga"}, "tournament_config.format", "format"),
        ({"entry": "trio"}, "tournament_config.entry", "entry"),
        (
            {"format": "arena", "entry": "pairs", "window_seconds": 600, "rounds": None},
            "tournament_config.entry_format",
            "entry",
        ),
        (
            {"format": "minitorneo", "entry": "rotating", "rounds": None},
            "tournament_config.entry_format",
            "entry",
        ),
        ({"size": 1}, "tournament_config.size", "size"),
        ({"size": 1001}, "tournament_config.size", "size"),
        ({"size": "8"}, "tournament_config.size", "size"),
        ({"size": 8.5}, "tournament_config.size", "size"),
        ({"entry": "rotating", "size": 3}, "tournament_config.size", "size"),
        ({"format": "minitorneo", "size": 6, "rounds": None}, "tournament_config.size_knockout", "size"),
        ({"rounds": None}, "tournament_config.rounds", "rounds"),
        ({"rounds": 0}, "tournament_config.rounds", "rounds"),
        ({"rounds": 21}, "tournament_config.rounds", "rounds"),
        ({"format": "minitorneo", "size": 8, "rounds": 3}, "tournament_config.rounds_unused", "rounds"),
        ({"format": "duplicado", "hands": 0}, "tournament_config.hands", "hands"),
        ({"format": "arena", "rounds": None}, "tournament_config.window", "window_seconds"),
        (
            {"format": "arena", "rounds": None, "window_seconds": 30},
            "tournament_config.window",
            "window_seconds",
        ),
        ({"window_seconds": 600}, "tournament_config.window_unused", "window_seconds"),
        ({"round_every_seconds": 30}, "tournament_config.round_every", "round_every_seconds"),
        ({"round_every_seconds": "luego"}, "tournament_config.round_every", "round_every_seconds"),
        (
            {"format": "arena", "rounds": None, "window_seconds": 600, "round_every_seconds": 600},
            "tournament_config.round_every_unused",
            "round_every_seconds",
        ),
        ({"game_cap_seconds": 10}, "tournament_config.game_cap", "game_cap_seconds"),
        ({"starts_at": -5}, "tournament_config.starts_at", "starts_at"),
        ({"starts_at": "mañana"}, "tournament_config.starts_at", "starts_at"),
        ({"fill_wait_seconds": -1}, "tournament_config.fill_wait", "fill_wait_seconds"),
        ({"bot_level": "dios"}, "tournament_config.bot_level", "bot_level"),
        ({"rated": "yes"}, "tournament_config.boolean", "rated"),
        ({"preset": "ponce"}, "tournament_config.preset", "preset"),  # ponce is pairs only
        ({"preset": "en-contra"}, "tournament_config.preset", "preset"),  # the fewest points win
        ({"preset": "nada"}, "tournament_config.preset", "preset"),
        ({"target": 0}, "tournament_config.target", "target"),
        ({"target": 5000}, "tournament_config.target", "target"),
        ({"turn_seconds": 25}, "tournament_config.turn_seconds", "turn_seconds"),
    ],
)
def test_each_problem_is_one_refusal_naming_its_field(changes: dict[str, Any], key: str, field: str) -> None:
    error = refusal({**GOOD, **changes})
    assert (error.key, error.field) == (key, field)
    assert error.code == "tournament_config"
    assert key in REFUSALS
    assert error.message and error.message_en and error.message != error.message_en
    assert "{" not in error.message and "{" not in error.message_en


def test_a_missing_name_format_or_entry_is_refused() -> None:
    for field in ("name", "format", "entry"):
        data = {k: v for k, v in GOOD.items() if k != field}
        assert refusal(data).key == f"tournament_config.{field}"
    with pytest.raises(TournamentError) as raised:
        TournamentConfig.from_json(["not", "an", "object"])
    assert raised.value.key == "tournament_config.body"


def test_the_refusals_say_what_is_allowed() -> None:
    assert (
        "minitorneo se juega duel o pairs"
        in refusal({**GOOD, "format": "minitorneo", "entry": "rotating", "rounds": None}).message
    )
    levels = refusal({**GOOD, "bot_level": "dios"})
    assert "random, greedy, heuristic o expert" in levels.message
    assert "random, greedy, heuristic or expert" in levels.message_en
    assert "2 a 1000" in refusal({**GOOD, "size": 1}).message
    assert "20, 30 o 45" in refusal({**GOOD, "turn_seconds": 25}).message


def test_presets_offered_seat_the_entry_and_favour_the_higher_score() -> None:
    assert "ponce" in presets_for(Entry.PAIRS) and "ponce" not in presets_for(Entry.DUEL)
    assert "futbol" in presets_for(Entry.DUEL) and "en-contra" not in presets_for(Entry.DUEL)


def test_a_name_is_trimmed_and_the_games_rules_come_from_the_engine() -> None:
    config = TournamentConfig.from_json({**GOOD, "name": "  Copa  ", "target": 150, "turn_seconds": 45})
    assert config.name == "Copa"
    rules = config.game_rules()
    assert (rules.players, rules.mode.value, rules.target, rules.turn_seconds) == (2, "individual", 150, 45)
    pairs = TournamentConfig.from_json({**GOOD, "entry": "rotating"}).game_rules()
    assert (pairs.players, pairs.mode.value) == (4, "pairs")
    duplicado = TournamentConfig.from_json({**GOOD, "format": "duplicado", "hands": 3}).game_rules()
    assert duplicado.hands == 3
