"""What a lesson of Aprender is made of: `Lesson`, its `Step`s and each step's `Turn`s.

A step is a prepared position — a deal the engine deals (`Round.deal`) and the moves played
from it before the learner acts — and the learner's turns in it. At each turn some moves
meet the goal (`good`); any other move the rules allow misses it, and says why (`why`, a
message key of the web client's, with parameters) and, where there is one, the reply that
punishes it (`punish`: the next player's move, an engine move the tests check is legal). A
move the rules refuse is answered with the engine's own refusal. Between the learner's
turns the other seats answer with `replies` in order, then with R15's move
(`Round.timeout_action`): the engine's choice, never a rule of this package.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tranque.engine import Action, Round, Rules


@dataclass(frozen=True)
class Turn:
    """One move the learner makes: the moves that meet the goal, what any other says."""

    good: tuple[str, ...]
    why: str = ""  # message key for a legal move that misses the goal ("" when all are good)
    whys: dict[str, str] = field(default_factory=dict)  # a key of its own for some moves
    punish: dict[str, str] = field(default_factory=dict)  # wrong move → the reply to it

    def why_of(self, move: str) -> str:
        return self.whys.get(move, self.why)


@dataclass(frozen=True)
class Step:
    """A prepared position and the learner's turns in it (seat 0 is always the learner)."""

    goal: str  # message key of the goal, one sentence: "learn.goal.<goal>"
    preset: str
    players: int
    hands: tuple[tuple[str, ...], ...]
    boneyard: tuple[str, ...] = ()
    starter: int | None = 0  # None: the game's first round (R6 picks the lead)
    setup: tuple[str, ...] = ()  # moves from the deal until the learner's first turn
    turns: tuple[Turn, ...] = ()
    replies: tuple[str, ...] = ()  # the others' moves between the learner's, in order
    ends: str | None = None  # how the round stands when the goal is met: domino | tranque | None
    params: dict[str, Any] = field(default_factory=dict)  # for the goal's sentence

    @property
    def rules(self) -> Rules:
        return Rules.preset(self.preset, players=self.players)

    def deal(self) -> Round:
        """The round at the learner's first turn: dealt, and the setup played."""
        rules = self.rules
        if self.starter is None:
            round_ = Round.deal(rules, self.hands, self.boneyard, first=True)
        else:
            round_ = Round.deal(rules, self.hands, self.boneyard, starter=self.starter)
        for move in self.setup:
            round_.apply(Action.parse(move))
        return round_


@dataclass(frozen=True)
class Lesson:
    id: str
    steps: tuple[Step, ...]

    @property
    def par(self) -> int:
        """The fewest moves that finish the lesson: one per turn of every step."""
        return sum(len(step.turns) for step in self.steps)


LEARNER = 0


def stars(par: int, tries: int) -> int:
    """Stars for finishing a lesson of `par` moves in `tries` (every move tried counts):
    3 at par, 2 with up to two moves more, else 1.

    >>> stars(3, 3), stars(3, 5), stars(3, 6)
    (3, 2, 1)
    """
    if tries <= par:
        return 3
    return 2 if tries <= par + 2 else 1
