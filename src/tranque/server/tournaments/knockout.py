"""The minitorneo's bracket: 4, 8 or 16 entrants, knock-out, a final and a third-place game.

Seeds are placed the usual way (1 v n, and 2 in the other half), so the two best seeds can
meet only in the final, 1 and 4 (or 2 and 3) only in a semi-final, and so on. Each round
pairs the winners of neighbouring games; the last round holds the final and the game for third
place between the two semi-finals' losers.

Pure: the machine says who won; this says who plays next.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

SIZES = (4, 8, 16)


def seed_order(size: int) -> list[int]:
    """The 1-based seeds in bracket order: 4 → [1, 4, 2, 3]; 8 → [1, 8, 4, 5, 2, 7, 3, 6]."""
    if size not in SIZES:
        raise ValueError(f"a bracket has {SIZES} entrants, not {size}")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


def bracket(seeds: Sequence[int]) -> list[tuple[int, int]]:
    """Round 1's games, `seeds` being the entrants best first: 1 v n, ... in bracket order."""
    order = seed_order(len(seeds))
    return [(seeds[order[i] - 1], seeds[order[i + 1] - 1]) for i in range(0, len(order), 2)]


def rounds_of(size: int) -> int:
    """How many rounds a bracket of `size` takes: 4 → 2 (semi-finals, final), 8 → 3, 16 → 4."""
    return len(seed_order(size)).bit_length() - 1


def is_final(pairs_in_round: int) -> bool:
    """Whether a round of this many bracket games (counting none for third place) is the final.

    The last round is played as [final, third place]: two games, one of them the final.
    """
    return pairs_in_round == 1


def next_round(
    previous: Sequence[tuple[int, int]], winners: Mapping[tuple[int, int], int]
) -> list[tuple[int, int]]:
    """The next round from the last one's games and their winners (each game's key → its winner).

    Neighbouring games' winners meet, in bracket order. From the semi-finals (two games) the
    answer is the last round: [final, third place], the losers of the semi-finals playing for third.
    """
    if len(previous) < 2 or len(previous) % 2:
        raise ValueError("the final has no next round")
    won = [winners[game] for game in previous]
    for game, winner in zip(previous, won, strict=True):
        if winner not in game:
            raise ValueError(f"{winner} did not play {game}")
    games = [(won[i], won[i + 1]) for i in range(0, len(won), 2)]
    if len(previous) == 2:
        lost = [a if b == w else b for (a, b), w in zip(previous, won, strict=True)]
        games.append((lost[0], lost[1]))
    return games


def podium(final: tuple[int, int], final_winner: int, third: tuple[int, int], third_winner: int) -> list[int]:
    """[1st, 2nd, 3rd] from the final and the third-place game."""
    if final_winner not in final or third_winner not in third:
        raise ValueError("a winner who did not play")
    second = final[1] if final[0] == final_winner else final[0]
    return [final_winner, second, third_winner]
