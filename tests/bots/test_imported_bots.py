"""Your own bot class by import path, `module:Class`: in the library (`make_bot`) and in
`tranque arena`, with a one-line refusal for a path that does not lead to a bot."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.bots.doubles_first import DoublesFirst
from tests.cli_helpers import flat, forbid, one_line_error
from tranque.bots import BotPathError, make_bot
from tranque.bots.arena import play_out
from tranque.cli import main
from tranque.engine import Game, Rules

MINE = "tests.bots.doubles_first:DoublesFirst"


def test_make_bot_takes_an_import_path_and_seeds_the_bot() -> None:
    bot = make_bot(MINE, seed=5)
    assert isinstance(bot, DoublesFirst)
    assert bot.rng.random() == DoublesFirst(seed=5).rng.random()


def test_an_imported_bot_plays_a_whole_game_with_the_levels() -> None:
    rules = Rules.preset("clasico")
    bots = [
        make_bot(MINE, seed=1),
        make_bot("greedy", seed=2),
        make_bot(MINE, seed=3),
        make_bot("random", seed=4),
    ]
    game = play_out(Game(rules, seed=11), bots)
    assert game.is_over and game.winners
    assert sum(len(rnd.events) for rnd in game.rounds) > 0


@pytest.mark.parametrize(
    ("path", "code", "spanish", "english"),
    [
        (
            "tests.bots.doubles_first:",
            "malformed",
            "«tests.bots.doubles_first:» no es un bot: escribe un nivel o la ruta de tu clase",
            "“tests.bots.doubles_first:” is not a bot: write a level or your class's import path",
        ),
        (
            "no.such.module:Bot",
            "no_module",
            "no se pudo importar «no.such.module»: No module named 'no'",
            "could not import “no.such.module”: No module named 'no'",
        ),
        (
            "tests.bots.doubles_first:Nobody",
            "no_attribute",
            "«tests.bots.doubles_first» no tiene «Nobody».",
            "“tests.bots.doubles_first” has no “Nobody”.",
        ),
        (
            "tests.bots.doubles_first:DoublesFirst.missing",
            "no_attribute",
            "«tests.bots.doubles_first.DoublesFirst» no tiene «missing».",
            "“tests.bots.doubles_first.DoublesFirst” has no “missing”.",
        ),
        (
            "tests.bots.doubles_first:__doc__",
            "not_callable",
            "«tests.bots.doubles_first:__doc__» no es una clase ni una función que cree un bot.",
            "“tests.bots.doubles_first:__doc__” is not a class or a function that makes a bot.",
        ),
        (
            "tests.bots.doubles_first:NeedsAName",
            "cannot_create",
            "«tests.bots.doubles_first:NeedsAName» no se pudo crear: TypeError:",
            "“tests.bots.doubles_first:NeedsAName” could not be created: TypeError:",
        ),
        (
            "tests.bots.doubles_first:NoChoose",
            "no_choose",
            "«tests.bots.doubles_first:NoChoose» no es un bot: le falta el método choose(view).",
            "“tests.bots.doubles_first:NoChoose” is not a bot: it has no choose(view) method.",
        ),
    ],
)
def test_a_path_that_leads_to_no_bot_is_refused_with_its_reason(
    path: str,
    code: str,
    spanish: str,
    english: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(BotPathError) as refused:
        make_bot(path)
    assert refused.value.code == code
    assert spanish in str(refused.value) and spanish in refused.value.text("es")
    assert english in refused.value.text("en")
    forbid(monkeypatch, "a match", "tranque.terminal.arena.play_match")
    for lang, text in (("es", spanish), ("en", english)):
        assert main(["--lang", lang, "arena", path, "greedy"]) == 2
        line = one_line_error(capsys.readouterr())
        assert (
            line
            == f"tranque: error: {'bot no válido' if lang == 'es' else 'invalid bot'}: "
            + line.split(": ", 3)[3]
        )
        assert text in line


def test_a_module_that_fails_to_import_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "broken_bot.py").write_text("raise RuntimeError('not today')\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [entry for entry in sys.path if entry not in ("", str(tmp_path))])
    monkeypatch.delitem(sys.modules, "broken_bot", raising=False)
    assert main(["--lang", "en", "arena", "broken_bot:Bot", "greedy"]) == 2
    line = one_line_error(capsys.readouterr())
    assert line == "tranque: error: invalid bot: importing “broken_bot” failed: RuntimeError: not today"


def test_the_arena_plays_your_bot_from_the_current_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    source = (Path(__file__).parent / "doubles_first.py").read_text()
    (tmp_path / "mybot.py").write_text(source)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [entry for entry in sys.path if entry not in ("", str(tmp_path))])
    monkeypatch.delitem(sys.modules, "mybot", raising=False)
    argv = ["--lang", "en", "arena", "mybot:DoublesFirst", "greedy", "--games", "2", "--target", "30"]
    assert main(argv) == 0
    out = flat(capsys.readouterr().out)
    assert "4 games" in out
    assert out.startswith("DoublesFirst against greedy: ") and "2. greedy" in out
    assert sys.modules["mybot"].__file__ == str(tmp_path / "mybot.py")
