"""Bad input is refused with a Spanish reason and changes nothing: illegal actions (R6, R8,
R9, V1), finished rounds and games, malformed tiles and action JSON, impossible rules (§4)."""

# Test names carry the rule IDs of docs/rules.md (R13, V6, C1), which are upper case.

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from tests.engine.deals import finish_round, play_randomly
from tranque import Draw, Game, IllegalAction, Pass, Play, Round, Rules, RulesError, Side, Tile
from tranque.engine import TileError, action_from_json

# clasico, 4 players in pairs, first round: seat 0 holds 6-6 and must lead with it (R6).
# Then 6-3 left by seat 1 (ends 3|6), 3-1 left by seat 2 (ends 1|6): seat 3 holds 6-1,
# which fits both ends, and 4-1, which fits only the left one.
FOUR_HANDS = [
    ["6-6", "6-5", "6-4", "5-5", "4-4", "3-3", "2-2"],
    ["6-3", "1-0", "2-0", "3-0", "4-0", "5-0", "6-0"],
    ["1-1", "2-1", "3-1", "4-2", "5-1", "6-2", "0-0"],
    ["3-2", "4-1", "5-2", "6-1", "4-3", "5-3", "5-4"],
]
# Two players: seat 0 holds every six; neither seat 1 nor the boneyard has one.
TWO_HANDS = [
    ["6-6", "6-5", "6-4", "6-3", "6-2", "6-1", "6-0"],
    ["0-0", "1-0", "1-1", "2-0", "2-1", "2-2", "3-0"],
]
TWO_REST = ["3-1", "3-2", "3-3", "4-0", "4-1", "4-2", "4-3", "4-4", "5-0", "5-1", "5-2", "5-3", "5-4", "5-5"]


def everything_seen(rnd: Round) -> dict[str, Any]:
    """Every view, the referee's hands and boneyard, and the full history."""
    return {
        "views": [rnd.view(seat).to_json() for seat in [None, *range(rnd.rules.players)]],
        "hands": [[str(t) for t in hand] for hand in rnd.hands],
        "boneyard": [str(t) for t in rnd.boneyard],
        "events": [e.to_json() for e in rnd.full_events],
        "legal": [a.to_json() for a in rnd.legal_actions()],
    }


def refuse(rnd: Round, action: object, message: str) -> None:
    """`action` raises IllegalAction whose text contains `message`, and nothing changes."""
    before = everything_seen(rnd)
    with pytest.raises(IllegalAction, match=re.escape(message)):
        rnd.apply(action)  # type: ignore[arg-type]
    assert everything_seen(rnd) == before


def four_player_round() -> Round:
    return Round.deal(Rules.preset("clasico", players=4, mode="pairs"), FOUR_HANDS, [], first=True)


def two_player_round(name: str = "clasico") -> Round:
    rules = Rules.preset(name, players=2, mode="individual")
    return Round.deal(rules, TWO_HANDS, TWO_REST, starter=0)


class TestIllegalActions:
    def test_R6_first_lead_must_be_the_highest_double(self) -> None:
        rnd = four_player_round()
        assert rnd.turn == 0
        refuse(rnd, Play(Tile(5, 5)), "Debes salir con el 6-6")
        refuse(rnd, Play(Tile(6, 5), Side.LEFT), "Debes salir con el 6-6")

    def test_R8_a_tile_another_seat_holds_is_refused(self) -> None:
        rnd = four_player_round()
        refuse(rnd, Play(Tile(0, 0)), "No tienes la ficha 0-0")
        rnd.apply(Play(Tile(6, 6)))
        refuse(rnd, Play(Tile(6, 5), Side.LEFT), "No tienes la ficha 6-5")
        refuse(rnd, Play(Tile(9, 9), Side.LEFT), "No tienes la ficha 9-9")

    def test_R8_a_tile_that_fits_no_end_is_refused(self) -> None:
        rnd = four_player_round()
        rnd.apply(Play(Tile(6, 6)))
        refuse(
            rnd, Play(Tile(1, 0), Side.LEFT), "La ficha 1-0 no pega en ninguna punta (las puntas son 6 y 6)"
        )
        refuse(rnd, Play(Tile(1, 0)), "no pega en ninguna punta")

    def test_R8_a_tile_fitting_both_different_ends_needs_a_side(self) -> None:
        rnd = four_player_round()
        rnd.apply(Play(Tile(6, 6)))
        rnd.apply(Play(Tile(6, 3), Side.LEFT))
        rnd.apply(Play(Tile(3, 1), Side.LEFT))
        assert rnd.ends == (1, 6) and rnd.turn == 3
        refuse(rnd, Play(Tile(6, 1)), "La ficha 6-1 pega en las dos puntas: elige izquierda o derecha")
        refuse(rnd, Play(Tile(4, 1), Side.RIGHT), "La ficha 4-1 no pega en la punta derecha (6)")
        refuse(
            rnd, Play(Tile(4, 3), Side.LEFT), "La ficha 4-3 no pega en ninguna punta (las puntas son 1 y 6)"
        )

    def test_R9_no_draw_or_pass_while_holding_a_playable_tile(self) -> None:
        rnd = four_player_round()
        refuse(rnd, Draw(), "No puedes robar: tienes una ficha que pega")
        refuse(rnd, Pass(), "No puedes pasar: tienes una ficha que pega")
        rnd.apply(Play(Tile(6, 6)))
        refuse(rnd, Pass(), "No puedes pasar: tienes una ficha que pega")
        two = two_player_round()
        refuse(two, Draw(), "No puedes robar: tienes una ficha que pega")

    def test_R9_no_pass_while_the_boneyard_has_tiles_and_no_draw_once_empty(self) -> None:
        rnd = two_player_round()
        rnd.apply(Play(Tile(6, 6)))
        assert list(rnd.legal_actions()) == [Draw()]
        refuse(rnd, Pass(), "No puedes pasar: todavía puedes robar del pozo")
        refuse(rnd, Play(Tile(0, 0), Side.LEFT), "La ficha 0-0 no pega en ninguna punta")
        for _ in TWO_REST:
            rnd.apply(Draw())
        assert rnd.boneyard_count == 0 and not rnd.is_over and rnd.turn == 1
        assert list(rnd.legal_actions()) == [Pass()]
        refuse(rnd, Draw(), "El pozo está vacío: te toca pasar")

    def test_V1_sin_pozo_never_draws(self) -> None:
        rules = Rules.preset("sin-pozo", players=2, mode="individual")
        rnd = Round.deal(rules, TWO_HANDS, TWO_REST, first=True)
        assert rnd.boneyard_count == 0
        refuse(rnd, Draw(), "En esta modalidad no se roba")
        rnd.apply(Play(Tile(6, 6)))
        assert list(rnd.legal_actions()) == [Pass()]
        refuse(rnd, Draw(), "no se roba")
        refuse(rnd, Play(Tile(2, 2), Side.LEFT), "no pega en ninguna punta")

    def test_something_that_is_not_an_action_is_refused(self) -> None:
        rnd = four_player_round()
        refuse(rnd, "6-6", "Jugada desconocida")
        refuse(rnd, Play("6-6"), "Jugada desconocida")  # type: ignore[arg-type]
        refuse(rnd, None, "Jugada desconocida")

    def test_R10_a_finished_round_accepts_nothing(self) -> None:
        game = Game(Rules.preset("clasico", players=2, mode="individual"), seed=7)
        with pytest.raises(IllegalAction, match="La mano no ha terminado"):
            game.start_next_round()
        with pytest.raises(IllegalAction, match="La mano no ha terminado"):
            game.next_starter()
        rnd = finish_round(game, random.Random(7)).round
        for action in (Pass(), Draw(), Play(Tile(6, 6)), Play(Tile(0, 0), Side.LEFT)):
            refuse(rnd, action, "La mano ya terminó")
        with pytest.raises(IllegalAction, match="La mano ya terminó"):
            rnd.timeout_action()
        before = (list(game.scores), list(game.actions), everything_seen(rnd))
        with pytest.raises(IllegalAction, match="La mano ya terminó: empieza la siguiente"):
            game.apply(Pass())
        assert (list(game.scores), list(game.actions), everything_seen(rnd)) == before
        game.start_next_round()
        assert game.round_number == 1

    def test_R14_a_finished_game_accepts_nothing(self) -> None:
        game = play_randomly(Game(Rules.preset("en-contra", players=2), seed=3), random.Random(3))
        before = (list(game.scores), list(game.winners), len(game.actions), game.round_number)
        views = [game.view(seat).to_json() for seat in [None, 0, 1]]
        for action in (Pass(), Draw(), Play(Tile(6, 6))):
            with pytest.raises(IllegalAction, match="La partida ya terminó"):
                game.apply(action)
        with pytest.raises(IllegalAction, match="La partida ya terminó"):
            game.start_next_round()
        assert (list(game.scores), list(game.winners), len(game.actions), game.round_number) == before
        assert [game.view(seat).to_json() for seat in [None, 0, 1]] == views


class TestMalformedTiles:
    @pytest.mark.parametrize(
        "text", ["7-x", "", "6", "6-4-2", "a-b", "-", "6 4", "-1-2", "6-", "５-４", "٦-٤"]
    )
    def test_R1_text_that_is_not_a_tile(self, text: str) -> None:
        with pytest.raises(TileError, match=re.escape(f"«{text}» no es una ficha")) as caught:
            Tile.parse(text)
        assert caught.value.code == "tile_text"
        assert caught.value.text("en") == f"“{text}” is not a tile: write two numbers with a dash, like 6-4."

    @pytest.mark.parametrize("text", ["10-1", "6-12", "99-99"])
    def test_R1_numbers_beyond_nine(self, text: str) -> None:
        with pytest.raises(TileError, match="no existe: cada mitad va de 0 a 9") as caught:
            Tile.parse(text)
        assert caught.value.code == "tile_range"

    @pytest.mark.parametrize(("a", "b"), [(-1, 0), (10, 0), (3, 10)])
    def test_R1_halves_out_of_range(self, a: int, b: int) -> None:
        with pytest.raises(TileError, match="no existe") as caught:
            Tile(a, b)
        assert caught.value.text("en") == f"There is no {a}-{b} tile: each half goes from 0 to 9."

    @pytest.mark.parametrize(("a", "b"), [(True, 1), ("6", 4), (6.0, 4), (None, 0)])
    def test_R1_halves_that_are_not_whole_numbers(self, a: Any, b: Any) -> None:
        with pytest.raises(TileError, match="Una ficha se forma con dos números enteros") as caught:
            Tile(a, b)
        assert caught.value.code == "tile_numbers"

    def test_R1_parse_accepts_either_order_and_spaces(self) -> None:
        assert Tile.parse(" 4 - 6 ") == Tile(6, 4) == Tile.parse("6-4")
        assert str(Tile.parse("0-9")) == "9-0"


class TestMalformedActionJson:
    @pytest.mark.parametrize(
        ("data", "code", "message"),
        [
            (None, "malformed_json", "La jugada debe ser un objeto JSON"),
            ([], "malformed_json", "La jugada debe ser un objeto JSON"),
            ("play", "malformed_json", "La jugada debe ser un objeto JSON"),
            ({}, "unknown_action_type", "Tipo de jugada desconocido"),
            ({"type": "jump"}, "unknown_action_type", "Tipo de jugada desconocido: 'jump'"),
            ({"type": "PLAY", "tile": "6-4"}, "unknown_action_type", "Tipo de jugada desconocido"),
            ({"type": "play"}, "tile_text", "no es una ficha"),
            ({"type": "play", "tile": 64}, "tile_text", "no es una ficha"),
            ({"type": "play", "tile": "7-x"}, "tile_text", "«7-x» no es una ficha"),
            ({"type": "play", "tile": "５-４"}, "tile_text", "«５-４» no es una ficha"),
            ({"type": "play", "tile": "10-1"}, "tile_range", "no existe"),
            ({"type": "play", "tile": "6-4", "side": "up"}, "unknown_side", "Lado desconocido: 'up'"),
            ({"type": "play", "tile": "6-4", "side": 1}, "unknown_side", "Lado desconocido"),
        ],
    )
    def test_malformed_action_json_is_an_illegal_action(self, data: Any, code: str, message: str) -> None:
        with pytest.raises(IllegalAction, match=re.escape(message)) as caught:
            action_from_json(data)
        assert caught.value.code == code

    @pytest.mark.parametrize(
        "action",
        [Draw(), Pass(), Play(Tile(6, 4)), Play(Tile(6, 4), Side.LEFT), Play(Tile(0, 0), Side.RIGHT)],
    )
    def test_well_formed_action_json_round_trips(self, action: Play | Draw | Pass) -> None:
        assert action_from_json(json.loads(json.dumps(action.to_json()))) == action


class TestImpossibleRules:
    @pytest.mark.parametrize(
        ("name", "overrides", "parameter", "message"),
        [
            ("domino-loco", {}, "preset", "no existe"),
            ("clasico", {"colour": "rojo"}, "colour", "parámetro desconocido"),
            ("clasico", {"mode": "trios"}, "mode", "no es válido"),
            ("clasico", {"scoring": "doble"}, "scoring", "no es válido"),
            ("clasico", {"drawing": "a veces"}, "drawing", "no es válido"),
            ("clasico", {"tranque_tie": "moneda"}, "tranque_tie", "no es válido"),
            ("clasico", {"players": "4"}, "players", "no con '4'"),
            ("clasico", {"players": 7}, "players", "no con 7"),
            ("clasico", {"players": 1}, "players", "no con 1"),
            ("clasico", {"target": True}, "target", "debe ser un número entero"),
            ("clasico", {"target": "100"}, "target", "debe ser un número entero"),
            ("clasico", {"target": 0}, "target", "positiva"),
            ("clasico", {"target": -50}, "target", "positiva"),
            ("clasico", {"turn_seconds": 25}, "turn_seconds", "20, 30 o 45"),
            ("clasico", {"hand_size": 0}, "hand_size", "al menos una ficha"),
            ("clasico", {"goals_to_win": 0}, "goals_to_win", "positivos"),
            ("clasico", {"capicua_bonus": -1}, "capicua_bonus", "negativo"),
            ("clasico", {"absent_turns_before_bot": 0}, "absent_turns_before_bot", "al menos 1"),
            ("clasico", {"pass_points": True}, "pass_points", "Ponce"),
            ("clasico", {"tranque_tie": "draw"}, "tranque_tie", "en contra"),
            ("clasico", {"next_round_start": "previous-winner"}, "next_round_start", "individual"),
            ("clasico", {"scoring": "futbol"}, "scoring", "2 jugadores"),
            ("clasico", {"players": 2, "mode": "individual", "scoring": "ponce"}, "scoring", "parejas"),
            ("ponce", {"capicua_bonus": 10}, "capicua_bonus", "ponce"),
            ("futbol", {"capicua_bonus": 10}, "capicua_bonus", "futbol"),
            ("en-contra", {"capicua_bonus": 10}, "capicua_bonus", "penalty"),
            ("futbol", {"players": 4}, "players", "no con 4"),
            ("sin-pozo", {"players": 3}, "players", "no con 3"),
            ("latino", {"mode": "individual"}, "mode", "por parejas"),
            ("en-contra", {"mode": "pairs"}, "mode", "individual"),
            ("en-contra", {"set_max": 9}, "set_max", "doble 6"),
        ],
    )
    def test_C8_rules_error_names_the_parameter(
        self, name: str, overrides: dict[str, Any], parameter: str, message: str
    ) -> None:
        with pytest.raises(RulesError, match=re.escape(message)) as caught:
            Rules.preset(name, **overrides)
        assert caught.value.parameter == parameter
        assert str(caught.value).startswith(f"{parameter}: ")

    @pytest.mark.parametrize(
        ("overrides", "culprits"),
        [
            ({"players": 5, "mode": "pairs"}, {"players", "mode"}),
            ({"players": 2, "mode": "pairs"}, {"players", "mode"}),
            ({"players": 3, "mode": "pairs"}, {"players", "mode"}),
            ({"players": 6, "set_max": 6}, {"players", "set_max", "hand_size"}),
        ],
    )
    def test_R3_R2_inconsistent_combinations_name_one_of_their_parameters(
        self, overrides: dict[str, Any], culprits: set[str]
    ) -> None:
        with pytest.raises(RulesError) as caught:
            Rules.preset("clasico", **overrides)
        assert caught.value.parameter in culprits

    def test_rules_from_json_refuses_an_unknown_parameter(self) -> None:
        data = Rules.preset("clasico").to_json()
        with pytest.raises(RulesError) as caught:
            Rules.from_json({**data, "jokers": 2})
        assert caught.value.parameter == "jokers"
        with pytest.raises(RulesError) as caught:
            Rules.from_json({**data, "players": "cuatro"})
        assert caught.value.parameter == "players"
