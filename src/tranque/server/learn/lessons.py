"""The lessons of Aprender, in the path's order (the ids are the contract's, docs/design.md).

Every position is an engine deal (`Round.deal`) and the moves played from it; the tests
(tests/server/learn) play each lesson through the engine: every good path reaches its goal,
every wrong move has its why, every punishing reply is legal. Goals, whys and the rest of
the words are the web client's (js/messages_learn.js, keys `learn.goal.<goal>` and
`learn.why.<why>`).
"""

from __future__ import annotations

from typing import Final, TypedDict

from tranque.engine.tiles import TILES
from tranque.server.learn.steps import Lesson, Step, Turn

SET = tuple(str(tile) for tile in TILES if tile.high <= 6)


def rest(*taken: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """The double-six tiles not in any of `taken`, in the set's order (to fill a deal)."""
    used = {tile for tiles in taken for tile in tiles}
    return tuple(tile for tile in SET if tile not in used)


class Deal(TypedDict):
    hands: tuple[tuple[str, ...], ...]
    boneyard: tuple[str, ...]


def duel(mine: tuple[str, ...], theirs: tuple[str, ...], pozo: tuple[str, ...] = ()) -> Deal:
    """A deal of two hands; the pozo (or the tiles out of play) starts with `pozo`, then the rest."""
    return {"hands": (mine, theirs), "boneyard": pozo + rest(mine, theirs, pozo)}


def _lessons() -> tuple[Lesson, ...]:
    return (
        Lesson(
            "fichas",
            (
                Step(
                    "fichas.heaviest",
                    "clasico",
                    2,
                    **duel(
                        ("6-5", "3-2", "1-0", "4-2", "2-0", "5-1", "3-1"),
                        ("6-6", "5-5", "4-4", "3-3", "2-2", "1-1", "0-0"),
                    ),
                    turns=(Turn(("6-5",), why="fichas.lighter"),),
                ),
                Step(
                    "fichas.double",
                    "clasico",
                    2,
                    **duel(
                        ("5-5", "6-3", "4-1", "2-0", "6-1", "3-0", "5-2"),
                        ("6-6", "6-5", "4-4", "3-3", "2-2", "1-1", "0-0"),
                    ),
                    turns=(Turn(("5-5",), why="fichas.not_double"),),
                ),
            ),
        ),
        Lesson(
            "pegar",
            (
                Step(
                    "pegar.match",
                    "clasico",
                    2,
                    **duel(
                        ("6-1", "4-4", "2-0", "6-6", "1-0", "4-2", "5-2"),
                        ("5-3", "3-3", "6-5", "5-4", "3-1", "2-2", "1-1"),
                    ),
                    starter=1,
                    setup=("5-3",),
                    turns=(Turn(("5-2i",)),),
                ),
                Step(
                    "pegar.right",
                    "clasico",
                    2,
                    **duel(
                        ("3-2", "4-2", "1-1", "0-0", "5-5", "6-6", "1-0"),
                        ("6-3", "6-4", "5-3", "5-1", "3-3", "6-5", "3-1"),
                    ),
                    starter=1,
                    setup=("6-3", "3-2d", "6-4i"),
                    turns=(Turn(("4-2d",), why="pegar.wrong_end"),),
                ),
            ),
        ),
        Lesson(
            "obligado",
            (
                Step(
                    "obligado.must",
                    "clasico",
                    2,
                    **duel(
                        ("4-1", "6-6", "5-5", "3-3", "2-0", "6-2", "5-3"),
                        ("4-4", "6-5", "6-4", "5-4", "4-3", "3-2", "2-1"),
                    ),
                    starter=1,
                    setup=("4-4",),
                    turns=(Turn(("4-1i", "4-1d", "4-1")),),
                ),
            ),
        ),
        Lesson(
            "robar",
            (
                Step(
                    "robar.draw",
                    "clasico",
                    2,
                    **duel(
                        ("5-5", "4-1", "3-0", "2-2", "1-1", "5-2", "4-3"),
                        ("6-6", "6-5", "6-4", "6-3", "6-2", "4-4", "3-3"),
                        pozo=("5-0", "6-1"),
                    ),
                    starter=1,
                    setup=("6-6",),
                    turns=(Turn(("robar",)), Turn(("robar",)), Turn(("6-1i", "6-1d", "6-1"))),
                ),
            ),
        ),
        Lesson(
            "pasar",
            (
                Step(
                    "pasar.pass",
                    "sin-pozo",
                    2,
                    **duel(
                        ("5-5", "4-1", "3-0", "2-2", "1-1", "5-2", "4-3"),
                        ("6-6", "6-5", "6-4", "6-3", "6-2", "4-4", "3-3"),
                    ),
                    starter=1,
                    setup=("6-6",),
                    turns=(Turn(("pasar",)),),
                ),
            ),
        ),
        Lesson(
            "domino-y-tranque",
            (
                Step(
                    "domino.last",
                    "sin-pozo",
                    2,
                    hands=(
                        ("5-0", "6-5", "0-0", "4-3", "6-4", "4-1", "5-2"),
                        ("2-2", "6-6", "2-1", "1-0", "4-2", "3-0", "4-0"),
                    ),
                    boneyard=(
                        "6-0",
                        "5-3",
                        "4-4",
                        "1-1",
                        "3-3",
                        "6-2",
                        "3-2",
                        "3-1",
                        "5-1",
                        "5-5",
                        "6-3",
                        "6-1",
                        "5-4",
                        "2-0",
                    ),
                    setup=(
                        "6-5",
                        "6-6i",
                        "5-0d",
                        "4-0d",
                        "6-4i",
                        "4-2i",
                        "5-2i",
                        "pasar",
                        "4-3d",
                        "3-0d",
                        "0-0d",
                        "1-0d",
                    ),
                    turns=(Turn(("4-1d",)),),
                    ends="domino",
                ),
                Step(
                    "tranque.close",
                    "sin-pozo",
                    2,
                    **duel(
                        ("6-0", "3-1", "4-2", "6-2", "3-0", "2-1", "1-0"),
                        ("5-1", "5-2", "1-1", "4-4", "4-3", "6-4", "5-3"),
                    ),
                    setup=("6-2", "6-4i", "4-2d", "4-4i", "pasar", "4-3i", "3-0i", "pasar"),
                    turns=(Turn(("6-0i",), why="tranque.not_closed"),),
                    ends="tranque",
                ),
            ),
        ),
        Lesson(
            "contar-tranque",
            (
                Step(
                    "contar.lose",
                    "sin-pozo",
                    2,
                    hands=(
                        ("3-0", "4-4", "4-1", "6-6", "5-1", "5-3", "5-2"),
                        ("4-0", "6-1", "5-4", "6-0", "2-2", "4-3", "3-2"),
                    ),
                    boneyard=(
                        "6-4",
                        "1-0",
                        "6-5",
                        "6-3",
                        "0-0",
                        "5-5",
                        "1-1",
                        "2-1",
                        "5-0",
                        "4-2",
                        "6-2",
                        "2-0",
                        "3-3",
                        "3-1",
                    ),
                    starter=1,
                    setup=("5-4", "5-1i", "6-1i", "6-6i", "4-3d", "5-3d", "6-0i", "5-2d", "3-2d"),
                    turns=(Turn(("3-0d",), why="contar.closed_losing"),),
                ),
                Step(
                    "contar.win",
                    "sin-pozo",
                    2,
                    hands=(
                        ("6-3", "4-1", "6-0", "6-5", "5-5", "1-0", "3-2"),
                        ("0-0", "4-0", "6-6", "3-3", "4-2", "5-3", "5-0"),
                    ),
                    boneyard=(
                        "1-1",
                        "5-1",
                        "3-0",
                        "4-3",
                        "4-4",
                        "6-4",
                        "3-1",
                        "2-2",
                        "6-1",
                        "5-4",
                        "5-2",
                        "2-1",
                        "6-2",
                        "2-0",
                    ),
                    setup=("6-5", "6-6i", "6-3i", "5-3i", "5-5i", "5-0i"),
                    turns=(Turn(("6-0i",), why="contar.missed_win"),),
                    ends="tranque",
                ),
            ),
        ),
        Lesson(
            "parejas",
            (
                Step(
                    "parejas.partner",
                    "clasico",
                    4,
                    hands=(
                        ("5-4", "3-1", "6-6", "6-2", "4-2", "2-0", "0-0"),
                        ("4-3", "6-4", "6-3", "4-4", "3-3", "3-2", "3-0"),
                        ("5-5", "6-5", "5-3", "5-2", "5-0", "2-2", "1-1"),
                        ("5-1", "6-1", "6-0", "4-1", "4-0", "2-1", "1-0"),
                    ),
                    starter=2,
                    setup=("5-5", "5-1d"),
                    turns=(Turn(("3-1i",), why="parejas.closed_partner", punish={"5-4d": "4-3d"}),),
                ),
            ),
        ),
        Lesson(
            "salida",
            (
                Step(
                    "salida.six",
                    "clasico",
                    2,
                    **duel(
                        ("6-6", "5-4", "3-3", "2-1", "6-0", "4-2", "1-1"),
                        ("5-5", "6-5", "4-4", "6-3", "3-2", "2-0", "1-0"),
                    ),
                    starter=None,
                    turns=(Turn(("6-6",)),),
                ),
                Step(
                    "salida.highest",
                    "clasico",
                    2,
                    **duel(
                        ("5-5", "6-4", "3-2", "2-0", "6-1", "5-0", "1-0"),
                        ("4-4", "3-3", "6-5", "6-3", "4-1", "2-1", "3-0"),
                        pozo=("6-6",),
                    ),
                    starter=None,
                    turns=(Turn(("5-5",)),),
                ),
            ),
        ),
        Lesson(
            "leer-pases",
            (
                Step(
                    "leer.pass",
                    "sin-pozo",
                    2,
                    **duel(
                        ("3-1", "1-1", "6-4", "2-2", "5-5", "0-0", "3-2"),
                        ("6-3", "4-3", "4-0", "5-4", "5-3", "5-0", "4-2"),
                    ),
                    starter=1,
                    setup=("6-3", "3-1d", "pasar"),
                    turns=(Turn(("1-1d",), why="leer.opened", punish={"6-4i": "4-3i"}),),
                ),
                # Counting: of the seven fives, five are on the table (6-5, 5-0, 5-1, 5-4,
                # 5-3) and the learner holds the other two (5-5, 5-2). Nobody else has a 5,
                # so the 5-2 laid on the 2 shows a 5 at both ends and the opponent passes;
                # the mula (or the 5-2 on the 5) leaves a 2 at an end, and the 6-2 fits.
                Step(
                    "leer.count",
                    "sin-pozo",
                    2,
                    **duel(
                        ("6-0", "5-0", "5-4", "4-2", "5-5", "5-2", "4-3"),
                        ("6-5", "5-1", "3-1", "5-3", "6-2", "3-3", "1-0"),
                    ),
                    setup=("6-0", "6-5i", "5-0d", "5-1i", "5-4d", "3-1i", "4-2d", "5-3i"),
                    turns=(
                        Turn(
                            ("5-2d",),
                            why="leer.count_open",
                            whys={"5-2i": "leer.count_end"},
                            punish={"5-5i": "6-2d", "5-2i": "6-2i"},
                        ),
                    ),
                ),
            ),
        ),
        Lesson(
            "ponce",
            (
                Step(
                    "ponce.passes",
                    "ponce",
                    4,
                    hands=(
                        ("3-0", "3-3", "2-2", "4-3", "5-5", "3-2", "6-5"),
                        ("5-1", "5-3", "4-4", "6-2", "4-0", "6-6", "4-1"),
                        ("1-1", "5-4", "3-1", "5-2", "6-4", "6-1", "1-0"),
                        ("6-0", "2-1", "4-2", "6-3", "2-0", "5-0", "0-0"),
                    ),
                    starter=3,
                    setup=("6-3", "6-5i", "5-3i", "3-1i", "2-1i"),
                    turns=(Turn(("3-2i",), why="ponce.no_pass"),),
                ),
            ),
        ),
        Lesson(
            "futbol",
            (
                Step(
                    "futbol.goal",
                    "futbol",
                    2,
                    hands=(
                        ("3-3", "6-4", "4-2", "2-1", "3-0", "4-1", "5-2", "6-5", "0-0", "1-0", "5-5", "1-1"),
                        ("2-2", "6-3", "6-0", "4-0", "3-2", "5-0", "4-3", "3-1", "5-3", "5-4", "2-0", "5-1"),
                    ),
                    boneyard=("6-6", "6-1", "4-4", "6-2"),
                    setup=(
                        "0-0",
                        "6-0i",
                        "6-5i",
                        "5-4i",
                        "6-4i",
                        "6-3i",
                        "3-0i",
                        "5-0i",
                        "5-5i",
                        "5-3i",
                        "3-3i",
                        "4-3i",
                        "4-2i",
                        "3-2i",
                        "1-0d",
                        "5-1d",
                        "5-2d",
                        "3-1i",
                        "2-1d",
                        "pasar",
                        "1-1i",
                        "pasar",
                    ),
                    turns=(Turn(("4-1i",)),),
                    ends="domino",
                ),
            ),
        ),
        Lesson(
            "en-contra",
            (
                Step(
                    "en_contra.heavy",
                    "en-contra",
                    2,
                    hands=(
                        ("4-4", "5-4", "5-0", "2-2", "2-1", "6-0", "4-2"),
                        ("5-2", "3-2", "6-6", "4-0", "6-4", "4-3", "6-1"),
                    ),
                    boneyard=(
                        "3-0",
                        "5-3",
                        "1-0",
                        "6-3",
                        "5-5",
                        "5-1",
                        "6-5",
                        "3-1",
                        "3-3",
                        "4-1",
                        "0-0",
                        "6-2",
                        "1-1",
                        "2-0",
                    ),
                    starter=1,
                    setup=(
                        "6-6",
                        "6-0i",
                        "6-4d",
                        "5-4d",
                        "5-2d",
                        "4-2d",
                        "4-3d",
                        "5-0i",
                        "3-2d",
                        "2-2d",
                        "robar",
                        "robar",
                        "5-3i",
                        "2-1d",
                        "6-1d",
                        "robar",
                        "robar",
                        "6-3i",
                        "robar",
                        "robar",
                        "robar",
                        "6-5i",
                        "robar",
                        "robar",
                        "robar",
                        "robar",
                        "robar",
                        "6-2d",
                        "5-5i",
                        "robar",
                        "robar",
                        "2-0d",
                        "5-1i",
                        "1-0d",
                        "pasar",
                        "4-1i",
                        "4-0i",
                    ),
                    turns=(
                        Turn(("3-1d",), why="en_contra.kept_heavy", punish={"0-0i": "3-0i", "1-1d": "3-0i"}),
                    ),
                ),
            ),
        ),
        Lesson(
            "maracucho",
            (
                Step(
                    "maracucho.alone",
                    "maracucho",
                    4,
                    hands=(
                        ("4-4", "6-0", "5-1", "2-1", "0-0", "6-5", "6-3"),
                        ("3-1", "4-0", "6-2", "2-2", "4-1", "5-2", "5-4"),
                        ("5-5", "2-0", "1-1", "3-2", "3-3", "6-4", "1-0"),
                        ("4-2", "6-1", "6-6", "5-3", "4-3", "5-0", "3-0"),
                    ),
                    starter=2,
                    setup=(
                        "6-4",
                        "6-6i",
                        "6-5i",
                        "5-4i",
                        "pasar",
                        "4-3i",
                        "6-3i",
                        "6-2i",
                        "3-2i",
                        "5-3i",
                        "4-4d",
                        "5-2i",
                        "2-0i",
                        "4-2d",
                        "6-0i",
                        "2-2d",
                        "pasar",
                        "6-1i",
                    ),
                    turns=(Turn(("2-1i",), why="maracucho.not_closed"),),
                    ends="tranque",
                ),
            ),
        ),
        Lesson(
            "salon",
            (
                Step(
                    "salon.tie",
                    "salon",
                    4,
                    hands=(
                        ("2-0", "3-1", "5-1", "5-5", "4-0", "6-3", "3-2"),
                        ("2-1", "5-3", "4-3", "2-2", "5-0", "6-6", "3-0"),
                        ("6-0", "5-2", "4-4", "0-0", "4-1", "6-1", "3-3"),
                        ("4-2", "1-0", "1-1", "6-2", "6-5", "6-4", "5-4"),
                    ),
                    setup=(
                        "5-5",
                        "5-3i",
                        "5-2d",
                        "6-2d",
                        "6-3i",
                        "6-6i",
                        "6-1i",
                        "6-5d",
                        "5-1i",
                        "5-0i",
                        "6-0i",
                        "6-4i",
                        "4-0i",
                        "3-0i",
                        "3-3i",
                        "5-4d",
                        "3-1i",
                        "4-3d",
                        "4-1i",
                        "4-2i",
                    ),
                    turns=(Turn(("3-2i",), why="salon.not_closed"),),
                    ends="tranque",
                ),
            ),
        ),
    )


LESSONS: Final[tuple[Lesson, ...]] = _lessons()
BY_ID: Final[dict[str, Lesson]] = {lesson.id: lesson for lesson in LESSONS}
IDS: Final[tuple[str, ...]] = tuple(BY_ID)
