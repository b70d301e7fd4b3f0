"""The engine's table-option, deal and record errors: a stable code, the Spanish text players
have always read, an English text with no Spanish left in it, and pickling that keeps all of
it (a server passes errors between processes)."""

from __future__ import annotations

import inspect
import pickle
import random
import re
import string
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

from tests.engine.deals import finish_round
from tranque import Game, Round, Rules, RulesError, Tile
from tranque.engine import DealError, messages
from tranque.engine.errors import EngineError
from tranque.engine.messages import MESSAGES, OneOf, Verbatim, localize
from tranque.engine.record import RecordError, load, replay, to_record

E = TypeVar("E", bound=EngineError)

# Words and letters that give Spanish away; none may be left in an English text.
SPANISH = ("ficha", "jugador", "mano", "debe", "no es", "registro", "reparto", "partida", "puntos",
           "parejas", "segundos", "meta", "goles", "ganadores", " o ", " y ", " de ", " la ", " el ",
           "ñ", "á", "é", "í", "ó", "ú", "«", "»")  # fmt: skip

TWO = Rules.preset("clasico", players=2, target=300)  # 300: one round can never end the game
SET = [str(tile) for tile in Tile.full_set(6)]
TWO_HANDS = [SET[0:7], SET[7:14]]
TWO_REST = SET[14:]
FOUR_HANDS = [SET[0:7], SET[7:14], SET[14:21], SET[21:28]]


def raised(kind: type[E], build: Callable[[], object]) -> E:
    with pytest.raises(kind) as caught:
        build()
    return caught.value


def assert_english(error: EngineError) -> None:
    english = error.text("en")
    found = [marker for marker in SPANISH if marker in english.lower()]
    assert not found, f"{error.code}: {english!r} has {found}"
    assert english != error.text("es")


def rules_json(**changes: Any) -> dict[str, Any]:
    return {**Rules.preset("clasico").to_json(), **changes}


def replaced(hands: list[list[str]], old: str, new: str) -> list[list[str]]:
    return [[new if tile == old else tile for tile in hand] for hand in hands]


def played(game: Game) -> Game:
    """`game` with its current round played to the end by seeded random legal actions."""
    return finish_round(game, random.Random(7))


Change = Callable[[dict[str, Any]], None]


def record(*changes: Change) -> dict[str, Any]:
    """A seeded two-player game whose first round is over, as a record, tampered with."""
    data = to_record(played(Game(TWO, seed=11)))
    for change in changes:
        change(data)
    return data


def _set(path: tuple[Any, ...], value: Any) -> Change:
    def change(data: dict[str, Any]) -> None:
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value(target[path[-1]]) if callable(value) else value

    return change


def _drop(key: str) -> Change:
    def change(data: dict[str, Any]) -> None:
        del data[key]

    return change


def _deal_twice(data: dict[str, Any]) -> None:
    hands = data["rounds"][0]["hands"]
    hands[1][0] = hands[0][0]


# How each case raises its error.
Build = Callable[[], object]


def preset(name: str, **options: Any) -> Build:
    return lambda: Rules.preset(name, **options)


def from_json(**changes: Any) -> Build:
    return lambda: Rules.from_json(rules_json(**changes))


def deal_of(
    hands: list[list[str]] = TWO_HANDS, boneyard: list[str] = TWO_REST, rules: Rules = TWO, **how: Any
) -> Build:
    """`Round.deal` of these hands and boneyard, as the first round unless `how` says otherwise."""
    return lambda: Round.deal(rules, hands, boneyard, **(how or {"first": True}))


def replay_of(*changes: Change) -> Build:
    return lambda: replay(record(*changes))


GAME = played(Game(TWO, seed=11))
FIRST = to_record(GAME)["rounds"][0]
FIRST_TILE = FIRST["hands"][0][0]
OTHER_SEAT = 1 - FIRST["starter"]
SCORES = list(GAME.scores)

# (code, how to raise it, the Spanish text), by the kind of error raised
# fmt: off
RULES_CASES: list[tuple[str, Build, str]] = [
    ("unknown_preset", preset("jokers"),
     "preset: «jokers» no existe; hay: clasico, sin-pozo, salon, internacional, latino, "
     "maracucho, ponce, futbol, en-contra"),
    ("unknown_parameter", preset("clasico", jokers=2), "jokers: parámetro desconocido"),
    ("unknown_parameter", from_json(jokers=2), "jokers: parámetro desconocido"),
    ("unknown_option_value", preset("clasico", mode="cuatro"),
     "mode: «cuatro» no es válido; opciones: individual, pairs"),
    ("unknown_option_value", preset("clasico", tranque_tie="pass"),
     "tranque_tie: «pass» no es válido; opciones: nobody, nearest-starter, draw"),
    ("not_whole_number", preset("clasico", target="cien"), "target: debe ser un número entero, no 'cien'"),
    ("not_whole_number", preset("futbol", goals_to_win=2.5),
     "goals_to_win: debe ser un número entero, no 2.5"),
    ("players_for_preset", preset("futbol", players=4),
     "players: «futbol» se juega con 2 jugadores, no con 4"),
    ("players_for_preset", preset("sin-pozo", players=3),
     "players: «sin-pozo» se juega con 2 o 4 jugadores, no con 3"),
    ("players_for_preset", preset("clasico", players="cuatro"),
     "players: «clasico» se juega con 2, 3, 4, 5 o 6 jugadores, no con 'cuatro'"),
    ("players_for_preset", from_json(preset_name="latino", players=6, set_max=9),
     "players: «latino» se juega con 4 jugadores, no con 6"),
    ("mode_for_players", preset("latino", mode="individual"),
     "mode: «latino» con 4 jugadores se juega por parejas"),
    ("mode_for_players", preset("en-contra", mode="pairs"),
     "mode: «en-contra» con 4 jugadores se juega individual"),
    ("set_for_preset", preset("en-contra", set_max=9), "set_max: «en-contra» se juega solo con doble 6"),
    ("players_out_of_range", from_json(preset_name="casa", players=7),
     "players: se juega de 2 a 6 jugadores, no 7"),
    ("players_for_pairs", from_json(preset_name="casa", players=5, set_max=9),
     "players: por parejas se juega con 4 o 6 jugadores, no con 5"),
    ("set_not_six_or_nine", preset("clasico", set_max=8),
     "set_max: el juego es doble seis o doble nueve, no doble 8"),
    ("hand_size_too_small", preset("clasico", hand_size=0),
     "hand_size: cada jugador recibe al menos una ficha"),
    ("hand_size_too_big", preset("clasico", players=6, mode="individual", set_max=6),
     "hand_size: 6 jugadores con 7 fichas necesitan 42, y el doble 6 tiene 28"),
    ("target_not_positive", preset("clasico", target=0), "target: la meta debe ser positiva, no 0"),
    ("goals_not_positive", preset("futbol", goals_to_win=0),
     "goals_to_win: los goles para ganar deben ser positivos"),
    ("hands_not_positive", preset("clasico", hands=0), "hands: el número de manos debe ser positivo, no 0"),
    ("not_whole_number", preset("clasico", hands=2.5), "hands: debe ser un número entero, no 2.5"),
    ("turn_seconds_choice", preset("clasico", turn_seconds=25),
     "turn_seconds: el tiempo por turno es 20, 30 o 45 segundos, no 25"),
    ("at_least_one", preset("clasico", absent_turns_before_bot=0),
     "absent_turns_before_bot: debe ser al menos 1"),
    ("capicua_bonus_negative", preset("clasico", capicua_bonus=-5),
     "capicua_bonus: el premio de capicúa no puede ser negativo"),
    ("capicua_bonus_with_scoring", preset("ponce", capicua_bonus=10),
     "capicua_bonus: no hay premio de capicúa con la puntuación «ponce»"),
    ("individual_only", preset("clasico", scoring="penalty"),
     "scoring: esta opción solo se juega individual"),
    ("individual_only", preset("clasico", next_round_start="previous-winner"),
     "next_round_start: esta opción solo se juega individual"),
    ("futbol_two_players", preset("clasico", scoring="futbol"),
     "scoring: el fútbol se juega entre 2 jugadores"),
    ("ponce_pairs_only", preset("clasico", players=2, scoring="ponce"),
     "scoring: la puntuación de Ponce se juega por parejas"),
    ("pass_points_ponce_only", preset("clasico", pass_points=True),
     "pass_points: los pases solo puntúan con la puntuación de Ponce"),
    ("tranque_draw_penalty_only", preset("clasico", tranque_tie="draw"),
     "tranque_tie: el empate como tablas solo existe con la puntuación en contra"),
]
DEAL_CASES: list[tuple[str, Build, str]] = [
    ("deal_hand_count", deal_of(rules=Rules.preset("clasico")),
     "el reparto tiene 2 manos y la mesa 4 jugadores"),
    ("deal_bad_tile", deal_of(replaced(TWO_HANDS, "2-1", "6-x")),
     "«6-x» no es una ficha: escribe dos números con guion, como 6-4."),
    ("deal_tile_not_in_set", deal_of(replaced(TWO_HANDS, "2-1", "7-7")),
     "la ficha 7-7 no está en el doble 6"),
    ("deal_tile_twice", deal_of(replaced(TWO_HANDS, "2-1", "6-6")),
     "la ficha 6-6 aparece dos veces en el reparto"),
    ("deal_hand_size", deal_of([TWO_HANDS[0], TWO_HANDS[1][1:]], [TWO_HANDS[1][0], *TWO_REST]),
     "la mano 1 tiene 6 fichas y deben ser 7"),
    ("deal_missing_tiles", deal_of(boneyard=TWO_REST[3:]),
     f"faltan fichas en el reparto: {', '.join(TWO_REST[:3])}"),
    ("deal_first_or_starter", deal_of(first=False),
     "indica first=True (primera mano) o starter=k, y solo uno de los dos"),
    ("deal_first_lead_drawn", deal_of(FOUR_HANDS, [], Rules.preset("internacional")),
     "en esta modalidad la primera salida se sortea: indica starter=k"),
    ("deal_bad_starter", deal_of(starter=2), "starter debe ser un asiento de 0 a 1, no 2"),
    ("deal_bad_first_starter", lambda: Game(TWO, first_starter=5),
     "first_starter debe ser un asiento de 0 a 1"),
    ("deal_none_for_round", lambda: played(Game(TWO, deals=[(TWO_HANDS, TWO_REST)])).start_next_round(),
     "no hay reparto para la mano 2"),
]
RECORD_CASES: list[tuple[str, Build, str]] = [
    ("record_not_tranque", lambda: replay({"format": "ajedrez"}), "no es un registro de partida de Tranque"),
    ("record_bad_version", replay_of(_set(("version",), "1")), "versión de registro no soportada: '1'"),
    ("record_action_not_in_turn", replay_of(_set(("rounds", 0, "actions", 0, "seat"), OTHER_SEAT)),
     f"mano 1: la jugada {dict(FIRST['actions'][0], seat=OTHER_SEAT)} no es del turno"),
    ("record_result_differs", replay_of(_set(("rounds", 0, "result"), None)),
     "mano 1: el registro dice un resultado que la partida no da"),
    ("record_starter_differs", replay_of(_set(("rounds", 0, "starter"), OTHER_SEAT)),
     f"mano 1: el registro dice que salió {OTHER_SEAT}"),
    ("record_unfair_deal", replay_of(_set(("rounds", 0, "seed"), "00" * 32)),
     "mano 1: la semilla no da el reparto registrado"),
    ("record_unfair_deal", replay_of(_set(("rounds", 0, "seed"), "zz")),
     "mano 1: la semilla no es un número hexadecimal"),
    ("record_incomplete", replay_of(_drop("rounds")), "registro incompleto: falta 'rounds'"),
    ("record_action_not_an_object", replay_of(_set(("rounds", 0, "actions", 1), "6-6")),
     "mano 1, jugada 2: la jugada no es un objeto JSON"),
    ("record_illegal_action", replay_of(_set(("rounds", 0, "actions", 0, "tile"), "0-0")),
     f"mano 1, jugada 1 (asiento {FIRST['starter']}): No tienes la ficha 0-0."),
    ("record_does_not_replay", replay_of(_deal_twice),
     f"el registro no se puede reproducir: la ficha {FIRST_TILE} aparece dos veces en el reparto"),
    ("record_does_not_replay", replay_of(_set(("rules", "jokers"), 2)),
     "el registro no se puede reproducir: jokers: parámetro desconocido"),
    ("record_bad_time_called", replay_of(_set(("time_called",), 99)),
     "el registro dice que se acabó el tiempo en la mano 100, y no la tiene"),
    ("record_total_differs", replay_of(_set(("scores", 0), lambda points: points + 10)),
     f"el registro dice puntos {[SCORES[0] + 10, SCORES[1]]} y al reproducirlo da {SCORES}"),
    ("record_total_differs", replay_of(_set(("goals",), [1, 0])),
     "el registro dice goles [1, 0] y al reproducirlo da [0, 0]"),
    ("record_total_differs", replay_of(_set(("winners",), [1])),
     "el registro dice ganadores [1] y al reproducirlo da []"),
]
CASES: list[tuple[str, type[EngineError], Build, str]] = [
    (code, kind, build, spanish)
    for kind, cases in [(RulesError, RULES_CASES), (DealError, DEAL_CASES), (RecordError, RECORD_CASES)]
    for code, build, spanish in cases
]
# fmt: on


@pytest.mark.parametrize(
    ("code", "kind", "build", "spanish"),
    CASES,
    ids=[f"{case[0]}-{n}" for n, case in enumerate(CASES)],
)
def test_each_code_has_its_spanish_text_and_an_english_one(
    code: str, kind: type[EngineError], build: Callable[[], object], spanish: str
) -> None:
    error = raised(kind, build)
    assert error.code == code
    assert isinstance(error, EngineError)
    assert isinstance(error, ValueError)
    assert str(error) == error.text("es") == error.text() == spanish
    assert_english(error)


def test_bad_json(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text("{", encoding="utf-8")
    error = raised(RecordError, lambda: load(path))
    assert error.code == "record_bad_json"
    assert str(error).startswith(f"{path} no es JSON válido: ")
    assert error.text("en").startswith(f"{path} is not valid JSON: ")
    assert_english(error)


def _section(title: str) -> set[str]:
    """The codes the catalogue lists under its `# title` comment, up to the next section."""
    source = inspect.getsource(messages)
    start = source.index(f"    # {title}")
    end = source.find("\n    # ", start + 1)
    return set(re.findall(r'^    "([a-z_]+)": \{', source[start : end if end > 0 else None], re.M))


@pytest.mark.parametrize(
    ("title", "kind"),
    [("Table options", RulesError), ("Deals", DealError), ("Game records", RecordError)],
)
def test_every_code_of_these_errors_has_a_case(title: str, kind: type[EngineError]) -> None:
    codes = _section(title)
    assert codes
    assert codes <= set(MESSAGES)
    covered = {code for code, case_kind, _, _ in CASES if case_kind is kind} | {"record_bad_json"}
    assert codes <= covered


def test_every_message_has_both_languages_with_the_same_fields() -> None:
    def fields(template: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}

    for code, texts in MESSAGES.items():
        assert set(texts) == {"es", "en"}, code
        assert all(texts.values()), code
        assert fields(texts["es"]) == fields(texts["en"]), code


class TestRulesError:
    def test_the_parameter_leads_the_text_and_the_detail_has_the_message_alone(self) -> None:
        error = raised(RulesError, preset("sin-pozo", players=3))
        assert isinstance(error, RulesError)
        assert error.parameter == error.params["parameter"] == "players"
        assert error.message == error.detail() == "«sin-pozo» se juega con 2 o 4 jugadores, no con 3"
        assert error.detail("en") == "“sin-pozo” is played by 2 or 4 players, not 3"
        assert error.text("en") == "players: " + error.detail("en")

    def test_words_read_in_the_readers_language(self) -> None:
        pairs = raised(RulesError, preset("latino", mode="individual"))
        assert pairs.text("en") == "mode: “latino” with 4 players is played in pairs"
        alone = raised(RulesError, preset("en-contra", mode="pairs"))
        assert alone.text("en") == "mode: “en-contra” with 4 players is played individually"
        seconds = raised(RulesError, preset("clasico", turn_seconds=25))
        assert seconds.text("en") == "turn_seconds: the time per turn is 20, 30 or 45 seconds, not 25"

    def test_what_a_person_typed_is_never_taken_for_a_word(self) -> None:
        error = raised(RulesError, preset("clasico", mode="left"))
        assert str(error) == "mode: «left» no es válido; opciones: individual, pairs"
        assert error.text("en") == "mode: “left” is not valid; the options are: individual, pairs"

    def test_params_are_plain_data_for_a_program(self) -> None:
        error = raised(RulesError, preset("sin-pozo", players=3))
        assert error.params == {"parameter": "players", "preset": "sin-pozo", "counts": (2, 4), "players": 3}


class TestRecordError:
    def test_the_cause_is_kept_and_read_in_the_same_language(self) -> None:
        error = raised(RecordError, replay_of(_deal_twice))
        cause = error.params["cause"]
        assert isinstance(cause, DealError)
        assert cause.code == "deal_tile_twice"
        assert (
            error.text("en") == f"the record cannot be replayed: the {FIRST_TILE} appears twice in the deal"
        )

    def test_a_rules_cause_keeps_its_parameter(self) -> None:
        error = raised(RecordError, replay_of(_set(("rules", "jokers"), 2)))
        assert isinstance(error.params["cause"], RulesError)
        assert error.text("en") == "the record cannot be replayed: jokers: unknown parameter"


def _plain(value: object) -> object:
    """Errors compare by identity: compare a cause by its kind, code and parameters."""
    if isinstance(value, EngineError):
        return (type(value), value.code, {name: _plain(v) for name, v in value.params.items()})
    return value


def _round_trip(error: EngineError) -> EngineError:
    copied = pickle.loads(pickle.dumps(error))
    assert type(copied) is type(error)
    assert copied.code == error.code
    assert _plain(copied) == _plain(error)
    assert str(copied) == str(error)
    assert copied.text("en") == error.text("en")
    return copied


class TestPickling:
    def test_rules_error(self) -> None:
        error = raised(RulesError, preset("sin-pozo", players=3))
        copied = _round_trip(error)
        assert isinstance(copied, RulesError)
        assert copied.parameter == "players"
        assert copied.message == error.message
        assert type(copied.params["counts"]) is OneOf

    def test_rules_error_with_a_typed_value(self) -> None:
        error = raised(RulesError, preset("clasico", mode="left"))
        copied = _round_trip(error)
        assert type(copied.params["value"]) is Verbatim

    def test_deal_error(self) -> None:
        _round_trip(raised(DealError, deal_of(boneyard=TWO_REST[3:])))

    def test_record_error_with_its_cause(self) -> None:
        copied = _round_trip(raised(RecordError, replay_of(_deal_twice)))
        assert copied.params["cause"].code == "deal_tile_twice"


def test_one_of_and_verbatim_render() -> None:
    assert localize(OneOf([20, 30, 45]), "es") == "20, 30 o 45"
    assert localize(OneOf([20, 30, 45]), "en") == "20, 30 or 45"
    assert localize(OneOf(["in_pairs"]), "en") == "in pairs"
    assert localize(OneOf([]), "es") == ""
    assert localize(Verbatim("left"), "es") == "left"
    assert localize("left", "es") == "izquierda"
