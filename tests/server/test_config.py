"""Settings from a TOML file and the environment (server/config.py, docs/configuration.md)."""

from __future__ import annotations

import dataclasses
import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import pytest

from tranque.server.config import (
    RESOLVED_VARIABLE,
    ConfigError,
    Kind,
    Problem,
    Refused,
    coerce,
    environment_of,
    from_environment,
    kind_of,
    layout,
    resolve,
    shown,
    to_toml,
    values_of,
)
from tranque.server.settings import Settings


def write(tmp_path: Path, text: str, name: str = "tranque.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def problems(file: Path | None, environ: dict[str, str]) -> list[Problem]:
    with pytest.raises(ConfigError) as refused:
        resolve(file, environ)
    return refused.value.problems


def test_the_file_sets_top_level_keys_and_sections(tmp_path: Path) -> None:
    file = write(
        tmp_path,
        """
        hints_per_game = 5
        fairplay_sample_rate = 1  # a whole number where a number is expected
        redis_url = "redis://cache:6379/0"
        [limits]
        body_bytes = 1000
        [socket_limits]
        ping_seconds = ""  # off
        [cluster]
        prefix = "sitio"
        """,
    )
    settings = resolve(file, {})
    assert settings.hints_per_game == 5 and settings.fairplay_sample_rate == 1.0
    assert isinstance(settings.fairplay_sample_rate, float)
    assert settings.redis_url == "redis://cache:6379/0"
    assert settings.limits.body_bytes == 1000
    assert settings.limits.header_bytes == 16 * 1024  # the others: defaults
    assert settings.socket_limits.ping_seconds is None and settings.socket_limits.burst == 20
    assert settings.cluster.prefix == "sitio"
    assert resolve(None, {"TRANQUE_CONFIG": str(file)}).hints_per_game == 5  # the file by its variable


def test_the_environment_wins_over_the_file_and_options_over_both(tmp_path: Path) -> None:
    file = write(tmp_path, "hints_per_game = 5\nanalysis_workers = 4\n[limits]\nbody_bytes = 1000\n")
    environ = {
        "TRANQUE_HINTS_PER_GAME": "7",
        "TRANQUE_ANALYSIS_WORKERS": "2",
        "TRANQUE_LIMITS__BODY_BYTES": "2000",
        "TRANQUE_SOCKET_LIMITS__PING_SECONDS": "none",
        "TRANQUE_SECURE_COOKIES": "1",
        "TRANQUE_RECORDER": "false",
        "TRANQUE_REDIS_URL": "",  # empty: unset
    }
    settings = resolve(file, environ, {"analysis_workers": ("--analysis-workers", 0)})
    assert (settings.hints_per_game, settings.analysis_workers, settings.limits.body_bytes) == (7, 0, 2000)
    assert settings.socket_limits.ping_seconds is None
    assert settings.secure_cookies is True and settings.recorder is False
    assert settings.redis_url is None


def test_the_documented_variables_keep_working() -> None:
    settings = resolve(
        None,
        {
            "TRANQUE_DATABASE_URL": "postgresql://tranque@db/tranque",
            "TRANQUE_REDIS_URL": "redis://cache:6379/0",
            "TRANQUE_BOT_LEVEL": "greedy",  # named otherwise than its key: an alias
            "TRANQUE_SECURE_COOKIES": "1",
            "TRANQUE_ANALYSIS_WORKERS": "3",
            # not settings: the command's language, the tests' own
            "TRANQUE_LANG": "en",
            "TRANQUE_TEST_DB": "postgres",
            "TRANQUE_REQUIRE_SERVICES": "1",
        },
    )
    assert settings.database_url == "postgresql://tranque@db/tranque"
    assert settings.redis_url == "redis://cache:6379/0"
    assert settings.default_bot_level == "greedy"
    assert settings.secure_cookies is True and settings.analysis_workers == 3


def test_every_bad_key_is_one_problem_named_as_written(tmp_path: Path) -> None:
    file = write(
        tmp_path,
        """
        clock = "real"
        redis_ulr = "redis://cache"
        [limits]
        practice_per_hour = 3
        checks_at_once = -1
        body_bytes = "muchos"
        [socket_limits]
        heartbeat_seconds = 30.0
        per_second = 0
        """,
    )
    environ = {
        "TRANQUE_SOCKET_LIMITS__BURST": "x",
        "TRANQUE_HINTS_PER_GAME": "2.5",
        "TRANQUE_REDIS_ULR": "redis://cache",
        "TRANQUE_CLUSTER_LINKS": "x",
        "TRANQUE_BOT_LEVEL": "tramposo",
        "TRANQUE_FAIRPLAY_SAMPLE_RATE": "2",
    }
    found = {problem.where: (problem.code, problem.values) for problem in problems(file, environ)}
    assert found == {
        "tranque.toml: clock": ("config_fixed", {}),
        "tranque.toml: redis_ulr": ("config_unknown_suggest", {"suggestion": "redis_url"}),
        "tranque.toml: limits.practice_per_hour": ("config_unknown", {}),
        "tranque.toml: limits.checks_at_once": ("config_at_least", {"value": "-1", "least": "0"}),
        "tranque.toml: limits.body_bytes": (
            "config_type",
            {"value": '"muchos"', "expected": "config_kind_int"},
        ),
        "tranque.toml: socket_limits.heartbeat_seconds": (
            "config_between",
            {"value": "30.0", "least": "0", "most": "10"},
        ),
        "tranque.toml: socket_limits.per_second": ("config_above", {"value": "0", "least": "0"}),
        "TRANQUE_SOCKET_LIMITS__BURST": ("config_type", {"value": '"x"', "expected": "config_kind_int"}),
        "TRANQUE_HINTS_PER_GAME": ("config_type", {"value": '"2.5"', "expected": "config_kind_int"}),
        "TRANQUE_REDIS_ULR": ("config_unknown_suggest", {"suggestion": "TRANQUE_REDIS_URL"}),
        "TRANQUE_CLUSTER_LINKS": ("config_fixed", {}),
        "TRANQUE_BOT_LEVEL": (
            "config_choice",
            {"value": '"tramposo"', "choices": "random, greedy, heuristic, expert"},
        ),
        "TRANQUE_FAIRPLAY_SAMPLE_RATE": ("config_between", {"value": '"2"', "least": "0", "most": "1"}),
    }


def test_a_file_that_is_not_toml_or_not_there_is_named(tmp_path: Path) -> None:
    broken = write(tmp_path, "hints_per_game = \n")
    [problem] = problems(broken, {})
    assert problem.where == str(broken) and problem.code == "config_syntax"
    assert "line 1" in problem.values["reason"]
    [missing] = problems(tmp_path / "nothing.toml", {})
    assert missing.code == "config_unreadable" and missing.where == str(tmp_path / "nothing.toml")
    [not_a_table] = problems(write(tmp_path, "limits = 3\n"), {})
    assert (not_a_table.where, not_a_table.code) == ("tranque.toml: limits", "config_not_table")


def test_a_password_is_never_shown(tmp_path: Path) -> None:
    file = write(tmp_path, 'redis_url = ["redis://app:hunter2@cache:6379/0"]\n')
    [problem] = problems(file, {})
    assert problem.code == "config_type" and "hunter2" not in str(problem)
    assert "redis://app:***@cache:6379/0" in problem.values["value"]
    [unknown] = problems(None, {"TRANQUE_DATABASE_ULR": "postgresql://u:hunter2@db/x"})
    assert "hunter2" not in str(unknown)
    printed = to_toml(Settings(database_url="postgresql://tranque:hunter2@db/tranque"))
    assert 'database_url = "postgresql://tranque:***@db/tranque"' in printed and "hunter2" not in printed


def test_the_printed_configuration_is_a_file_that_gives_the_same_settings(tmp_path: Path) -> None:
    settings = resolve(write(tmp_path, "hints_per_game = 3\n[cluster]\nprefix = 'x'\n"), {})
    printed = to_toml(settings)
    assert tomllib.loads(printed)["cluster"]["prefix"] == "x"
    again = resolve(write(tmp_path, printed, "printed.toml"), {})
    assert values_of(again) == values_of(settings)


def test_a_worker_gets_the_resolved_settings_whatever_its_own_environment(tmp_path: Path) -> None:
    settings = resolve(
        write(tmp_path, "hints_per_game = 3\n[limits]\nbody_bytes = 999\n[socket_limits]\nping_seconds = ''"),
        {"TRANQUE_REDIS_URL": "redis://cache:6379/0"},
    )
    handed = environment_of(settings)
    assert list(handed) == [RESOLVED_VARIABLE]
    # the worker ignores other variables once it has the resolved settings
    worker = from_environment({**handed, "TRANQUE_HINTS_PER_GAME": "9"})
    assert values_of(worker) == values_of(settings)
    assert worker.limits.body_bytes == 999 and worker.socket_limits.ping_seconds is None
    assert from_environment({"TRANQUE_HINTS_PER_GAME": "9"}).hints_per_game == 9  # else: its own environment
    with pytest.raises(ConfigError):
        from_environment({RESOLVED_VARIABLE: json.dumps({"hints_per_game": "many"})})


def test_every_plain_field_is_a_key_and_nothing_else() -> None:
    the = layout()
    fields = {f.name: f for f in dataclasses.fields(Settings)}
    assert set(the.sections) == {"limits", "socket_limits", "social_limits", "fairplay_thresholds", "cluster"}
    assert the.fixed == {"clock", "fairplay_on_signal", "cluster_links", "reparto_clock"}
    top = {toml for toml in the.keys if "." not in toml}
    assert top == set(fields) - the.fixed - set(the.sections)
    for section, owner in the.sections.items():
        assert {toml for toml in the.keys if toml.startswith(section + ".")} == {
            f"{section}.{f.name}" for f in dataclasses.fields(owner)
        }


@dataclass
class Tomorrow:
    """A section of fields of types `Settings` does not use yet: picked up all the same."""

    log_format: Literal["text", "json"] = "text"
    origins: tuple[str, ...] = ()
    ports: list[int] = field(default_factory=list)
    budget: float | None = None


def test_new_kinds_of_fields_are_keys_without_changes() -> None:
    the = layout(Tomorrow)
    keys = the.keys
    assert keys["log_format"].kind == Kind(str, choices=("text", "json"))
    assert coerce(keys["log_format"], "json", from_text=True) == "json"
    with pytest.raises(Refused) as refused:
        coerce(keys["log_format"], "xml", from_text=False)
    assert refused.value.values == {"choices": "text, json"}
    assert coerce(keys["origins"], "a.example, b.example", from_text=True) == ("a.example", "b.example")
    assert coerce(keys["origins"], ["a.example"], from_text=False) == ("a.example",)
    assert coerce(keys["ports"], "80,443", from_text=True) == [80, 443]
    with pytest.raises(Refused):
        coerce(keys["ports"], [80, -1], from_text=False)
    assert coerce(keys["budget"], "none", from_text=True) is None
    assert coerce(keys["budget"], 2, from_text=False) == 2.0
    assert kind_of(dict[str, int]) is None and kind_of(int | str) is None


@dataclass
class Documented:
    written: int = 1  # its meaning, at the end of its line
    # a comment above the field, when none ends its line,
    # as one line
    above: int = 2
    given: int = field(default=3, metadata={"doc": "its meaning, given"})  # not this
    unsaid: int = 4
    bounded: float = field(default=0.5, metadata={"doc": "a share", "bounds": (None, 1.0, True)})
    hidden: str = field(default="", metadata={"doc": "a key", "secret": True})


def test_a_keys_meaning_is_its_doc_else_its_comment() -> None:
    meanings = {key.name: key.doc for key in layout(Documented).keys.values()}
    assert meanings == {
        "written": "its meaning, at the end of its line",
        "above": "a comment above the field, when none ends its line, as one line",
        "given": "its meaning, given",
        "unsaid": "",
        "bounded": "a share",
        "hidden": "a key",
    }


def test_a_field_may_carry_its_own_bounds_and_secrecy() -> None:
    keys = layout(Documented).keys
    assert coerce(keys["bounded"], -3.0, from_text=False) == -3.0  # its bounds replace "not negative"
    with pytest.raises(Refused) as refused:
        coerce(keys["bounded"], "1.5", from_text=True)
    assert (refused.value.code, refused.value.values) == ("config_at_most", {"most": "1"})
    assert shown(keys["hidden"], "abc") == '"***"' and shown(keys["given"], "abc") == '"abc"'


def test_a_list_of_tables_comes_from_toml_tables_or_json_and_prints_back(tmp_path: Path) -> None:
    file = write(
        tmp_path,
        '[[tournament_schedule]]\nformat = "minitorneo"\nsize = 8\ntime = "20:00"\ndays = ["sat"]\n'
        '[[tournament_schedule]]\nformat = "suizo"\nrounds = 5\n',
    )
    settings = resolve(file, {})
    wanted = [
        {"format": "minitorneo", "size": 8, "time": "20:00", "days": ["sat"]},
        {"format": "suizo", "rounds": 5},
    ]
    assert settings.tournament_schedule == wanted
    again = resolve(write(tmp_path, to_toml(settings), "printed.toml"), {})
    assert again.tournament_schedule == wanted
    assert from_environment(environment_of(settings)).tournament_schedule == wanted
    from_variable = resolve(file, {"TRANQUE_TOURNAMENT_SCHEDULE": json.dumps(wanted[1:])})
    assert from_variable.tournament_schedule == wanted[1:]  # the environment wins, whole
    assert Settings().tournament_schedule == []
    bad = problems(None, {"TRANQUE_TOURNAMENT_SCHEDULE": "[1]"})
    assert [(p.where, p.code, p.values["expected"]) for p in bad] == [
        ("TRANQUE_TOURNAMENT_SCHEDULE", "config_type", "config_kind_table")
    ]
    [not_json] = problems(None, {"TRANQUE_TOURNAMENT_SCHEDULE": "suizo"})
    assert not_json.values["expected"] == "config_kind_list"
    [not_a_list] = problems(write(tmp_path, 'tournament_schedule = "suizo"\n', "bad.toml"), {})
    assert (not_a_list.code, not_a_list.values["expected"]) == ("config_type", "config_kind_list")
