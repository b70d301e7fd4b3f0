"""`Fichas`: the fichas' rules over the store, the app's one object (`ServerState.fichas`).

- An account gets `fichas_grant` once (`grant_if_new`, when it is made; again asked for when
  its balance is read, for an account made while fichas were off) and, once a Bogotá day, is
  topped up to `fichas_floor` when below it (`refill`: at login and whenever its balance is read).
- Sitting at a staked table moves the stake from the account to the game's pot (`stake`: a
  conditional debit, so two tabs racing with one balance never both sit); leaving before the
  game started moves it back (`unstake`). The game's end empties the pot in the same transaction
  as its result (players/recorder.py, with `rules.settle`).
- Every refusal is a `FichasError` (refusals.py) and moves nothing. With `enabled` off, no
  stake, pot, balance or refill: the reads and stakes answer ``fichas_off``, the grants and
  refills do nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from tranque.engine.messages import OneOf
from tranque.server.fichas import ledger, rules
from tranque.server.fichas.errors import FichasError
from tranque.server.fichas.ledger import GRANTS, Books, Kind, Movement
from tranque.server.store.fichas import FichasShort, FichasStore

HISTORY_MOST = 100  # movements one page of a history shows at most


class _Clock(Protocol):
    def now(self) -> float: ...


class FichasSettings(Protocol):
    """What `Fichas` reads of the site's settings (settings.py `Settings` has it all)."""

    @property
    def clock(self) -> _Clock: ...
    @property
    def fichas_enabled(self) -> bool: ...
    @property
    def fichas_grant(self) -> int: ...
    @property
    def fichas_floor(self) -> int: ...
    @property
    def fichas_stakes(self) -> tuple[int, ...]: ...
    @property
    def fichas_bank_cut(self) -> float: ...


class Fichas:
    """The fichas' rules over the store, with the site's settings."""

    def __init__(self, store: FichasStore, settings: FichasSettings) -> None:
        self.store = store
        self.clock = settings.clock
        self.enabled = settings.fichas_enabled
        self.grant = settings.fichas_grant
        self.floor = settings.fichas_floor
        self.stakes = tuple(settings.fichas_stakes)
        self.bank_cut = settings.fichas_bank_cut

    def _on(self) -> None:
        if not self.enabled:
            raise FichasError("fichas_off", status=404)

    def check_stake(self, amount: int) -> None:
        """`fichas_bad_stake` unless `amount` is one of the levels (0: none); `fichas_off` for
        any stake when fichas are off."""
        if amount == 0 and not isinstance(amount, bool):
            return
        self._on()
        if not rules.valid_stake(amount, self.stakes):
            raise FichasError("fichas_bad_stake", status=400, levels=OneOf(s for s in self.stakes if s > 0))

    def check_table_stake(self, amount: int, competitive: bool) -> None:
        """`check_stake`, and `fichas_stake_not_allowed` for a stake at a table that is not
        competitive (a practice table never is)."""
        self.check_stake(amount)
        if amount and not competitive:
            raise FichasError("fichas_stake_not_allowed", status=400)

    # Balances -------------------------------------------------------------------------------

    async def grant_if_new(self, user_id: int, at: float | None = None) -> Movement | None:
        """Give a new account its `fichas_grant`, once (by key); None if it had it already or
        fichas are off."""
        if not self.enabled or self.grant <= 0:
            return None
        now = self.clock.now() if at is None else at
        movement = Movement(
            ledger.grant_key(user_id),
            GRANTS,
            ledger.account(user_id),
            self.grant,
            Kind.GRANT,
            user_id,
            "",
            now,
        )
        written = await self.store.move_fichas([movement])
        return written[0] if written else None

    async def refill(self, user_id: int, now: float | None = None) -> Movement | None:
        """Top the account up to the floor, once a Bogotá day (and grant it first if it never
        was); the refill, or None."""
        if not self.enabled:
            return None
        at = self.clock.now() if now is None else now
        if await self.store.ficha_movement(ledger.grant_key(user_id)) is None:
            await self.grant_if_new(user_id, at)
        if self.floor <= 0 or await self.store.ficha_balance(ledger.account(user_id)) >= self.floor:
            return None
        return await self.store.refill_fichas(
            user_id, self.floor, ledger.refill_key(user_id, ledger.bogota_day(at)), at
        )

    async def balance(self, user_id: int) -> int:
        """The account's balance, after its refill for the day."""
        self._on()
        await self.refill(user_id)
        return await self.store.ficha_balance(ledger.account(user_id))

    async def history(self, user_id: int, limit: int = 50, before: int | None = None) -> list[Movement]:
        """The account's movements, newest first (`before`: a serial, the next page)."""
        self._on()
        return await self.store.ficha_history(user_id, max(1, min(limit, HISTORY_MOST)), before)

    async def books(self) -> Books:
        return await self.store.ficha_books()

    # Tables ---------------------------------------------------------------------------------

    async def pot(self, table_id: str, game_number: int) -> int:
        """What the game's pot holds."""
        return await self.store.ficha_balance(ledger.pot(table_id, game_number))

    async def game_stakes(self, table_id: str, game_number: int) -> dict[int, int]:
        """What each account has in the game's pot (stakes less unstakes)."""
        return ledger.stakes_in(await self.store.ficha_movements_of(ledger.game_ref(table_id, game_number)))

    async def stake(self, user_id: int, table_id: str, game_number: int, seat: int, amount: int) -> None:
        """Move `amount` from the account to the game's pot as it sits at `seat`; nothing if it
        has its stake there already (a second tab, a reconnection). `fichas_not_enough` (with
        `need` and `have`) if its balance does not cover it: nothing moved."""
        self.check_stake(amount)
        if amount == 0:
            return
        await self.refill(user_id)
        ref = ledger.game_ref(table_id, game_number)
        base = ledger.stake_key(table_id, game_number, seat, user_id)
        back = ledger.unstake_key(table_id, game_number, seat, user_id)
        staked, count = _sittings(await self.store.ficha_movements_of(ref), base, back)
        if staked:
            return
        key = base if count == 0 else f"{base}#{count + 1}"
        movement = Movement(
            key,
            ledger.account(user_id),
            ledger.pot(table_id, game_number),
            amount,
            Kind.STAKE,
            user_id,
            ref,
            self.clock.now(),
        )
        try:
            await self.store.move_fichas([movement])
        except FichasShort as short:
            raise FichasError("fichas_not_enough", need=amount, have=short.have) from None

    async def unstake(self, user_id: int, table_id: str, game_number: int, seat: int) -> int:
        """The account left `seat` before the game started: its stake back from the pot (what
        came back; 0 if it had none there). Idempotent."""
        ref = ledger.game_ref(table_id, game_number)
        base = ledger.stake_key(table_id, game_number, seat, user_id)
        back = ledger.unstake_key(table_id, game_number, seat, user_id)
        staked, count = _sittings(await self.store.ficha_movements_of(ref), base, back)
        if not staked:
            return 0
        key = back + ("" if count == 1 else f"#{count}")
        movement = Movement(
            key,
            ledger.pot(table_id, game_number),
            ledger.account(user_id),
            staked,
            Kind.UNSTAKE,
            user_id,
            ref,
            self.clock.now(),
        )
        written = await self.store.move_fichas([movement])
        return staked if written else 0

    def settle(
        self,
        table_id: str,
        game_number: int,
        stakes: dict[int, int],
        winners: Sequence[int],
        *,
        rated: bool,
        annulled: bool,
        abandoners: Sequence[int] = (),
        at: float = 0.0,
    ) -> list[Movement]:
        """What the game's end moves (`rules.settle` with the site's bank cut); the store
        writes them with the game's result (store/outbox.py)."""
        return rules.settle(
            ledger.pot(table_id, game_number),
            ledger.game_ref(table_id, game_number),
            stakes,
            winners,
            self.bank_cut,
            rated=rated,
            annulled=annulled,
            abandoners=abandoners,
            at=at,
        )

    # Tournaments ----------------------------------------------------------------------------

    async def tournament_entry(self, user_id: int, tournament_id: str, amount: int) -> None:
        """Move the entry from the account to the tournament's pool; nothing if it is there
        already. `fichas_not_enough` if the balance does not cover it."""
        self._on()
        if amount <= 0:
            return
        await self.refill(user_id)
        base = ledger.entry_key(tournament_id, user_id)
        back = ledger.entry_refund_key(tournament_id, user_id)
        entered, count = _sittings(
            await self.store.ficha_movements_of(_tournament_ref(tournament_id)), base, back
        )
        if entered:
            return
        movement = Movement(
            base if count == 0 else f"{base}#{count + 1}",
            ledger.account(user_id),
            ledger.tournament_pot(tournament_id),
            amount,
            Kind.ENTRY,
            user_id,
            _tournament_ref(tournament_id),
            self.clock.now(),
        )
        try:
            await self.store.move_fichas([movement])
        except FichasShort as short:
            raise FichasError("fichas_not_enough", need=amount, have=short.have) from None

    async def tournament_refund(self, user_id: int, tournament_id: str) -> int:
        """The account withdrew before the start, or the tournament was cancelled: its entry
        back from the pool (what came back; 0 if none). Idempotent."""
        ref = _tournament_ref(tournament_id)
        base = ledger.entry_key(tournament_id, user_id)
        back = ledger.entry_refund_key(tournament_id, user_id)
        entered, count = _sittings(await self.store.ficha_movements_of(ref), base, back)
        if not entered:
            return 0
        movement = Movement(
            back + ("" if count == 1 else f"#{count}"),
            ledger.tournament_pot(tournament_id),
            ledger.account(user_id),
            entered,
            Kind.REFUND,
            user_id,
            ref,
            self.clock.now(),
        )
        return entered if await self.store.move_fichas([movement]) else 0

    async def tournament_prizes(self, tournament_id: str, podium: Sequence[Sequence[int]]) -> list[Movement]:
        """Pay the podium from the pool, in one transaction: the bank's cut first, then each
        place its share (`rules.PRIZE_SHARES`), split between partners; what is left over goes
        to the bank. Idempotent by key (a retried end pays nothing twice)."""
        pool = await self.store.ficha_balance(ledger.tournament_pot(tournament_id))
        movements = rules.prizes(
            ledger.tournament_pot(tournament_id),
            tournament_id,
            _tournament_ref(tournament_id),
            pool,
            podium,
            self.bank_cut,
            self.clock.now(),
        )
        return await self.store.move_fichas(movements)


def _tournament_ref(tournament_id: str) -> str:
    return ledger.tournament_ref(tournament_id)


def _sittings(movements: Sequence[Movement], base: str, back: str) -> tuple[int, int]:
    """For the stakes (or entries) keyed `base`, `base#2`, ... (made one after another) and
    their returns keyed `back`, `back#2`, ...: what the latest left in the pot (0: it came
    back) and how many were made."""
    keys = {movement.key: movement for movement in movements}
    count = 0
    while (base if count == 0 else f"{base}#{count + 1}") in keys:
        count += 1
    if count == 0:
        return 0, 0
    suffix = "" if count == 1 else f"#{count}"
    return (0 if back + suffix in keys else keys[base + suffix].amount), count


__all__ = ["Fichas"]
