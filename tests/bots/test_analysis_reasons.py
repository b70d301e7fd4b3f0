"""The reasons the analysis gives a flagged move (tranque.bots.reasons): each given when its
condition holds and not when it does not, on positions built through the engine."""

from __future__ import annotations

from collections.abc import Iterator

from tranque import Game, Round, Rules
from tranque.bots import make_bot
from tranque.bots.analysis import evaluate
from tranque.bots.arena import play_out
from tranque.bots.reasons import LESSONS, RoundEnding, ending_of, reasons, stranded
from tranque.engine import Action, Play, PlayerView
from tranque.engine.tiles import BIT, Tile

PAIRS = Rules.preset("clasico")  # 4 in pairs, every tile dealt, no pozo

# Seats 0 and 2 against 1 and 3. Seat 1 holds no 6 and no 5.
HANDS = [
    ["6-6", "6-3", "4-4", "1-0", "2-0", "5-0", "0-0"],
    ["1-1", "2-1", "2-2", "3-1", "3-2", "3-3", "4-0"],
    ["6-5", "5-5", "5-3", "5-2", "5-1", "3-0", "4-3"],
    ["5-4", "6-4", "6-2", "6-1", "6-0", "4-1", "4-2"],
]


def play(rnd: Round, tile: str, end: int | None = None) -> None:
    """Seat to act plays `tile` on the end showing `end` (or the only place it fits)."""
    wanted = Tile.parse(tile)
    options = [a for a in rnd.legal_actions() if isinstance(a, Play) and a.tile == wanted]
    if end is not None and len(options) > 1:
        ends = rnd.ends
        assert ends is not None
        options = [a for a in options if (ends[0] if a.side.value == "left" else ends[1]) == end]  # type: ignore[union-attr]
    rnd.apply(options[0])


def action(view: PlayerView, tile: str) -> Action:
    return next(a for a in view.legal_actions if isinstance(a, Play) and a.tile == Tile.parse(tile))


def kinds(found: list) -> set[str]:  # type: ignore[type-arg]
    return {reason.kind for reason in found}


def opened() -> Round:
    """6-6 led by seat 0, seat 1 passes (no 6), seat 2 plays 6-5."""
    rnd = Round.deal(PAIRS, HANDS, first=True)
    play(rnd, "6-6")
    rnd.apply(rnd.legal_actions()[0])  # seat 1: pass
    play(rnd, "6-5")
    return rnd


def test_ignored_pass_is_given_when_the_best_kept_the_number_an_opponent_passed_on() -> None:
    rnd = opened()
    play(rnd, "5-4", 5)  # seat 3 covers the 5: the ends are 6 and 4
    view = rnd.view(0)
    assert sorted(view.ends or ()) == [4, 6]
    covered, kept = action(view, "6-3"), action(view, "4-4")
    given = reasons(view, covered, kept)
    assert [r.to_json() for r in given if r.kind == "ignored_pass"] == [
        {"kind": "ignored_pass", "params": {"number": 6, "seat": 1}, "lesson": "leer-pases"}
    ]
    # The move that kept the 6 is not told it ignored the pass.
    assert "ignored_pass" not in kinds(reasons(view, kept, covered))


def test_closed_partner_number_is_given_when_the_move_covered_what_the_partner_showed() -> None:
    rnd = opened()  # seat 2 (seat 0's partner) left the 5 showing with its 6-5
    play(rnd, "6-4", 6)  # seat 3 plays on the 6: the ends are 4 and 5
    view = rnd.view(0)
    assert sorted(view.ends or ()) == [4, 5]
    covering, keeping = action(view, "5-0"), action(view, "4-4")
    given = [r for r in reasons(view, covering, keeping) if r.kind == "closed_partner_number"]
    assert [r.params for r in given] == [{"number": 5}] and given[0].lesson == "parejas"
    assert "closed_partner_number" not in kinds(reasons(view, keeping, covering))


def positions(rules: Rules, seeds: range) -> Iterator[tuple[Round, PlayerView, RoundEnding | None]]:
    """Every unforced position of games of random bots, which make every kind of mistake (the
    real round before the move, the mover's view, how the round ended)."""
    for seed in seeds:
        game = play_out(
            Game(rules, seed=seed), [make_bot("random", seed=seed * 8 + s) for s in range(rules.players)]
        )
        deals = [(r.dealt_hands, r.dealt_boneyard) for r in game.rounds]
        again = Game(rules, deals=deals, first_starter=game.first_starter)
        for round_number, seat, played in game.actions:
            while again.round_number < round_number:
                again.start_next_round()
            view = again.view(seat)
            if len(view.legal_actions) > 1:
                yield again.rounds[-1].copy(), view, ending_of(game.rounds[round_number])
            again.apply(played, seat=seat)


def find(
    kind: str, rules: Rules, **extra: object
) -> tuple[PlayerView, Action, Action, Round, RoundEnding | None]:
    for rnd, view, ending in positions(rules, range(60)):
        for played in view.legal_actions:
            for best in view.legal_actions:
                if played != best and kind in kinds(
                    reasons(view, played, best, round_=rnd, ending=ending, **extra)  # type: ignore[arg-type]
                ):
                    return view, played, best, rnd, ending
    raise AssertionError(f"no position of {kind} found")


def test_left_number_alone_is_given_when_the_move_strands_a_tile_and_the_best_does_not() -> None:
    # Every 4 but the 4-4 and the 4-0 is on the table and one end shows a 4: covering it with
    # the 4-0 leaves the 4-4 with nowhere to go; the 4-4 on the 4 strands nothing.
    table = sum(BIT[Tile.parse(t).index] for t in ("4-1", "4-2", "4-3", "4-5", "4-6", "1-1", "2-2"))
    hand = BIT[Tile.parse("4-4").index] | BIT[Tile.parse("4-0").index]
    after_cover = hand & ~BIT[Tile.parse("4-0").index]
    assert stranded(after_cover, (0, 3), table | BIT[Tile.parse("4-0").index], PAIRS.set_mask) == [
        Tile.parse("4-4").index
    ]
    assert (
        stranded(
            hand & ~BIT[Tile.parse("4-4").index], (4, 3), table | BIT[Tile.parse("4-4").index], PAIRS.set_mask
        )
        == []
    )
    # While a 4 is still out of sight (4-6 unplayed), the 4-4 may yet be played: not stranded.
    assert stranded(after_cover, (0, 3), table & ~BIT[Tile.parse("4-6").index], PAIRS.set_mask) == []


def test_missed_winning_tranque_is_given_when_the_best_closed_a_tranque_the_side_wins() -> None:
    view, played, best, rnd, ending = find("missed_winning_tranque", PAIRS)
    trial = rnd.copy()
    assert view.seat is not None
    trial.apply(best, seat=view.seat)
    result = trial.result
    assert result is not None and result.kind.value == "tranque" and result.winner == PAIRS.team_of(view.seat)
    assert "missed_winning_tranque" not in kinds(reasons(view, best, played, round_=rnd, ending=ending))


def test_kept_heavy_into_tranque_is_given_only_when_the_round_was_lost_in_a_tranque_with_the_tile() -> None:
    view, played, best, rnd, ending = find("kept_heavy_into_tranque", PAIRS)
    assert ending is not None and ending.tranque and isinstance(best, Play) and best.tile.pips >= 10
    assert view.seat is not None and ending.hands[view.seat] & BIT[best.tile.index]
    # The same move, had the round been won or not ended in a tranque: not given.
    won = RoundEnding(True, PAIRS.team_of(view.seat), ending.hands)
    dominated = RoundEnding(False, ending.winner, ending.hands)
    for other in (won, dominated, None):
        assert "kept_heavy_into_tranque" not in kinds(reasons(view, played, best, round_=rnd, ending=other))


def test_missed_domino_is_given_only_when_the_best_went_out_for_sure_and_the_move_did_not() -> None:
    for _, view, _ in positions(PAIRS, range(60)):
        if len(view.hand) != 2:
            continue
        evaluation = evaluate(view, deals=200)
        sure = {a: evaluation.sure_domino(a) for a in evaluation.actions}
        going_out = [a for a in evaluation.actions if sure[a]]
        not_out = [a for a in evaluation.actions if not sure[a]]
        if going_out and not_out:
            break
    else:
        raise AssertionError("no position with a sure dominó found")
    assert evaluation.exact and evaluation.complete  # every consistent deal was solved
    best, played = going_out[0], not_out[0]
    (reason,) = [
        r
        for r in reasons(view, played, best, sure_domino=(sure[best], sure[played]))
        if r.kind == "missed_domino"
    ]
    assert isinstance(best, Play) and reason.params == {"tile": str(best.tile)}
    assert reason.lesson == "domino-y-tranque"
    assert "missed_domino" not in kinds(reasons(view, best, played, sure_domino=(sure[played], sure[best])))
    for both in ((True, True), (False, False)):
        assert "missed_domino" not in kinds(reasons(view, played, best, sure_domino=both))


def test_left_number_alone_is_given_in_a_played_position_and_not_for_the_move_that_avoids_it() -> None:
    view, played, best, rnd, ending = find("left_number_alone", PAIRS)
    (reason,) = [
        r for r in reasons(view, played, best, round_=rnd, ending=ending) if r.kind == "left_number_alone"
    ]
    number = reason.params["number"]
    assert any(number in (t.high, t.low) for t in view.hand), "the stranded tile is the mover's"
    assert "left_number_alone" not in kinds(reasons(view, best, played, round_=rnd, ending=ending))


def test_every_kind_has_its_lesson() -> None:
    assert LESSONS == {
        "missed_domino": "domino-y-tranque",
        "missed_winning_tranque": "contar-tranque",
        "closed_partner_number": "parejas",
        "ignored_pass": "leer-pases",
        "left_number_alone": "leer-pases",
        "kept_heavy_into_tranque": "contar-tranque",
    }
