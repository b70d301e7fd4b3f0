"""«¿Qué jugarías?» over HTTP (server/puzzles): the day's puzzle is a function of the date,
an answer gets its verdict and explanation in both languages, bad input a stable refusal,
and the position a page receives holds only what its player could see (R17)."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.server.support.http_helpers import client, live
from tranque.engine import Rules
from tranque.server.puzzles.book import EPOCH, Book, packaged
from tranque.server.puzzles.explain import explanation


@pytest.fixture(scope="module")
def http() -> Iterator[httpx.Client]:
    with live() as server, client(server) as http:
        yield http


def test_the_packaged_book_has_puzzles_of_each_collection() -> None:
    book = packaged()
    collections = {p["collection"] for p in book.puzzles.values()}
    assert {"parejas", "individual"} <= collections
    assert 60 <= len(book.puzzles) <= 150


def test_the_daily_puzzle_is_a_function_of_the_date_and_every_one_comes_before_a_repeat() -> None:
    book = packaged()
    days = [EPOCH + datetime.timedelta(days=n) for n in range(len(book.order))]
    assert sorted(book.daily(day) for day in days) == sorted(book.puzzles)
    assert book.daily(days[0]) == Book.of(list(book.puzzles.values())).daily(days[0])
    assert book.daily(days[0] + datetime.timedelta(days=len(book.order))) == book.daily(days[0])


def test_daily_over_http_follows_the_date_given(http: httpx.Client) -> None:
    first = http.get("/api/puzzles/daily", params={"date": "2026-12-07"})
    assert first.status_code == 200, first.text
    again = http.get("/api/puzzles/daily", params={"date": "2026-12-07"}).json()
    assert first.json() == again
    assert again["id"] == packaged().daily(datetime.date(2026, 12, 7))
    assert again["daily"] == "2026-12-07"
    other = http.get("/api/puzzles/daily", params={"date": "2026-12-08"}).json()
    assert other["id"] != again["id"]
    today = http.get("/api/puzzles/daily")
    assert today.status_code == 200 and today.json()["id"] in packaged().puzzles


def public_tiles(body: dict[str, Any]) -> set[str]:
    named = set(body["hand"])
    named |= {e["tile"] for e in body["events"] if "tile" in e}
    named |= {a["tile"] for a in body["legal"] if "tile" in a}
    named |= {box["tile"] for box in body["line"]}
    return named


def test_R17_the_position_a_page_receives_names_no_hidden_tile_and_no_answer(http: httpx.Client) -> None:
    for puzzle_id in sorted(packaged().puzzles):
        body = http.get(f"/api/puzzles/{puzzle_id}").json()
        played = {e["tile"] for e in body["events"] if e["type"] == "play"}
        assert public_tiles(body) <= set(body["hand"]) | played, puzzle_id
        assert "answer" not in body and "hands" not in body and "revealed_hands" not in body
        text = str(body)
        for word in ("accepted", "choices", "reasons", "best"):
            assert word not in text, (puzzle_id, word)


def answers(puzzle: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    right = puzzle["answer"]["accepted"][0]
    wrong = next(a for a in puzzle["legal"] if a not in puzzle["answer"]["accepted"])
    return right, wrong


def test_an_answer_gets_right_or_wrong_the_best_move_and_why(http: httpx.Client) -> None:
    book = packaged()
    puzzle_id = book.daily(datetime.date(2026, 12, 7))
    puzzle = book.puzzles[puzzle_id]
    right, wrong = answers(puzzle)
    good = http.post(f"/api/puzzles/{puzzle_id}/answer", json={"action": right})
    assert good.status_code == 200, good.text
    verdict = good.json()
    assert verdict["right"] is True and verdict["best"] == puzzle["answer"]["best"]
    assert verdict["explanation"]["es"] and verdict["explanation"]["en"]
    assert verdict["explanation"]["es"] != verdict["explanation"]["en"]
    assert verdict["lesson"] in {"domino-y-tranque", "contar-tranque", "parejas", "leer-pases"}
    points = [c["points"] for c in verdict["choices"]]
    assert points == sorted(points, reverse=True) and points[0] - points[1] >= 10
    assert len(verdict["after"]["line"]) == len([e for e in puzzle["events"] if e["type"] == "play"]) + 1
    bad = http.post(f"/api/puzzles/{puzzle_id}/answer", json={"action": wrong}).json()
    assert bad["right"] is False and bad["chosen"] == wrong and bad["best"] == verdict["best"]


def test_every_puzzles_explanation_reads_in_both_languages() -> None:
    for puzzle in packaged().puzzles.values():
        rules = Rules.from_json(puzzle["rules"])
        for lang in ("es", "en"):
            text = explanation(puzzle["answer"]["reasons"], rules, lang)
            assert "{" not in text and len(text) > 40


@pytest.mark.parametrize(
    ("path", "body", "status", "code"),
    [
        ("/api/puzzles/nope-001/answer", {"action": {"type": "pass"}}, 404, "no_such_puzzle"),
        ("ANSWER", {"action": {"type": "play", "tile": "9-9"}}, 422, "puzzle_answer"),
        ("ANSWER", {"action": {"type": "pass"}}, 422, "puzzle_answer"),
        ("ANSWER", {"action": "6-4"}, 422, "puzzle_answer"),
        ("ANSWER", {"move": {}}, 422, "puzzle_answer"),
        ("ANSWER", ["x"], 422, "puzzle_answer"),
    ],
)
def test_bad_answers_are_refused_in_both_languages(
    http: httpx.Client, path: str, body: Any, status: int, code: str
) -> None:
    puzzle_id = sorted(packaged().puzzles)[0]
    url = f"/api/puzzles/{puzzle_id}/answer" if path == "ANSWER" else path
    answer = http.post(url, json=body)
    assert answer.status_code == status, answer.text
    refusal = answer.json()
    assert refusal["code"] == code and refusal["message"] and refusal["message_en"]


def test_other_refusals(http: httpx.Client) -> None:
    missing = http.get("/api/puzzles/nope-001")
    assert missing.status_code == 404 and missing.json()["code"] == "no_such_puzzle"
    date = http.get("/api/puzzles/daily", params={"date": "ayer"})
    assert date.status_code == 422 and date.json()["code"] == "puzzle_date"
    broken = http.post(
        f"/api/puzzles/{sorted(packaged().puzzles)[0]}/answer",
        content=b"{not json",
        headers={"content-type": "application/json"},
    )
    assert broken.status_code == 422 and broken.json()["code"] == "puzzle_answer"


def test_another_puzzle_is_not_the_one_left(http: httpx.Client) -> None:
    first = sorted(packaged().puzzles)[0]
    for _ in range(5):
        body = http.get("/api/puzzles/random", params={"not": first}).json()
        assert body["id"] != first and body["id"] in packaged().puzzles
