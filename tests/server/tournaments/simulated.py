"""Seeded simulated tournaments for the machine's tests: synthetic `GameOutcome`s (random
scores, some no-shows, some annulments) fed to a `Tournament` the way the director would,
checking at every step what must always hold."""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import dataclass, field
from typing import Any

from tranque.server.table.outcome import GameOutcome, SeatOutcome
from tranque.server.tournaments.config import Format, TournamentConfig
from tranque.server.tournaments.machine import (
    CreateTable,
    Effect,
    PlannedGame,
    Status,
    Tournament,
)


@dataclass
class Chances:
    no_show: float = 0.0  # each person's seat, each game
    annulled: float = 0.0
    absentees: frozenset[int] = frozenset()  # accounts that never show


def outcome(
    tournament: Tournament, game: PlannedGame, rng: random.Random, chances: Chances, now: float
) -> GameOutcome:
    """A made-up end of `game`: a random winner well over the target, some no-shows."""
    config = tournament.config
    seats = tuple(
        SeatOutcome(
            seat=s.seat,
            team=s.seat % 2,
            user_id=s.account,
            bot_level=s.bot_level,
            no_show=s.account is not None
            and (s.account in chances.absentees or rng.random() < chances.no_show),
            abandoned=False,
        )
        for s in game.seats
    )
    annulled = rng.random() < chances.annulled
    target = config.target
    hands: tuple[tuple[int, ...], ...] = ()
    if config.format is Format.DUPLICADO:
        per_hand = []
        for _ in range(config.hands):
            points = rng.randint(0, 40)
            per_hand.append((points, 0) if rng.random() < 0.5 else (0, points))
        hands = tuple(per_hand)
        scores = (sum(h[0] for h in hands), sum(h[1] for h in hands))
        best = max(scores)
        winners = tuple(team for team, score in enumerate(scores) if score == best)
    else:
        winner = rng.randrange(2)
        scores_list = [rng.randrange(target), rng.randrange(target)]
        scores_list[winner] = target + rng.randrange(40)
        scores = (scores_list[0], scores_list[1])
        winners = (winner,)
    if annulled:
        winners = ()
    return GameOutcome(
        table_id=game.table_id,
        annulled=annulled,
        scores=scores,
        target=target,
        winners=winners,
        reason="annulled" if annulled else "target",
        seats=seats,
        hands=hands,
        ended_at=now,
    )


def round_trip(tournament: Tournament) -> Tournament:
    """The tournament through JSON text and back; the document must come back the same."""
    doc = tournament.to_json()
    text = json.dumps(doc, sort_keys=True, allow_nan=False)  # strict JSON: PostgreSQL takes no NaN
    again = Tournament.from_json(json.loads(text))
    assert again.to_json() == doc
    assert json.dumps(again.to_json(), sort_keys=True) == text
    return again


@dataclass
class Run:
    tournament: Tournament
    effects: list[Effect] = field(default_factory=list)
    paired: list[tuple[int, set[int], list[int]]] = field(default_factory=list)  # round, active, seated+byes
    now: float = 0.0

    def of(self, kind: type[Any]) -> list[Any]:
        return [effect for effect in self.effects if isinstance(effect, kind)]


def drive(
    tournament: Tournament,
    seed: int,
    chances: Chances | None = None,
    start: float = 0.0,
    one_at_a_time: bool = False,
    most_steps: int = 2000,
) -> Run:
    """Step and record until the tournament is over, as a director would: step, create the
    tables (`mark_playing`), record the finished games, step again. Checks on the way that
    step and record are idempotent and the document round-trips through JSON."""
    chances = chances or Chances()
    rng = random.Random(seed)
    pair_rng = random.Random(seed + 1)
    ids = itertools.count(1)
    run = Run(tournament, now=start)
    t = tournament
    for _ in range(most_steps):
        rounds_before = len(t.rounds)
        effects = t.step(run.now, pair_rng, lambda: f"table-{next(ids)}")
        run.effects += effects
        doc = t.to_json()
        assert t.step(run.now, pair_rng, lambda: f"table-{next(ids)}") == [], "a second step did something"
        assert t.to_json() == doc
        t = run.tournament = round_trip(t)
        if len(t.rounds) > rounds_before and t.config.format is not Format.ARENA:
            plan = t.rounds[-1]
            per_entrant = t.config.players_per_entrant
            active_before = {
                e.no
                for e in t.entrants
                if e.status == "active"
                and e.no > 0
                and e.joined_round <= plan.number
                and len(e.names) == per_entrant
            }
            seated = [no for game in plan.games for side in game.sides for no in side] + plan.byes
            run.paired.append((plan.number, active_before, seated))
        for create in (e for e in effects if isinstance(e, CreateTable)):
            t.mark_playing(create.game.key, run.now)
        if t.status in (Status.FINISHED, Status.CANCELLED):
            return run
        playing = [g for g in t.games() if g.state != "done"]
        if not playing:
            wake = t.wake_at()
            assert wake is not None and wake > run.now, "nothing to play and nothing to wait for"
            run.now = wake
            continue
        if one_at_a_time:
            playing = playing[:1]
        for game in playing:
            run.now += 60.0
            made = outcome(t, game, rng, chances, run.now)
            recorded = t.record(game.key, made, run.now)
            run.effects += recorded
            doc = t.to_json()
            assert t.record(game.key, made, run.now + 1) == [], "a second record did something"
            assert t.to_json() == doc
    raise AssertionError("the tournament never ended")


def field_of(config: TournamentConfig, people: int, start: float = 0.0, rated: bool = True) -> Tournament:
    """A tournament with `people` registered (accounts 1.., ratings falling), creator 1000."""
    t = Tournament.new("tour-1", config, creator=1000, now=start)
    for account in range(1, people + 1):
        t.register(account, f"jugador{account}", 1800 - 10 * account, start)
    return t
