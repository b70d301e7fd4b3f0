"""Game records: save/load round trips, seeds re-deal their rounds, and a record that was
tampered with (or is not a record at all) raises `RecordError` with a clear reason."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.engine.deals import assert_same_game, finish_round, play_randomly
from tranque import Game, Rules
from tranque.engine.deal import deal_from_seed
from tranque.engine.record import RecordError, load, replay, save, to_record
from tranque.engine.tiles import TILES, indices

Record = dict[str, Any]


def played(name: str, seed: int, actions: int | None = None, **overrides: Any) -> Game:
    """A seeded game played with random legal actions: to the end, or for `actions` steps."""
    return play_randomly(Game(Rules.preset(name, **overrides), seed=seed), random.Random(seed), actions)


class TestRoundTrip:
    @pytest.mark.parametrize(
        ("name", "overrides"),
        [
            ("clasico", {"players": 4, "mode": "pairs"}),
            ("clasico", {"players": 2, "mode": "individual"}),
            ("internacional", {}),
            ("ponce", {}),
            ("futbol", {}),
            ("en-contra", {"players": 3}),
        ],
    )
    def test_save_then_load_gives_the_same_finished_game(
        self, tmp_path: Path, name: str, overrides: dict[str, Any]
    ) -> None:
        game = played(name, seed=11, **overrides)
        assert game.is_over
        path = tmp_path / "partida.json"
        save(game, path)
        assert json.loads(path.read_text(encoding="utf-8")) == to_record(game)
        assert_same_game(game, load(path))

    def test_save_then_load_mid_round_and_between_rounds(self, tmp_path: Path) -> None:
        for steps in (0, 1, 17, 40):
            game = played("clasico", seed=5, actions=steps, players=3)
            save(game, tmp_path / f"partida-{steps}.json")
            again = load(tmp_path / f"partida-{steps}.json")
            assert_same_game(game, again)
            assert again.view(again.round.turn).to_json() == game.view(game.round.turn).to_json()

    def test_a_loaded_game_plays_on_like_the_original(self, tmp_path: Path) -> None:
        game = played("salon", seed=2, actions=25, players=4, mode="pairs")
        save(game, tmp_path / "partida.json")
        again = load(tmp_path / "partida.json")
        for one in (game, again):
            finish_round(one, random.Random(9))
        assert_same_game(game, again)

    def test_each_round_seed_re_deals_that_round(self) -> None:
        game = played("clasico", seed=21, players=4, mode="individual")
        record = to_record(game)
        assert len(record["rounds"]) == len(game.rounds) >= 2
        for round_data in record["rounds"]:
            hands, boneyard = deal_from_seed(game.rules, bytes.fromhex(round_data["seed"]))
            assert [[str(TILES[i]) for i in indices(h)] for h in hands] == round_data["hands"]
            assert [str(TILES[i]) for i in boneyard] == round_data["boneyard"]


def tamper(path: Path, change: Callable[[Record], None]) -> Path:
    record = json.loads(path.read_text(encoding="utf-8"))
    change(record)
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    """A finished clasico 4-player pairs game of several rounds, saved to a file."""
    game = played("clasico", seed=4, players=4, mode="pairs")
    assert game.is_over and len(game.rounds) >= 2
    path = tmp_path / "partida.json"
    save(game, path)
    return path


def first_actions(record: Record) -> list[dict[str, Any]]:
    actions: list[dict[str, Any]] = record["rounds"][0]["actions"]
    return actions


class TestTampered:
    def test_a_play_of_a_tile_on_the_table_is_refused(self, saved: Path) -> None:
        def replay_lead(record: Record) -> None:
            # The second action of round 1 plays the lead tile again: that seat cannot hold it.
            first_actions(record)[1]["tile"] = first_actions(record)[0]["tile"]
            first_actions(record)[1]["side"] = "left"

        lead = first_actions(json.loads(saved.read_text(encoding="utf-8")))[0]["tile"]
        assert lead == "6-6"  # R6: the first round opens with the double six
        with pytest.raises(RecordError, match=re.escape("No tienes la ficha 6-6")):
            load(tamper(saved, replay_lead))

    def test_a_different_first_lead_is_refused(self, saved: Path) -> None:
        def lead_another_tile(record: Record) -> None:
            seat = first_actions(record)[0]["seat"]
            other = next(t for t in record["rounds"][0]["hands"][seat] if t != "6-6")
            first_actions(record)[0]["tile"] = other

        with pytest.raises(RecordError, match=re.escape("Debes salir con el 6-6")):
            load(tamper(saved, lead_another_tile))

    def test_a_play_turned_into_a_pass_is_refused(self, saved: Path) -> None:
        def pass_instead(record: Record) -> None:
            first_actions(record)[0] = {"seat": first_actions(record)[0]["seat"], "type": "pass"}

        with pytest.raises(RecordError, match="No puedes pasar"):
            load(tamper(saved, pass_instead))

    def test_an_action_by_the_wrong_seat_is_refused(self, saved: Path) -> None:
        def wrong_seat(record: Record) -> None:
            action = first_actions(record)[1]
            action["seat"] = (action["seat"] + 1) % 4

        with pytest.raises(RecordError, match="no es del turno"):
            load(tamper(saved, wrong_seat))

    def test_a_malformed_action_is_refused(self, saved: Path) -> None:
        def garble(record: Record) -> None:
            first_actions(record)[1]["tile"] = "7-x"

        with pytest.raises(RecordError, match=re.escape("«7-x» no es una ficha")):
            load(tamper(saved, garble))

    def test_an_action_after_the_game_ended_is_refused(self, saved: Path) -> None:
        def one_more(record: Record) -> None:
            last_round = record["rounds"][-1]
            last_round["actions"].append({**last_round["actions"][-1]})

        with pytest.raises(RecordError, match="La partida ya terminó"):
            load(tamper(saved, one_more))

    def test_a_missing_action_is_refused(self, saved: Path) -> None:
        def drop_last(record: Record) -> None:
            record["rounds"][-1]["actions"].pop()

        with pytest.raises(RecordError, match="el registro dice"):
            load(tamper(saved, drop_last))

    @pytest.mark.parametrize("team", [0, 1])
    def test_a_changed_score_is_refused(self, saved: Path, team: int) -> None:
        def add_points(record: Record) -> None:
            record["scores"][team] += 10

        with pytest.raises(RecordError, match="el registro dice"):
            load(tamper(saved, add_points))

    def test_changed_winners_are_refused(self, saved: Path) -> None:
        def other_winner(record: Record) -> None:
            record["winners"] = [1 - record["winners"][0]]

        with pytest.raises(RecordError, match="el registro dice"):
            load(tamper(saved, other_winner))

    def test_a_changed_round_result_is_refused(self, saved: Path) -> None:
        def richer_round(record: Record) -> None:
            result = record["rounds"][0]["result"]
            winner = str(result["winner"] if result["winner"] is not None else 0)
            result["points"][winner] += 10

        with pytest.raises(RecordError):
            load(tamper(saved, richer_round))

    def test_a_changed_round_starter_is_refused(self, saved: Path) -> None:
        def other_starter(record: Record) -> None:
            record["rounds"][1]["starter"] = (record["rounds"][1]["starter"] + 1) % 4

        with pytest.raises(RecordError):
            load(tamper(saved, other_starter))

    def test_a_deal_with_a_tile_twice_is_refused(self, saved: Path) -> None:
        def duplicate(record: Record) -> None:
            hands = record["rounds"][0]["hands"]
            hands[1][0] = hands[0][0]

        with pytest.raises(RecordError, match="aparece dos veces"):
            load(tamper(saved, duplicate))

    def test_rules_with_an_unknown_parameter_are_refused(self, saved: Path) -> None:
        def extra_rule(record: Record) -> None:
            record["rules"]["jokers"] = 2

        with pytest.raises(RecordError, match="jokers"):
            load(tamper(saved, extra_rule))

    def test_impossible_rules_are_refused(self, saved: Path) -> None:
        def five_in_pairs(record: Record) -> None:
            record["rules"]["players"] = 5

        # Five in pairs: either parameter is the culprit (docs/rules.md does not rank them).
        with pytest.raises(RecordError, match=r"players|mode"):
            load(tamper(saved, five_in_pairs))

    @pytest.mark.parametrize("key", ["rules", "rounds"])
    def test_a_missing_part_is_refused(self, saved: Path, key: str) -> None:
        def drop(record: Record) -> None:
            del record[key]

        with pytest.raises(RecordError, match=f"registro incompleto: falta '{key}'"):
            load(tamper(saved, drop))

    @pytest.mark.parametrize("value", ["ajedrez", None, 1])
    def test_a_wrong_format_is_refused(self, saved: Path, value: Any) -> None:
        def other_format(record: Record) -> None:
            record["format"] = value

        with pytest.raises(RecordError, match="no es un registro de partida de Tranque"):
            load(tamper(saved, other_format))

    @pytest.mark.parametrize("value", [2, 0, "1", None])
    def test_a_wrong_version_is_refused(self, saved: Path, value: Any) -> None:
        def other_version(record: Record) -> None:
            record["version"] = value

        with pytest.raises(RecordError, match=re.escape(f"versión de registro no soportada: {value!r}")):
            load(tamper(saved, other_version))

    @pytest.mark.parametrize("keep", [0.0, 0.5, 0.99])
    def test_truncated_json_is_refused(self, saved: Path, keep: float) -> None:
        text = saved.read_text(encoding="utf-8")
        saved.write_text(text[: int(len(text) * keep)], encoding="utf-8")
        with pytest.raises(RecordError, match="no es JSON válido"):
            load(saved)

    @pytest.mark.parametrize("data", [[], "tranque", 42, None, {}])
    def test_json_that_is_not_a_record_is_refused(self, data: Any) -> None:
        with pytest.raises(RecordError, match="no es un registro de partida de Tranque"):
            replay(data)
