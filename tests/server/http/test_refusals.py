"""The catalogue of the server's refusals (`tranque.server.refusals`): every entry in Spanish
and in English with the same fields, no Python spelling in either, and refusals that carry
both texts with their parameters filled in each language."""

from __future__ import annotations

import re
import string

import pytest

from tranque.engine import IllegalAction, Rules, RulesError
from tranque.engine.messages import OneOf
from tranque.server.http.errors import ApiError
from tranque.server.refusals import REFUSALS, Counted, Refusal, Words, code_of, render
from tranque.server.table.state import TableError
from tranque.server.ws.messages import ProtocolError

# Python's own spelling of values (None, True, 'text', a repr's brackets), which no text shows.
PYTHON = re.compile(r"\b(None|True|False)\b|'[^'\s]*'|<[a-z][\w.]* object|\\u[0-9a-f]{4}")


def fields(template: str) -> list[tuple[str, str | None, str | None]]:
    """The {fields} of a template: name, format spec and conversion."""
    return [
        (name, spec, conv) for _, name, spec, conv in string.Formatter().parse(template) if name is not None
    ]


@pytest.mark.parametrize("key", sorted(REFUSALS))
def test_each_entry_has_both_languages_with_the_same_fields(key: str) -> None:
    texts = REFUSALS[key]
    assert set(texts) == {"es", "en"}
    assert texts["es"].strip() and texts["en"].strip()
    assert {name for name, _, _ in fields(texts["es"])} == {name for name, _, _ in fields(texts["en"])}
    assert all(name.isidentifier() and not spec and conv is None for name, spec, conv in fields(texts["es"]))


@pytest.mark.parametrize("key", sorted(REFUSALS))
def test_each_entry_is_written_for_people(key: str) -> None:
    es, en = REFUSALS[key]["es"], REFUSALS[key]["en"]
    assert re.fullmatch(r"[a-z_]+(\.[a-z_]+)?", key)
    assert not PYTHON.search(es) and not PYTHON.search(en), key
    if es != "{cause}":  # the engine's message, which has its own English
        assert es != en, f"{key}: the English is the Spanish"
        assert es[0].isupper() or es[0] in "«{", key


def test_a_case_goes_out_as_its_code() -> None:
    assert code_of("started.stand") == "started" == code_of("started")
    refusal = TableError("started.stand")
    assert (refusal.code, refusal.key) == ("started", "started.stand")
    assert refusal.body() == {
        "code": "started",
        "message": "La partida ya empezó: no puedes levantarte.",
        "message_en": "The game has started: you cannot leave your seat.",
    }


def test_a_key_the_catalogue_lacks_is_a_bug_not_a_refusal() -> None:
    with pytest.raises(KeyError):
        TableError("no_such_code")


def test_parameters_are_filled_in_each_language() -> None:
    one, three = Counted(1, "games"), Counted(3, "tables")
    assert (one.text("es"), one.text("en"), three.text("es"), three.text("en")) == (
        "1 partida",
        "1 game",
        "3 mesas",
        "3 tables",
    )
    refused = ApiError(429, "too_many_games.address", games=Counted(10, "games"))
    assert refused.message.startswith("Desde tu conexión ya hay 10 partidas en curso")
    assert refused.message_en.startswith("There are already 10 games in progress")
    target = ApiError(
        422,
        "bad_rules.target",
        parameter="target",
        title="Clásico",
        players=4,
        choices=OneOf((100, 150, 200)),
        target=1,
    )
    assert "100, 150 o 200" in target.message and "100, 150 or 200" in target.message_en
    assert target.body()["parameter"] == "target"
    # A text parameter is printed as it is, even one that is an engine word ("pass", "left").
    assert render("unknown_type", "es", type="pass") == "Tipo de mensaje desconocido: «pass»."
    assert render("bad_message.wrong", "en", field="agree", expected=Words("sí", "yes")).endswith(
        "must be yes."
    )
    assert render("no_table", "fr") == REFUSALS["no_table"]["es"]  # any other language: Spanish


def test_an_illegal_move_carries_the_engines_own_english() -> None:
    refused = TableError("illegal", cause=IllegalAction("not_in_hand", tile="9-9"))
    assert (refused.message, refused.message_en) == ("No tienes la ficha 9-9.", "You don't have the 9-9.")


def test_rules_a_table_refuses_carry_the_engines_english() -> None:
    with pytest.raises(RulesError) as refused:
        Rules.from_options("clasico", turn_seconds=25)
    body = ApiError(422, "bad_rules", parameter=refused.value.parameter, cause=refused.value).body()
    assert body["message"] == str(refused.value)
    assert body["message_en"] == refused.value.text("en")
    assert body["message"] != body["message_en"]


def test_every_kind_of_refusal_is_one_catalogue_refusal() -> None:
    for refusal in (TableError("full"), ApiError(409, "name_taken"), ProtocolError("bad_json", 7)):
        assert isinstance(refusal, Refusal)
        assert str(refusal) == refusal.message == REFUSALS[refusal.key]["es"]
    assert ProtocolError("bad_json", 7).frame() == {
        "type": "error",
        "id": 7,
        "code": "bad_json",
        "message": "El mensaje no es JSON válido.",
        "message_en": "The message is not valid JSON.",
    }
