"""The engine's public surface: the action notation, the events `apply` returns, what a view
says about a forced lead and the line's geometry, `Game.turn`, coded errors in two languages."""

from __future__ import annotations

import random

import pytest

from tests.engine.deals import complete_deal, run
from tranque import Draw, Game, IllegalAction, Pass, Play, Round, Rules, Side, Tile
from tranque.engine import DRAW, PASS, Action, DrawEvent, PassEvent, PlayEvent, event_from_json
from tranque.engine.messages import MESSAGES

SPANISH_MARKERS = (
    "ficha",
    "punta",
    "pozo",
    "mano",
    "jugar",
    "robar",
    "pasar",
    "tienes",
    "debes",
    "ñ",
    "á",
    "é",
    "í",
    "ó",
    "ú",
)


def random_positions(count: int, seed: int) -> list[Round]:
    """`count` rounds of varied presets, each stopped at a random point of random play."""
    rng = random.Random(seed)
    presets = [("clasico", {}), ("clasico", {"players": 2, "mode": "individual"}), ("sin-pozo", {})]
    presets += [("ponce", {}), ("clasico", {"players": 6}), ("en-contra", {"players": 3})]
    rounds = []
    for number in range(count):
        name, overrides = presets[number % len(presets)]
        game = Game(Rules.preset(name, **overrides), seed=rng.randrange(1 << 30))
        for _ in range(rng.randrange(30)):
            if game.round.is_over:
                break
            game.apply(rng.choice(game.legal_actions()))
        rounds.append(game.round)
    return rounds


class TestNotation:
    def test_every_legal_action_round_trips_through_its_notation(self) -> None:
        checked = 0
        for rnd in random_positions(3000, seed=1):
            for action in rnd.legal_actions():
                assert Action.parse(str(action)) == action
                checked += 1
        assert checked > 4000

    @pytest.mark.parametrize(
        ("text", "action"),
        [
            ("6-4i", Play(Tile(6, 4), Side.LEFT)),
            ("4-6d", Play(Tile(6, 4), Side.RIGHT)),
            (" 6 - 4 I ", Play(Tile(6, 4), Side.LEFT)),
            ("6-4l", Play(Tile(6, 4), Side.LEFT)),
            ("6-4R", Play(Tile(6, 4), Side.RIGHT)),
            ("6-6", Play(Tile(6, 6), None)),
            ("robar", DRAW),
            ("Draw", DRAW),
            ("pasar", PASS),
            ("pass", PASS),
        ],
    )
    def test_parse_reads_spanish_and_english(self, text: str, action: Action) -> None:
        assert Action.parse(text) == action

    @pytest.mark.parametrize("text", ["", "6", "6-4x", "6-4 izquierda", "10-1i", "５-４", "jugar", "6-4id"])
    def test_parse_refuses_what_is_not_an_action(self, text: str) -> None:
        with pytest.raises(IllegalAction) as caught:
            Action.parse(text)
        assert caught.value.code in {"malformed", "tile_range"}

    def test_str_is_notation_and_describe_is_prose(self) -> None:
        play = Play(Tile(6, 4), Side.RIGHT)
        assert (str(play), str(Play(Tile(5, 5))), str(DRAW), str(PASS)) == ("6-4d", "5-5", "robar", "pasar")
        assert play.describe() == "jugar 6-4 a la derecha"
        assert play.describe("en") == "play 6-4 on the right"
        assert (DRAW.describe("en"), PASS.describe("en")) == ("draw from the boneyard", "pass")

    def test_tiles_sort_by_higher_then_lower_half(self) -> None:
        tiles = Tile.full_set(9)
        shuffled = tiles.copy()
        random.Random(3).shuffle(shuffled)
        assert sorted(shuffled) == tiles
        assert Tile(6, 0) < Tile(6, 1) < Tile(6, 6) < Tile(7, 0)
        assert max(Tile(3, 2), Tile(5, 0), Tile(4, 4)) == Tile(5, 0)


class TestAppliedEvents:
    def test_apply_returns_the_event_with_side_filled_in_and_the_drawn_tile(self) -> None:
        rules = Rules.preset("clasico", players=2, mode="individual")
        rnd = Round.deal(rules, *complete_deal(rules, ["6-6 6-5", "5-5"], boneyard="4-4 4-2"), first=True)
        lead = rnd.apply(Play(Tile(6, 6)))
        assert lead == PlayEvent(0, Tile(6, 6), None, (6, 6))
        drawn = rnd.apply(Draw())
        assert drawn == DrawEvent(1, Tile(4, 4))
        assert rnd.events[-1] == DrawEvent(1, None)  # the public history hides it (R17)
        assert rnd.view(0).events[-1] == DrawEvent(1, None)
        assert rnd.view(1).events[-1] == DrawEvent(1, Tile(4, 4))
        assert rnd.full_events == [lead, drawn]

    def test_C1_the_geometry_says_which_half_faces_out(self) -> None:
        rules = Rules.preset("clasico", players=2, mode="individual")
        deal = complete_deal(rules, ["6-6 6-5 5-1", "6-3 3-1 1-1"], boneyard="")
        rnd = Round.deal(rules, *deal, first=True)
        # On equal ends a tile has one placement, whatever side is asked for (R8).
        events = [rnd.apply(Action.parse(text)) for text in ("6-6", "6-3d", "6-5d", "3-1i")]
        laid = [event.laid for event in events if isinstance(event, PlayEvent)]
        assert laid == [(6, 6), (3, 6), (6, 5), (1, 3)]
        assert [e.outer for e in events if isinstance(e, PlayEvent)] == [6, 3, 5, 1]
        assert rnd.layout == [(1, 3), (3, 6), (6, 6), (6, 5)]
        assert rnd.ends == (1, 5)
        assert list(rnd.view(None).layout) == rnd.layout

    def test_events_round_trip_through_json(self) -> None:
        for rnd in random_positions(60, seed=2):
            for event in rnd.full_events:
                assert event_from_json(event.to_json()) == event

    def test_malformed_event_json_is_refused_with_a_code(self) -> None:
        for data in [None, {}, {"type": "play", "seat": 0, "tile": "6-6"}, {"type": "pass", "seat": "0"}]:
            with pytest.raises(IllegalAction) as caught:
                event_from_json(data)
            assert caught.value.code == "malformed_event"

    def test_the_game_records_the_action_each_event_stands_for(self) -> None:
        game = Game(Rules.preset("clasico"), seed=5)
        events = [game.apply(game.legal_actions()[0]) for _ in range(6)]
        assert [action for _, _, action in game.actions] == [event.action for event in events]
        assert all(isinstance(e, (PlayEvent, DrawEvent, PassEvent)) for e in events)


class TestTurnAndForcedLead:
    def test_R6_the_view_names_the_forced_lead_only_to_its_holder(self) -> None:
        game = Game(Rules.preset("clasico"), seed=42)
        holder = game.turn
        assert holder is not None
        assert game.view(holder).forced_lead == Tile(6, 6)
        others = [game.view(seat).forced_lead for seat in [*range(4), None] if seat != holder]
        assert others == [None] * 4
        game.apply(Play(Tile(6, 6)))
        assert [game.view(seat).forced_lead for seat in range(4)] == [None] * 4

    def test_R6_a_free_lead_is_not_forced(self) -> None:
        rules = Rules.preset("clasico")
        rnd = Round.deal(rules, *complete_deal(rules, ["6-6", "", "", ""]), starter=1)
        assert rnd.view(1).forced_lead is None
        assert len(rnd.view(1).legal_actions) == 7

    def test_game_turn_and_legal_actions_follow_the_round(self) -> None:
        rules = Rules.preset("clasico", players=2, mode="individual", target=1)
        game = Game(rules, seed=9)
        assert game.turn == game.round.turn
        assert game.legal_actions() == game.round.legal_actions()
        while not game.round.is_over:
            game.apply(game.legal_actions()[0])
        assert game.turn is None
        assert game.legal_actions() == []

    def test_apply_for_a_seat_out_of_turn_is_refused_and_changes_nothing(self) -> None:
        game = Game(Rules.preset("clasico"), seed=42)
        holder = game.turn
        assert holder is not None
        other = (holder + 1) % 4
        before = game.view(None).to_json()
        with pytest.raises(IllegalAction) as caught:
            game.apply(Play(Tile(6, 6)), seat=other)
        assert caught.value.code == "not_your_turn"
        assert caught.value.text("en") == f"It is not this seat's turn: seat {holder} is to play."
        assert game.view(None).to_json() == before
        assert game.apply(Play(Tile(6, 6)), seat=holder).seat == holder


class TestCodedErrors:
    def refused(self, rnd: Round, action: object) -> IllegalAction:
        with pytest.raises(IllegalAction) as caught:
            rnd.apply(action)  # type: ignore[arg-type]
        return caught.value

    def test_each_refusal_has_a_code_and_an_english_text(self) -> None:
        rules = Rules.preset("clasico", players=2, mode="individual")
        deal = complete_deal(rules, ["6-6 6-4 0-0", "6-1 4-1 1-1 5-5"], boneyard="3-3")
        rnd = Round.deal(rules, *deal, first=True)
        codes = {
            "forced_lead": Play(Tile(6, 4)),
            "not_in_hand": Play(Tile(6, 1)),
            "unknown_action": "6-6",
        }
        for code, action in codes.items():
            error = self.refused(rnd, action)
            assert error.code == code
        run(rnd, "6-6 6-1 6-4r")
        assert rnd.ends == (1, 4)
        cases = {
            "choose_end": Play(Tile(4, 1)),
            "wrong_end": Play(Tile(1, 1), Side.RIGHT),
            "does_not_fit": Play(Tile(5, 5), Side.LEFT),
            "must_play": Pass(),
        }
        for code, action in cases.items():
            error = self.refused(rnd, action)
            assert error.code == code, action
            english = error.text("en")
            assert not any(marker in english.lower() for marker in SPANISH_MARKERS), english
        assert self.refused(rnd, Draw()).text("en") == "You can't draw: you have a tile that fits."
        assert str(self.refused(rnd, Draw())) == "No puedes robar: tienes una ficha que pega."

    def test_every_message_has_both_languages_with_the_same_fields(self) -> None:
        import string

        for code, texts in MESSAGES.items():
            assert set(texts) == {"es", "en"}, code
            fields = [
                {f for _, f, _, _ in string.Formatter().parse(texts[lang]) if f} for lang in ("es", "en")
            ]
            assert fields[0] == fields[1], code

    def test_a_finished_round_and_game_refuse_with_codes(self) -> None:
        rules = Rules.preset("clasico", players=2, mode="individual", target=1)
        game = Game(rules, seed=4)
        while not game.round.is_over:
            game.apply(game.legal_actions()[0])
        with pytest.raises(IllegalAction) as caught:
            game.round.apply(PASS)
        assert caught.value.code == "round_over"
        with pytest.raises(IllegalAction) as caught:
            game.apply(PASS)
        assert caught.value.code == "game_over"
        assert caught.value.text("en") == "The game is over."
