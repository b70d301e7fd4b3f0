"""`MemoryFichas`: the ledger's movements and balances, in memory."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from tranque.server.store.fichas import (
    BANK,
    GRANTS,
    TOURNAMENT_REF_PREFIX,
    Books,
    FichasShort,
    Kind,
    Movement,
    account,
    is_pot,
    may_go_negative,
)
from tranque.server.store.memory.data import MemoryData


def move_now(data: MemoryData, movements: Sequence[Movement]) -> list[Movement]:
    """`FichasStore.move_fichas` on `data`, in one step: every balance is checked on a copy
    before anything is written (so a shortfall changes nothing); no await anywhere."""
    balances = dict(data._ficha_balances)
    seen = set(data._ficha_keys)
    written = []
    for movement in movements:
        if movement.key in seen:
            continue
        have = balances.get(movement.source, 0)
        if not may_go_negative(movement.source) and have < movement.amount:
            raise FichasShort(movement.source, movement.amount, have)
        balances[movement.source] = have - movement.amount
        balances[movement.destination] = balances.get(movement.destination, 0) + movement.amount
        seen.add(movement.key)
        written.append(movement)
    data._ficha_balances = balances
    kept = []
    for movement in written:
        data._ficha_keys[movement.key] = len(data._ficha_movements)
        kept.append(dataclasses.replace(movement, serial=len(data._ficha_movements) + 1))
        data._ficha_movements.append(kept[-1])
    return kept


class MemoryFichas(MemoryData):
    """`FichasStore` in memory: each method is one step of the loop, as each SQL one is one
    transaction."""

    async def move_fichas(self, movements: Sequence[Movement]) -> list[Movement]:
        return move_now(self, movements)

    async def refill_fichas(self, user_id: int, floor: int, key: str, at: float) -> Movement | None:
        have = self._ficha_balances.get(account(user_id), 0)
        if have >= floor or key in self._ficha_keys:
            return None
        movement = Movement(key, GRANTS, account(user_id), floor - have, Kind.REFILL, user_id, "", at)
        return move_now(self, [movement])[0]

    async def ficha_balance(self, holder: str) -> int:
        return self._ficha_balances.get(holder, 0)

    async def ficha_history(self, user_id: int, limit: int, before: int | None) -> list[Movement]:
        found = []
        end = len(self._ficha_movements) if before is None else min(before - 1, len(self._ficha_movements))
        for index in range(end - 1, -1, -1):
            movement = self._ficha_movements[index]
            if movement.user_id == user_id:
                found.append(movement)
                if len(found) >= limit:
                    break
        return found

    async def ficha_movements_of(self, ref: str) -> list[Movement]:
        return [movement for movement in self._ficha_movements if movement.ref == ref]

    async def ficha_movement(self, key: str) -> Movement | None:
        index = self._ficha_keys.get(key)
        return None if index is None else self._ficha_movements[index]

    async def ficha_books(self) -> Books:
        return books_of(self._ficha_balances)

    async def ficha_game_movements_since(self, since: float) -> list[Movement]:
        return [
            movement
            for movement in self._ficha_movements
            if movement.at >= since and movement.ref and not movement.ref.startswith(TOURNAMENT_REF_PREFIX)
        ]


def books_of(balances: dict[str, int]) -> Books:
    """The `Books` of every holder's balance."""
    accounts = pots = bank = negative = 0
    for holder, balance in balances.items():
        if holder == GRANTS:
            continue
        negative += balance < 0
        if holder == BANK:
            bank += balance
        elif is_pot(holder):
            pots += balance
        else:
            accounts += balance
    return Books(-balances.get(GRANTS, 0), accounts, pots, bank, negative)
