"""Reading players back over HTTP: rankings, profiles, a player's games, a finished game and
its record, avatars; games kept in the store as the table keeps them (players_helpers.py).

Runs on the in-memory store, and on SQLite or PostgreSQL with TRANQUE_TEST_DB."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.server.support.harness import LiveServer
from tests.server.support.http_helpers import client, live, login
from tests.server.support.players_helpers import Seat, make_user, save_game
from tranque.server.accounts.avatars import AVATARS
from tranque.server.players.rating_scale import shown


@pytest.fixture
def server() -> Iterator[LiveServer]:
    with live() as running:
        yield running


def get(
    server: LiveServer, path: str, http: httpx.Client | None = None, /, **params: str | float
) -> httpx.Response:
    if http is not None:
        return http.get(path, params=params)
    return httpx.get(server.http + path, params=params, timeout=20)


@contextlib.contextmanager
def logged_in(server: LiveServer, name: str) -> Iterator[httpx.Client]:
    with client(server) as http:
        assert login(http, name).status_code == 200
        yield http


def duel(
    server: LiveServer, game_id: str, winner: tuple[int, str], loser: tuple[int, str], **kw: Any
) -> None:
    save_game(server, game_id, [Seat(*winner, won=True, xp=20), Seat(*loser, xp=5)], **kw)


class TestXpRanking:
    def test_ordered_by_xp_then_name_and_ties_share_a_rank(self, server: LiveServer) -> None:
        ids = {name: make_user(server, name) for name in ("carla", "Beto", "ana", "dora")}
        # ana and Beto 40 each, carla 3 × 5, dora 5
        duel(server, "t1.1", (ids["ana"], "ana"), (ids["dora"], "dora"))
        duel(server, "t2.1", (ids["ana"], "ana"), (ids["carla"], "carla"))
        duel(server, "t3.1", (ids["Beto"], "Beto"), (ids["carla"], "carla"))
        duel(server, "t4.1", (ids["Beto"], "Beto"), (ids["carla"], "carla"))
        body = get(server, "/api/rankings", by="xp", period="week").json()
        assert body["by"] == "xp" and body["period"] == "week" and body["pool"] is None
        assert (body["page"], body["pages"], body["per_page"], body["total"]) == (1, 1, 50, 4)
        assert [(row["rank"], row["name"], row["xp"]) for row in body["rows"]] == [
            (1, "ana", 40),
            (1, "Beto", 40),
            (3, "carla", 15),
            (4, "dora", 5),
        ]
        assert body["rows"][0]["avatar"] == AVATARS[ids["ana"] % 12]
        assert set(body["rows"][0]) == {"rank", "name", "avatar", "xp"}
        assert body["me"] is None  # a guest

    def test_the_periods_count_only_their_own_games(self, server: LiveServer) -> None:
        old, new = make_user(server, "antiguo"), make_user(server, "nuevo")
        now = server.settings.clock.now()
        duel(server, "t1.1", (old, "antiguo"), (new, "nuevo"), finished_at=now - 90 * 86400)
        duel(server, "t2.1", (new, "nuevo"), (old, "antiguo"), finished_at=now)

        def board(period: str) -> list[tuple[str, int]]:
            rows = get(server, "/api/rankings", by="xp", period=period).json()["rows"]
            return [(row["name"], row["xp"]) for row in rows]

        assert board("week") == [("nuevo", 20), ("antiguo", 5)]
        assert board("month") == [("nuevo", 20), ("antiguo", 5)]
        assert board("all") == [("antiguo", 25), ("nuevo", 25)]

    def test_pages_keep_ranks_across_a_page_break_and_me_is_shown_off_page(self, server: LiveServer) -> None:
        me = make_user(server, "yo_mismo", can_log_in=True)
        rival = make_user(server, "rival")
        ids = {}
        for index in range(104):
            name = f"p{index:03d}"
            user = ids[name] = make_user(server, name)
            # p000..p047 win twice and lose once (45 XP), p048..p051 win once (20), the rest lose once (5)
            wins = 2 if index < 48 else 1 if index < 52 else 0
            for game in range(wins):
                duel(server, f"w{index}x{game}.1", (user, name), (rival, "rival"))
            if wins != 1:
                duel(server, f"l{index}.1", (rival, "rival"), (user, name))
        duel(server, "me.1", (rival, "rival"), (me, "yo_mismo"))
        with logged_in(server, "yo_mismo") as http:
            first = get(server, "/api/rankings", http, period="week").json()
            second = get(server, "/api/rankings", http, period="week", page=2).json()
            third = get(server, "/api/rankings", http, period="week", page=3).json()
        assert first["total"] == 106 and first["pages"] == 3
        assert first["rows"][0] == {
            "rank": 1,
            "name": "rival",
            "avatar": AVATARS[rival % 12],
            "xp": (48 + 52 + 1) * 20 + (48 * 2 + 4) * 5,
        }
        assert [row["rank"] for row in first["rows"][1:49]] == [2] * 48
        # p048..p051 tie across the page break: page 2 goes on with their rank, 50
        assert [(row["rank"], row["name"], row["xp"]) for row in second["rows"][:4]] == [
            (50, "p049", 20),
            (50, "p050", 20),
            (50, "p051", 20),
            (54, "p052", 5),
        ]
        assert first["rows"][-1] == {
            "rank": 50,
            "name": "p048",
            "avatar": AVATARS[ids["p048"] % 12],
            "xp": 20,
        }
        assert len(third["rows"]) == 6 and third["rows"][-1]["name"] == "yo_mismo"
        assert (
            first["me"]
            == second["me"]
            == third["rows"][-1]
            == {
                "rank": 54,
                "name": "yo_mismo",
                "avatar": AVATARS[me % 12],
                "xp": 5,
            }
        )
        past = get(server, "/api/rankings", period="week", page=9).json()
        assert past["rows"] == [] and past["total"] == 106

    def test_a_player_without_xp_in_the_period_has_no_row(self, server: LiveServer) -> None:
        make_user(server, "sin_puntos", can_log_in=True)
        with logged_in(server, "sin_puntos") as http:
            body = get(server, "/api/rankings", http, period="all").json()
        assert body["me"] is None and body["rows"] == [] and body["pages"] == 1


def rating_entry(rank: int, name: str, user_id: int, rating: int, *, provisional: bool) -> dict[str, Any]:
    avatar = AVATARS[user_id % 12]
    return {
        "rank": rank,
        "name": name,
        "avatar": avatar,
        "rating": rating,
        "provisional": provisional,
        "games": 1,
    }


class TestRatingRanking:
    def test_ordered_by_shown_rating_with_provisional_and_games(self, server: LiveServer) -> None:
        ana, beto, caro = (
            make_user(server, "ana"),
            make_user(server, "beto"),
            make_user(server, "caro", can_log_in=True),
        )
        save_game(
            server,
            "t1.1",
            [
                Seat(ana, "ana", won=True, rating=(25, 8.3, 28, 2.0)),
                Seat(beto, "beto", rating=(25, 8.3, 22, 6.0)),
            ],
            rated=True,
        )
        save_game(
            server,
            "t2.1",
            [Seat(caro, "caro", won=True, rating=(25, 8.3, 26, 2.5)), Seat(None, "Bot")],
            rated=True,
        )
        save_game(
            server,
            "t3.1",
            [Seat(ana, "ana", rating=(25, 8.3, 24, 7)), Seat(beto, "beto"), Seat(caro, "caro")],
            rated=True,
        )  # the individual pool: only ana
        with logged_in(server, "caro") as http:
            body = get(server, "/api/rankings", http, by="rating", pool="duel").json()
        assert body["by"] == "rating" and body["pool"] == "duel" and body["period"] is None
        assert body["rows"] == [
            rating_entry(1, "ana", ana, round(shown(28, 2.0)), provisional=False),
            rating_entry(2, "caro", caro, round(shown(26, 2.5)), provisional=False),
            rating_entry(3, "beto", beto, round(shown(22, 6.0)), provisional=True),
        ]
        assert body["me"] == body["rows"][1]
        individual = get(server, "/api/rankings", by="rating", pool="individual").json()
        assert [(row["name"], row["provisional"]) for row in individual["rows"]] == [("ana", True)]
        assert get(server, "/api/rankings", by="rating", pool="pairs").json()["rows"] == []


class TestBadParameters:
    @pytest.mark.parametrize(
        ("params", "code", "parameter"),
        [
            ({"by": "elo"}, "bad_ranking", "by"),
            ({"by": "xp", "period": "year"}, "bad_ranking", "period"),
            ({"by": "rating", "pool": "trios"}, "bad_ranking", "pool"),
            ({"page": "0"}, "bad_request", "page"),
            ({"page": "dos"}, "bad_request", "page"),
            ({"page": "100001"}, "bad_request", "page"),
            ({"by": "x" * 17}, "bad_request", "by"),
        ],
    )
    def test_rankings_refuse_with_a_code(
        self, server: LiveServer, params: dict[str, str], code: str, parameter: str
    ) -> None:
        response = get(server, "/api/rankings", **params)
        assert response.status_code == 422
        body = response.json()
        assert (body["code"], body["parameter"]) == (code, parameter)
        assert body["message"] and body["message_en"]

    def test_a_games_list_refuses_bad_limits_and_moments(self, server: LiveServer) -> None:
        make_user(server, "ana")
        for params, parameter in (
            ({"limit": "0"}, "limit"),
            ({"limit": "51"}, "limit"),
            ({"before": "ayer"}, "before"),
            ({"before": "nan"}, "before"),
        ):
            response = get(server, "/api/players/ana/games", **params)
            assert response.status_code == 422
            assert (response.json()["code"], response.json()["parameter"]) == ("bad_request", parameter)

    def test_unknown_players_and_games_are_404(self, server: LiveServer) -> None:
        for path, code in (
            ("/api/players/nadie", "no_such_player"),
            ("/api/players/nadie/games", "no_such_player"),
            ("/api/games/x.1", "no_such_game"),
            ("/api/games/x.1/record", "no_such_game"),
        ):
            response = get(server, path)
            assert response.status_code == 404 and response.json()["code"] == code


class TestProfile:
    def test_fields(self, server: LiveServer) -> None:
        ana, beto = make_user(server, "Ana", can_log_in=True), make_user(server, "beto", can_log_in=True)
        now = server.settings.clock.now()
        save_game(
            server,
            "t1.1",
            [
                Seat(ana, "Ana", won=True, xp=20, rating=(25, 8.3, 27, 7.0)),
                Seat(beto, "beto", xp=5, rating=(25, 8.3, 23, 7.0)),
            ],
            rated=True,
            finished_at=now - 60 * 86400,
        )
        save_game(
            server,
            "t2.1",
            [
                Seat(ana, "Ana", xp=0, abandoned=True, rating=(27, 7.0, 26, 6.5)),
                Seat(beto, "beto", won=True, xp=20, rating=(23, 7.0, 24, 6.5)),
            ],
            rated=True,
            finished_at=now - 10,
        )
        save_game(
            server,
            "t3.1",
            [Seat(ana, "Ana", won=True), Seat(None, "Bot"), Seat(None, "Bot 2")],
            preset="internacional",
        )
        body = get(server, "/api/players/ana").json()  # any case finds the name
        assert body["name"] == "Ana" and body["avatar"] == AVATARS[ana % 12]
        assert body["member_since"] == int(now) and body["is_me"] is False
        assert body["xp"] == {"week": 0, "month": 0, "all": 20}
        assert body["totals"] == {"played": 3, "won": 2}
        assert body["stats"] == [
            {"preset": "clasico", "format": "duel", "played": 2, "won": 1},
            {"preset": "internacional", "format": "individual", "played": 1, "won": 1},
        ]
        assert body["ratings"] == [
            {
                "pool": "duel",
                "rating": round(shown(26, 6.5)),
                "provisional": True,
                "games": 2,
                "history": [
                    {"at": now - 60 * 86400, "rating": round(shown(27, 7.0))},
                    {"at": now - 10, "rating": round(shown(26, 6.5))},
                ],
            }
        ]
        assert [game["game_id"] for game in body["recent"]] == ["t3.1", "t2.1", "t1.1"]
        abandoned = body["recent"][1]
        assert abandoned["won"] is False and abandoned["abandoned"] is True and abandoned["xp"] == 0
        assert abandoned["rating_change"] == round(shown(26, 6.5)) - round(shown(27, 7.0))
        assert abandoned["seats"] == [
            {"seat": 0, "name": "Ana", "kind": "human"},
            {"seat": 1, "name": "beto", "kind": "human"},
        ]
        assert abandoned["scores"] == [40, 100] and abandoned["winners"] == [1]
        assert body["recent"][0]["rating_change"] is None and body["recent"][0]["rated"] is False
        assert body["friend"] is None and body["blocked"] is False  # a guest
        with logged_in(server, "beto") as http:
            seen = get(server, "/api/players/Ana", http).json()
            mine = get(server, "/api/players/beto", http).json()
        assert seen["friend"] == "none" and seen["blocked"] is False and seen["is_me"] is False
        assert mine["is_me"] is True and mine["friend"] is None
        assert mine["xp"] == {"week": 20, "month": 20, "all": 25}


class TestPrivacy:
    def test_a_private_game_is_only_its_players(self, server: LiveServer) -> None:
        ana = make_user(server, "ana", can_log_in=True)
        beto = make_user(server, "beto", can_log_in=True)
        make_user(server, "caro", can_log_in=True)
        now = server.settings.clock.now()
        duel(server, "pub.1", (ana, "ana"), (beto, "beto"), finished_at=now - 20)
        duel(server, "priv.1", (beto, "beto"), (ana, "ana"), finished_at=now - 10, private=True)

        def listed(http: httpx.Client | None) -> tuple[list[str], list[str], list[int]]:
            games = get(server, "/api/players/ana/games", http).json()["games"]
            recent = get(server, "/api/players/ana", http).json()["recent"]
            served = [get(server, f"/api/games/priv.1{end}", http).status_code for end in ("", "/record")]
            return [game["game_id"] for game in games], [game["game_id"] for game in recent], served

        for name in ("ana", "beto"):
            with logged_in(server, name) as http:
                assert listed(http) == (["priv.1", "pub.1"], ["priv.1", "pub.1"], [200, 200])
        with logged_in(server, "caro") as http:
            assert listed(http) == (["pub.1"], ["pub.1"], [404, 404])
            assert get(server, "/api/games/priv.1", http).json()["code"] == "no_such_game"
        assert listed(None) == (["pub.1"], ["pub.1"], [404, 404])
        assert get(server, "/api/games/pub.1").status_code == 200


class TestGames:
    def test_newest_first_with_before_and_more(self, server: LiveServer) -> None:
        ana, beto = make_user(server, "ana"), make_user(server, "beto")
        start = server.settings.clock.now() - 1000
        for number in range(5):
            duel(server, f"t{number}.1", (ana, "ana"), (beto, "beto"), finished_at=start + number)
        first = get(server, "/api/players/ana/games", limit=2).json()
        assert [game["game_id"] for game in first["games"]] == ["t4.1", "t3.1"] and first["more"] is True
        before = first["games"][-1]["finished_at"]
        second = get(server, "/api/players/ana/games", limit=2, before=before).json()
        assert [game["game_id"] for game in second["games"]] == ["t2.1", "t1.1"] and second["more"] is True
        last = get(
            server, "/api/players/ana/games", limit=2, before=second["games"][-1]["finished_at"]
        ).json()
        assert [game["game_id"] for game in last["games"]] == ["t0.1"] and last["more"] is False
        assert last["games"][0] == {
            "game_id": "t0.1",
            "finished_at": start,
            "preset": "clasico",
            "format": "duel",
            "players": 2,
            "competitive": False,
            "rated": False,
            "private": False,
            "won": True,
            "abandoned": False,
            "xp": 20,
            "rating_change": None,
            "seats": [
                {"seat": 0, "name": "ana", "kind": "human"},
                {"seat": 1, "name": "beto", "kind": "human"},
            ],
            "scores": [100, 40],
            "winners": [0],
        }

    def test_a_game_page(self, server: LiveServer) -> None:
        ana = make_user(server, "ana")
        save_game(
            server,
            "mesa.2",
            [
                Seat(ana, "ana", won=True, xp=30, rating=(25, 8.3, 27, 7)),
                Seat(None, "Bot"),
                Seat(None, "Bot 2"),
            ],
            rated=True,
        )
        body = get(server, "/api/games/mesa.2").json()
        assert body == {
            "game_id": "mesa.2",
            "table_id": "mesa",
            "number": 2,
            "finished_at": server.settings.clock.now(),
            "preset": "clasico",
            "format": "individual",
            "players": 3,
            "competitive": True,
            "rated": True,
            "unrated_reason": None,
            "private": False,
            "seats": [
                {"seat": 0, "name": "ana", "kind": "human"},
                {"seat": 1, "name": "Bot", "kind": "bot", "bot_level": None, "face": None},
                {"seat": 2, "name": "Bot 2", "kind": "bot", "bot_level": None, "face": None},
            ],
            "scores": [100, 40, 40],
            "goals": [0, 0, 0],
            "winners": [0],
            "rounds": 3,
            "hints": [0, 0, 0],
            "participants": [
                {
                    "name": "ana",
                    "seat": 0,
                    "won": True,
                    "abandoned": False,
                    "xp": 30,
                    "rating_before": round(shown(25, 8.3)),
                    "rating_after": round(shown(27, 7)),
                }
            ],
        }


class TestAvatars:
    def test_the_list(self, server: LiveServer) -> None:
        body = get(server, "/api/avatars").json()
        assert [avatar["id"] for avatar in body] == list(AVATARS) and len(body) == 12
        assert body[9] == {"id": "tucan", "label": "Tucán", "label_en": "Toucan"}

    def test_set_and_refused(self, server: LiveServer) -> None:
        ana = make_user(server, "ana", can_log_in=True)
        duel(server, "t1.1", (ana, "ana"), (make_user(server, "beto"), "beto"))
        assert get(server, "/api/players/ana").json()["avatar"] == AVATARS[ana % 12]
        with logged_in(server, "ana") as http:
            chosen = http.put("/api/me/avatar", json={"avatar": "loro"})
            assert chosen.status_code == 200
            assert chosen.json()["avatar"] == "loro" and chosen.json()["is_me"] is True
            refused = http.put("/api/me/avatar", json={"avatar": "dragon"})
            assert refused.status_code == 422
            assert (refused.json()["code"], refused.json()["parameter"]) == ("bad_avatar", "avatar")
            as_form = http.put("/api/me/avatar", content="avatar=sol", headers={"Content-Type": "text/plain"})
            assert as_form.status_code == 415
        guest = httpx.put(f"{server.http}/api/me/avatar", json={"avatar": "sol"})
        assert guest.status_code == 401 and guest.json()["code"] == "login_required"
        assert get(server, "/api/players/ana").json()["avatar"] == "loro"
        assert get(server, "/api/rankings", period="all").json()["rows"][0]["avatar"] == "loro"
