"""`SqlLearning`: the accounts' stars in the lessons of Aprender, on SQLAlchemy."""

from __future__ import annotations

import sqlalchemy as sa

from tranque.server.store.schema import learn_progress
from tranque.server.store.sql.database import SqlDatabase


class SqlLearning(SqlDatabase):
    """`LearnStore` on SQLAlchemy."""

    async def learn_progress(self, user_id: int) -> dict[str, int]:
        query = sa.select(learn_progress.c.lesson, learn_progress.c.stars).where(
            learn_progress.c.user_id == user_id
        )
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return {row.lesson: row.stars for row in rows}

    async def keep_learn_progress(self, user_id: int, stars: dict[str, int], at: float) -> dict[str, int]:
        async with self.engine.begin() as connection:
            for lesson, count in sorted(stars.items()):
                statement = self._insert(learn_progress).values(
                    user_id=user_id, lesson=lesson, stars=count, updated_at=at
                )
                # Never lower a lesson's stars: the update applies only when they grow.
                statement = statement.on_conflict_do_update(
                    index_elements=["user_id", "lesson"],
                    set_={"stars": statement.excluded.stars, "updated_at": statement.excluded.updated_at},
                    where=learn_progress.c.stars < statement.excluded.stars,
                )
                await connection.execute(statement)
        return await self.learn_progress(user_id)
