"""Share cards drawn (server/share/): each is a 1200x630 PNG that Pillow opens, not blank,
with the words and numbers of what it shows; a finished game's card holds its last line, a
card for shared deals not yet revealed holds no tile (R17), and the cache draws a card once.
"""

from __future__ import annotations

import asyncio
import io
import re
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

from tranque.bots import arena, make_bot
from tranque.engine import Game, Rules
from tranque.engine.record import to_record
from tranque.server.share import render_table_card
from tranque.server.share.cards import ShareBusy, ShareCards, game_png, podium_png
from tranque.server.share.game_card import game_card, game_words, render_game_card
from tranque.server.share.podium_card import PodiumCard, podium_card, render_podium_card
from tranque.server.share.tiles import chained
from tranque.server.store import GameRow

TILE = re.compile(r"\b\d-\d\b")
OUTPUT = Path(__file__).resolve().parents[3] / "test-output" / "share"


def finished_game(preset: str = "clasico", players: int = 4, seed: int = 3) -> GameRow:
    """A whole game of greedy bots kept as the archive keeps it (players/archive.py)."""
    rules = Rules.from_options(preset, players=players)
    game = arena.play_out(Game(rules, seed=seed), [make_bot("greedy", seed=seat) for seat in range(players)])
    names = ["Ñoño", "Kike", "Sofía", "Andrés"][:players]
    summary: dict[str, Any] = {
        "seats": [
            {"seat": seat, "name": names[seat], "kind": "human", "user_id": None} for seat in range(players)
        ],
        "scores": list(game.scores),
        "goals": list(game.goals),
        "winners": sorted(game.winners),
        "rounds": game.round_number + 1,
    }
    fmt = "pairs" if rules.is_pairs else "duel" if players == 2 else "individual"
    return GameRow(
        "mesa1.1", "mesa1", 1, 1796601600.0, preset, fmt, players, "public", False, False, False,
        "casual", summary, to_record(game),
    )  # fmt: skip


def opened(body: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(body))
    image.load()
    return image


def assert_a_card(body: bytes, name: str) -> None:
    """Opens as a PNG of 1200x630 with more than a handful of colours (not a blank felt)."""
    assert body.startswith(b"\x89PNG\r\n\x1a\n")
    image = opened(body)
    assert image.format == "PNG"
    assert image.size == (1200, 630)
    colours = image.convert("RGB").getcolors(maxcolors=1_000_000)
    assert colours is not None and len(colours) > 50
    OUTPUT.mkdir(parents=True, exist_ok=True)
    (OUTPUT / f"{name}.png").write_bytes(body)


class TestGameCard:
    def test_a_finished_games_card_is_a_1200x630_png(self) -> None:
        assert_a_card(render_game_card(game_card(finished_game(), "es")), "game-es")
        assert_a_card(render_game_card(game_card(finished_game("clasico", 2, 5), "en")), "game-duel-en")

    def test_the_card_says_who_played_and_the_final_score(self) -> None:
        game = finished_game()
        card = game_card(game, "es")
        assert [side.names for side in card.sides] == ["Ñoño y Sofía", "Kike y Andrés"]
        assert [side.score for side in card.sides] == game.summary["scores"]
        assert [side.won for side in card.sides] == [t in game.summary["winners"] for t in (0, 1)]
        winner = next(side.names for side in card.sides if side.won)
        assert card.headline == f"¡Ganaron {winner}!"
        assert card.date == "6 dic 2026"
        assert card.details.startswith("Clásico · a 100 · 4 jugadores por parejas · ")
        kind = game.record["rounds"][-1]["result"]["kind"]
        assert (
            card.ended
            == {"domino": "La última mano terminó en dominó", "tranque": "La última mano se trancó"}[kind]
        )

    def test_the_line_is_the_last_hands_chained_end_to_end(self) -> None:
        game = finished_game()
        card = game_card(game, "es")
        played = {a["tile"] for a in game.record["rounds"][-1]["actions"] if a["type"] == "play"}
        assert card.tiles == len(played) > 0
        assert {f"{max(a, b)}-{min(a, b)}" for a, b in card.line} == played
        for (_, right), (left, _) in zip(card.line, card.line[1:], strict=False):
            assert right == left  # each tile touches the next with the same number

    def test_R17_shared_deals_not_yet_revealed_show_no_tile(self) -> None:
        card = game_card(finished_game(), "es", show_line=False)
        assert card.line == () and card.tiles == 0
        shown = " ".join([card.headline, card.details, card.ended, *(s.names for s in card.sides)])
        assert not TILE.search(shown)
        assert_a_card(render_game_card(card), "game-no-line")

    def test_R17_a_round_still_in_play_gives_the_card_no_tile(self) -> None:
        """Even a record whose last round is still being played (the HTTP side never lets one
        reach a card: share_game_in_play) puts no tile in the card's inputs."""
        rules = Rules.from_options("clasico", players=2)
        live = Game(rules, seed=4)
        for _ in range(3):
            live.apply(live.legal_actions()[0])
        record = to_record(live)
        assert record["rounds"][-1]["result"] is None and record["rounds"][-1]["actions"]
        game = finished_game("clasico", 2, 5)
        card = game_card(replace(game, record=record), "es")
        assert card.line == () and card.tiles == 0
        shown = " ".join([card.headline, card.details, card.ended, *(s.names for s in card.sides)])
        assert not TILE.search(shown)

    def test_the_words_need_no_replay_and_match_the_card(self) -> None:
        game = finished_game()
        words, card = game_words(game, "en"), game_card(game, "en")
        assert (words.headline, words.sides, words.details) == (card.headline, card.sides, card.details)
        assert words.headline.endswith(" won!") and " and " in words.sides[0].names

    def test_tiles_turn_to_touch(self) -> None:
        assert chained(["6-4", "6-6", "6-1", "3-1"]) == [(4, 6), (6, 6), (6, 1), (1, 3)]


class TestTableCard:
    def test_a_season_table_is_a_1200x630_png(self) -> None:
        columns = ["Jugador", "PJ", "G", "P", "TF", "TC", "Dif", "Pts"]
        rows = [
            ["Ñoño Pérez", "10", "7", "3", "812", "640", "+172", "21"],
            ["Kike", "10", "6", "4", "700", "650", "+50", "18"],
        ]
        assert_a_card(render_table_card("Peña El Tranque", "Temporada ¡2026!", columns, rows), "table")

    def test_many_rows_short_rows_and_no_rows_still_draw(self) -> None:
        rows = [[f"Jugador {n}", str(n)] for n in range(40)] + [["Solo el nombre"]]
        assert_a_card(render_table_card("Muchos", "", ["Jugador", "PJ", "Pts"], rows), "table-long")
        assert opened(render_table_card("Vacía", "sin filas", ["Jugador"], [])).size == (1200, 630)

    def test_a_different_table_draws_a_different_card(self) -> None:
        one = opened(render_table_card("A", "", ["Jugador", "Pts"], [["Ana", "3"]])).convert("RGB")
        two = opened(render_table_card("A", "", ["Jugador", "Pts"], [["Ana", "9"]])).convert("RGB")
        assert ImageChops.difference(one, two).getbbox() is not None


def tournament_detail(status: str, podium: bool) -> dict[str, Any]:
    return {
        "name": "Copa del Caribe",
        "format": "suizo",
        "status": status,
        "entrants": 8,
        "starts_at": 1796601600.0,
        "podium": [
            {"place": n, "entrant": n, "names": [name]} for n, name in enumerate(["Ana", "Beto", "Ñata"], 1)
        ]
        if podium
        else [],
        "standings": [{"place": 1, "names": ["Caro"]}, {"place": 2, "names": ["Dani"]}],
    }


class TestPodiumCard:
    def test_a_finished_tournaments_podium(self) -> None:
        card = podium_card(tournament_detail("finished", True), "es")
        assert card.podium == ("Ana", "Beto", "Ñata") and card.leaders == ()
        assert card.details == "Suizo · Terminado · 8 inscritos"
        assert_a_card(render_podium_card(card), "podium")

    def test_before_the_end_its_leaders(self) -> None:
        card = podium_card(tournament_detail("running", False), "en")
        assert card.podium == () and card.leaders == ((1, "Caro"), (2, "Dani"))
        assert card.details == "Swiss · Being played · 8 entrants"
        assert_a_card(render_podium_card(card), "tournament-running-en")


class TestShareCards:
    def test_a_card_is_drawn_once_and_kept(self) -> None:
        async def twice() -> tuple[bytes, bytes, bytes, int]:
            cards = ShareCards(in_processes=False)
            try:
                card = PodiumCard("es", "Copa", "Suizo", "", ("Ana", "Beto", "Caro"), ())
                first, second = await asyncio.gather(
                    cards.png(("t", card), podium_png, card), cards.png(("t", card), podium_png, card)
                )
                game = await cards.png(("g", 1), game_png, finished_game(), "es", True)
                return first, second, game, cards.drawn
            finally:
                await cards.close()

        first, second, game, drawn = asyncio.run(twice())
        assert first == second and drawn == 2
        assert opened(game).size == (1200, 630)

    def test_a_failed_drawing_is_not_kept(self) -> None:
        async def failing() -> int:
            cards = ShareCards(in_processes=False)
            try:
                with pytest.raises(KeyError):
                    await cards.png("x", lambda: render_podium_card(podium_card({}, "es")))
                return len(cards.done) + len(cards.running)
            finally:
                await cards.close()

        assert asyncio.run(failing()) == 0

    def test_past_most_running_a_new_card_is_refused_and_a_leaver_leaves_the_drawing(self) -> None:
        release = threading.Event()

        def slow(label: str) -> bytes:
            release.wait(30)
            return label.encode()

        async def crowd() -> tuple[bytes, int]:
            cards = ShareCards(in_processes=False, workers=2, most_running=2)
            try:
                first = asyncio.create_task(cards.png("a", slow, "a"))
                second = asyncio.create_task(cards.png("b", slow, "b"))
                await asyncio.sleep(0.05)
                with pytest.raises(ShareBusy):
                    await cards.png("c", slow, "c")
                first.cancel()  # the one asking went away: the drawing goes on for the others
                waiting = asyncio.create_task(cards.png("a", slow, "a"))
                await asyncio.sleep(0.05)
                release.set()
                body = await waiting
                await second
                return body, cards.drawn
            finally:
                release.set()
                await cards.close()

        assert asyncio.run(crowd()) == (b"a", 2)
