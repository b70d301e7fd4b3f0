"""`MemoryLearning`: the accounts' stars in the lessons of Aprender, in memory."""

from __future__ import annotations

from tranque.server.store.memory.data import MemoryData


class MemoryLearning(MemoryData):
    """`LearnStore` in memory."""

    async def learn_progress(self, user_id: int) -> dict[str, int]:
        return {lesson: stars for (user, lesson), (stars, _) in self._learn.items() if user == user_id}

    async def keep_learn_progress(self, user_id: int, stars: dict[str, int], at: float) -> dict[str, int]:
        if user_id not in self._users:
            raise KeyError(user_id)
        for lesson, count in stars.items():
            kept = self._learn.get((user_id, lesson))
            if kept is None or kept[0] < count:
                self._learn[user_id, lesson] = (count, at)
        return await self.learn_progress(user_id)
