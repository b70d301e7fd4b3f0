"""Aprender over HTTP against a live server, on every backend: the path of lessons; a step's
position; a move's feedback (good, wrong with its why and punishing reply, refused by the
engine); a lesson finished with its stars; an account's stars kept and merged; every bad
request refused with its code, changing nothing."""

from __future__ import annotations

from typing import Any

import httpx

from tests.server.support.harness import LiveServer
from tests.server.support.http_helpers import client, database_url, register, server
from tranque.server.learn.lessons import IDS

__all__ = ["database_url", "server"]  # the fixtures, from http_helpers


def move(http: httpx.Client, lesson: str, step: int, attempt: str, **body: Any) -> httpx.Response:
    return http.post(f"/api/learn/{lesson}/{step}/move", json={"move": attempt, **body})


def test_a_guest_follows_the_path_and_finishes_a_lesson(server: LiveServer) -> None:
    with client(server) as http:
        listing = http.get("/api/learn").json()
        assert [lesson["id"] for lesson in listing["lessons"]] == list(IDS)
        assert listing["account"] is False and all(lesson["stars"] is None for lesson in listing["lessons"])

        first = http.get("/api/learn/fichas/0").json()
        assert first["goal"] == "fichas.heaviest" and first["steps"] == 2 and first["next"] == "pegar"
        assert "6-5" in first["position"]["hand"] and "legal_actions" not in first["position"]

        wrong = move(http, "fichas", 0, "3-2").json()
        assert wrong["verdict"] == "wrong" and wrong["why"] == {
            "key": "fichas.lighter",
            "params": {"tile": "3-2"},
        }
        assert wrong["position"] == first["position"]

        good = move(http, "fichas", 0, "6-5", tries=1).json()
        assert (
            good["verdict"] == "good" and good["done"] and not good["lesson_done"] and good["stars"] is None
        )

        last = move(http, "fichas", 1, "5-5", tries=2).json()
        assert last["lesson_done"] and last["stars"] == 2  # par 2, three moves tried


def test_a_wrong_move_shows_the_reply_that_punishes_it(server: LiveServer) -> None:
    with client(server) as http:
        wrong = move(http, "parejas", 0, "5-4d").json()
        assert wrong["why"]["key"] == "parejas.closed_partner"
        assert wrong["punish"] == {"seat": 1, "action": {"type": "play", "tile": "4-3", "side": "right"}}
        assert wrong["after"]["line_tiles"][-1] == "4-3"


def test_a_move_the_rules_refuse_is_answered_by_the_engine(server: LiveServer) -> None:
    with client(server) as http:
        refused = move(http, "obligado", 0, "pasar").json()
        assert refused["verdict"] == "illegal" and refused["refusal"]["code"] == "must_play"
        drawn = move(http, "robar", 0, "robar").json()
        assert drawn["verdict"] == "good" and not drawn["done"] and len(drawn["position"]["hand"]) == 8
        again = move(http, "robar", 0, "robar", moves=["robar"]).json()
        assert again["verdict"] == "good" and "6-1" in again["position"]["hand"]


def test_bad_requests_are_refused_with_their_codes(server: LiveServer) -> None:
    with client(server) as http:
        cases = [
            (http.get("/api/learn/ajedrez/0"), 404, "no_such_lesson"),
            (http.get("/api/learn/fichas/5"), 404, "no_such_lesson"),
            (move(http, "fichas", 0, "seis"), 422, "bad_lesson_move"),
            (move(http, "fichas", 0, "6-5", moves=["3-2"]), 422, "bad_lesson_moves"),
            (http.get("/api/learn/progress"), 401, "login_required"),
            (http.post("/api/learn/progress", json={"progress": {"fichas": 3}}), 401, "login_required"),
        ]
        for response, status, code in cases:
            assert response.status_code == status, response.text
            body = response.json()
            assert body["code"] == code and body["message"] and body["message_en"]


def test_an_account_keeps_its_best_stars_and_merges_a_guests(server: LiveServer) -> None:
    with client(server) as http:
        assert register(http, "aprendiz").status_code == 201
        kept = http.post("/api/learn/progress", json={"progress": {"fichas": 2, "pegar": 3}})
        assert kept.json() == {"progress": {"fichas": 2, "pegar": 3}}
        merged = http.post("/api/learn/progress", json={"progress": {"fichas": 3, "pegar": 1}}).json()
        assert merged == {"progress": {"fichas": 3, "pegar": 3}}
        for bad in ({"ajedrez": 3}, {"fichas": 4}, {"fichas": 0}):
            refused = http.post("/api/learn/progress", json={"progress": bad})
            assert refused.status_code == 422 and refused.json()["code"] == "bad_progress"
        assert http.get("/api/learn/progress").json() == {"progress": {"fichas": 3, "pegar": 3}}
        stars = {lesson["id"]: lesson["stars"] for lesson in http.get("/api/learn").json()["lessons"]}
        assert stars["fichas"] == 3 and stars["pegar"] == 3 and stars["obligado"] is None
