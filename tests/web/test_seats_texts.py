"""What the page says about bots' levels, XP and provisional ratings is what the server does.

- The levels' titles the table shows beside a bot's name (messages_seats.js) are the server's
  (`GET /api/bots`, table/bot_text.py), in both languages.
- N5: the XP board's heading says where XP comes from: rated (competitive) games, tournament
  games included (tests/server/tournaments/test_rated_tournament_games.py shows they earn it).
- The provisional rating's explanation says "more than N games" with an N the model bears
  out: after N games σ is still above 2.5 in the fastest case (a duel against well-known
  rivals: 56 games; against other newcomers it takes 85).
"""

from __future__ import annotations

import re
from pathlib import Path

from tranque.server.players import ratings
from tranque.server.table.bot_text import catalogue

JS = Path(__file__).resolve().parents[2] / "src" / "tranque" / "web" / "js"


def message(file: str, key: str) -> dict[str, str]:
    text = (JS / file).read_text()
    start = text.index(f"  {key}: {{")
    block = text[start : text.index("},", start)]
    return dict(re.findall(r'(es|en): "([^"]*)"', block))


def test_the_level_titles_are_the_servers() -> None:
    for level in catalogue():
        shown = message("messages_seats.js", f"lvl_{level['name']}")
        assert shown == {"es": level["title"], "en": level["title_en"]}


def test_N5_the_xp_board_says_xp_comes_from_competitive_games_tournaments_included() -> None:
    label = message("messages_players.js", "pl_by_xp")
    assert label["es"] == "Experiencia (XP) en partidas competitivas, también las de torneos"
    assert label["en"] == "Experience (XP) from competitive games, tournament ones too"
    assert "minitorneos" not in label["es"]


def test_the_provisional_explanation_gives_a_number_of_games_the_model_bears_out() -> None:
    found = re.search(r"FIRM_AFTER_GAMES = (\d+)", (JS / "provisional.js").read_text())
    assert found is not None
    firm_after = int(found.group(1))
    text = message("messages_seats.js", "prov_explain")
    assert "{n}" in text["es"] and "{n}" in text["en"]
    me = ratings.rating()
    for game in range(firm_after):  # the fastest case: a duel against rivals the model knows
        ranks = [0, 1] if game % 2 == 0 else [1, 0]  # well, winning and losing in turn
        (me,), _ = ratings.rate([[me], [ratings.rating(sigma=0.1)]], ranks)
    assert me.sigma > 2.5  # still provisional after N games: "more than N" is true
    assert round(ratings.shown(ratings.rating())) == 450  # "starts low (about 450)"
    assert "450" in text["es"] and "450" in text["en"]
