"""The fichas' rules (pure): the stake levels, and what a game's end moves (`settle`).

At a game's end the pot (every seat's stake) goes:

- a game played to its end and rated: to the winners, less the bank's cut (`cut_share` of the
  pot, rounded down), split evenly between partners; the chips an uneven split leaves over go
  to the bank with the cut;
- a game left unrated by the same-address or bot rules (`table_rating.unrated_reason`): every
  stake back, no cut (nobody feeds a friend through a game that does not count);
- an annulled game: every stake back, except the stake of a player penalised for abandoning,
  which goes to the bank («excepto si han sido penalizados por abandono»).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from fractions import Fraction

from tranque.server.fichas.ledger import BANK, Kind, Movement, account

BANK_CUT = 0.40  # the bank's share of a pot unless the site sets another (`fichas_bank_cut`)


def valid_stake(amount: int, levels: Sequence[int]) -> bool:
    """Whether `amount` is one of the site's stake levels (0: no stake).

    >>> valid_stake(50, (0, 10, 50)), valid_stake(-10, (0, 10, 50)), valid_stake(20, (0, 10, 50))
    (True, False, False)
    """
    return isinstance(amount, int) and not isinstance(amount, bool) and amount >= 0 and amount in levels


def cut_of(pot: int, cut_share: float) -> int:
    """The bank's cut of a pot: `cut_share` of it, rounded down (exact: no float error).

    >>> cut_of(100, 0.4), cut_of(15, 0.4), cut_of(0, 0.4)
    (40, 6, 0)
    """
    return int(Fraction(str(cut_share)) * pot)


def settle(
    pot: str,
    ref: str,
    stakes: Mapping[int, int],
    winners: Sequence[int],
    cut_share: float,
    *,
    rated: bool,
    annulled: bool,
    abandoners: Collection[int] = (),
    at: float = 0.0,
) -> list[Movement]:
    """The movements that empty the pot `pot` (holder) of game `ref` at its end. `stakes`: what
    each account has in the pot; `winners`: the winning side's accounts (one, or two partners);
    `abandoners`: accounts penalised for abandoning. Every key is unique per game and account,
    so settling again (a retried end) moves nothing twice.

    >>> [(m.kind.value, m.destination, m.amount) for m in settle("pot:t.1", "t.1", {1: 50, 2: 50},
    ...     [1], 0.4, rated=True, annulled=False)]
    [('payout', 'account:1', 60), ('cut', 'bank', 40)]
    """
    total = sum(stakes.values())
    staked = {user_id: amount for user_id, amount in stakes.items() if amount > 0}
    if total == 0:
        return []
    if annulled:
        return [
            _move(f"forfeit:{ref}:{user_id}", pot, BANK, amount, Kind.FORFEIT, user_id, ref, at)
            if user_id in abandoners
            else _move(
                f"refund:{ref}:{user_id}", pot, account(user_id), amount, Kind.REFUND, user_id, ref, at
            )
            for user_id, amount in sorted(staked.items())
        ]
    paid = sorted({user_id for user_id in winners if user_id in staked})
    if not rated or not paid:
        return [
            _move(f"refund:{ref}:{user_id}", pot, account(user_id), amount, Kind.REFUND, user_id, ref, at)
            for user_id, amount in sorted(staked.items())
        ]
    share = (total - cut_of(total, cut_share)) // len(paid)
    out = [
        _move(f"payout:{ref}:{user_id}", pot, account(user_id), share, Kind.PAYOUT, user_id, ref, at)
        for user_id in paid
        if share > 0
    ]
    bank = total - share * len(paid)
    if bank > 0:
        out.append(_move(f"cut:{ref}", pot, BANK, bank, Kind.CUT, None, ref, at))
    return out


PRIZE_SHARES = (5, 3, 2)  # how a tournament's prize pool is shared between the podium's places


def prizes(
    pool_holder: str,
    tournament_id: str,
    ref: str,
    pool: int,
    podium: Sequence[Sequence[int]],
    cut_share: float,
    at: float = 0.0,
) -> list[Movement]:
    """The movements that empty a tournament's pool: the bank's cut, then each podium place
    (its accounts: one, or partners) its share of the rest (`PRIZE_SHARES`, over the places
    there are), split between partners; what rounding leaves over goes to the bank.

    >>> [(m.kind.value, m.destination, m.amount) for m in prizes("pot:tournament:x", "x",
    ...     "tournament:x", 100, [[1], [2]], 0.4)]
    [('prize', 'account:1', 37), ('prize', 'account:2', 22), ('cut', 'bank', 41)]
    """
    places = [place for place in podium[: len(PRIZE_SHARES)] if place]
    if pool <= 0:
        return []
    rest = pool - cut_of(pool, cut_share)
    weights = PRIZE_SHARES[: len(places)]
    out = []
    for number, (place, weight) in enumerate(zip(places, weights, strict=True), start=1):
        share = rest * weight // sum(weights) // len(place)
        for user_id in sorted(place):
            if share > 0:
                key = f"prize:{tournament_id}:{number}:{user_id}"
                out.append(_move(key, pool_holder, account(user_id), share, Kind.PRIZE, user_id, ref, at))
    bank = pool - sum(movement.amount for movement in out)
    if bank > 0:
        out.append(_move(f"cut:{ref}", pool_holder, BANK, bank, Kind.CUT, None, ref, at))
    return out


def _move(
    key: str, source: str, destination: str, amount: int, kind: Kind, user_id: int | None, ref: str, at: float
) -> Movement:
    return Movement(key, source, destination, amount, kind, user_id, ref, at)
