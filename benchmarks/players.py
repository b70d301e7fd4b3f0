"""Reading players back at scale: rankings, profiles and game lists over a filled database.

    python benchmarks/players.py [--db sqlite|postgresql] [--players 100000] [--games 1000000]
                                 [--requests 200] [--explain] [--seed 1] [--database URL]

It fills a fresh database (a SQLite file in a scratch directory, or a new PostgreSQL database
on TRANQUE_BENCH_POSTGRES_URL, default postgresql://postgres@127.0.0.1:5432/postgres, dropped
at the end; or the database at `--database URL`, kept, and filled only when it has no games)
to the schema's head, then inserts straight through SQLAlchemy Core, in batches:

* the players (some with an avatar chosen);
* the games, over the last 180 days: a duel (2 players), an individual game (3) or pairs (4),
  their seats drawn with a skew (a few players have played hundreds or thousands of games,
  most a few dozen), one in ten private, six in ten rated;
* a `game_players` row per seat, with the rating before and after for rated games, each
  player's ratings in a pool following on from game to game; their `ratings` rows (the last
  `after` and the number of rated games) and their `xp` per period (all, month, ISO week: 10 per
  player to the winners, split between partners, 5 to each loser) add up to those rows; each
  keeps its player's name key, as `SqlStore.save_game` writes them.

PostgreSQL is then vacuumed and analysed (autovacuum would have done it); SQLite is left
without ANALYZE, as a server's file is. The app is `create_app(Settings(database_url=...))`,
reached in-process through httpx's ASGI transport (its lifespan run as uvicorn runs it), and
timed per request, one at a time, over:

* `GET /api/rankings` by XP for each period and by rating for each pool, on the first page,
  a middle one and a random one, logged in (`me`) as a random player;
* `GET /api/players/{name}` (the profile) and `GET /api/players/{name}/games` (first page,
  then the next with `before`) of players drawn with the same skew, as another player.

It prints p50 / p95 / p99 / max per endpoint. Goal: p99 <= 50 ms at 100,000 players and
1,000,000 games. `--explain` also prints the plan of every query the app ran for one
request of each kind (EXPLAIN QUERY PLAN on SQLite, EXPLAIN on PostgreSQL).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import secrets
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from tranque.server.accounts.names import skeleton
from tranque.server.accounts.sessions import SESSION_COOKIE
from tranque.server.app import create_app
from tranque.server.players.periods import period_keys
from tranque.server.players.rating_scale import shown
from tranque.server.settings import Settings
from tranque.server.store.schema import game_players, games, ratings, sessions, users, xp
from tranque.server.store.sql import SqlStore, async_url
from tranque.server.table.seats import token_hash

DAYS = 180
BATCH = 5_000  # games per insert batch
FORMATS = (("duel", 2, "clasico"), ("individual", 3, "clasico"), ("pairs", 4, "clasico"))
FORMAT_WEIGHTS = (4, 2, 4)
AVATAR_IDS = ("palma", "sol", "mar", "loro", "coco", "tambor")
MU0, SIGMA0 = 25.0, 25 / 3
console = Console()


def progress() -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
    )


# The database ---------------------------------------------------------------------------------


@contextlib.contextmanager
def scratch_database(db: str) -> Iterator[str]:
    if db == "sqlite":
        folder = Path(tempfile.mkdtemp(prefix="tranque-players-"))
        try:
            yield f"sqlite+aiosqlite:///{folder / 'tranque.db'}"
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        return
    admin = sa.make_url(
        os.environ.get("TRANQUE_BENCH_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    )
    name = f"tranque_bench_{os.getpid()}_{secrets.token_hex(3)}"
    asyncio.run(on_server(admin, f'CREATE DATABASE "{name}"'))
    try:
        yield admin.set(database=name).render_as_string(hide_password=False)
    finally:
        asyncio.run(on_server(admin, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


async def on_server(admin: sa.URL, statement: str) -> None:
    engine = create_async_engine(async_url(admin), isolation_level="AUTOCOMMIT")
    try:
        async with engine.connect() as connection:
            await connection.exec_driver_sql(statement)
    finally:
        await engine.dispose()


def skewed(rng: random.Random, count: int, power: float = 1.5) -> int:
    """A player id in 1..count, low ids far more often: a few play very much, most a little."""
    return 1 + int(count * rng.random() ** power)


def player_name(user_id: int) -> str:
    return f"jugador{user_id:06d}"


@dataclass
class Ratings:
    """Each (player, pool)'s rating as the games so far left it, and its rated games."""

    now: dict[tuple[int, str], tuple[float, float, int]] = field(default_factory=dict)

    def play(self, user_id: int, pool: str, won: bool) -> tuple[float, float, float, float]:
        mu, sigma, played = self.now.get((user_id, pool), (MU0, SIGMA0, 0))
        after_mu = mu + (0.4 if won else -0.4) * sigma / 2
        after_sigma = max(0.8, sigma * 0.93)
        self.now[user_id, pool] = (after_mu, after_sigma, played + 1)
        return mu, sigma, after_mu, after_sigma


@dataclass
class Filler:
    players: int
    games: int
    rng: random.Random
    end: float
    ratings: Ratings = field(default_factory=Ratings)
    xp: dict[tuple[str, int], int] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)

    def user_rows(self, first: int, last: int) -> list[dict[str, Any]]:
        rows = []
        for user_id in range(first, last):
            name = player_name(user_id)
            avatar = self.rng.choice(AVATAR_IDS) if self.rng.random() < 0.3 else None
            created = self.end - DAYS * 86400 - self.rng.random() * 86400 * 365
            rows.append(
                {
                    "id": user_id,
                    "name": name,
                    "name_key": name.casefold(),
                    "name_skeleton": skeleton(name),
                    "password_hash": "not a password hash",
                    "created_at": created,
                    "avatar": avatar,
                }
            )
        return rows

    def game(self, index: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        rng = self.rng
        fmt, count, preset = rng.choices(FORMATS, FORMAT_WEIGHTS)[0]
        at = self.end - DAYS * 86400 * (1 - index / self.games) + rng.random()
        seated: list[int] = []
        while len(seated) < count:
            user_id = skewed(rng, self.players)
            if user_id not in seated:
                seated.append(user_id)
        teams = 2 if fmt == "pairs" else count
        winner = rng.randrange(teams)
        private = rng.random() < 0.1
        rated = not private and rng.random() < 0.6
        game_id = f"b{index:07d}.1"
        summary = {
            "seats": [
                {
                    "seat": seat,
                    "name": player_name(user_id),
                    "kind": "human",
                    "user_id": user_id,
                    "bot_level": None,
                }
                for seat, user_id in enumerate(seated)
            ],
            "scores": [100 if team == winner else rng.randrange(100) for team in range(teams)],
            "goals": [0] * teams,
            "winners": [winner],
            "rounds": rng.randrange(2, 9),
        }
        game = {
            "game_id": game_id,
            "table_id": game_id[:-2],
            "number": 1,
            "finished_at": at,
            "preset": preset,
            "format": fmt,
            "players": count,
            "table_kind": "private" if private else "public",
            "private": private,
            "competitive": rated,
            "rated": rated,
            "unrated_reason": None if rated else "casual",
            "summary": summary,
            "record": {"rules": {"preset": preset, "players": count}, "rounds": []},
        }
        keys = period_keys(at).values()
        rows = []
        for seat, user_id in enumerate(seated):
            won = seat % teams == winner
            gained = 0
            before_after: tuple[float | None, ...] = (None, None, None, None)
            if rated:
                gained = (10 * count // (2 if fmt == "pairs" else 1)) if won else 5
                before_after = self.ratings.play(user_id, fmt, won)
                for key in keys:
                    self.xp[key, user_id] = self.xp.get((key, user_id), 0) + gained
            mu_before, sigma_before, mu_after, sigma_after = before_after
            rows.append(
                {
                    "game_id": game_id,
                    "user_id": user_id,
                    "seat": seat,
                    "finished_at": at,
                    "preset": preset,
                    "format": fmt,
                    "private": private,
                    "won": won,
                    "abandoned": False,
                    "xp": gained,
                    "mu_before": mu_before,
                    "sigma_before": sigma_before,
                    "mu_after": mu_after,
                    "sigma_after": sigma_after,
                }
            )
        return game, rows


async def insert(engine: AsyncEngine, table: sa.Table, rows: list[dict[str, Any]]) -> None:
    async with engine.begin() as connection:
        await connection.execute(table.insert(), rows)


async def fill(url: str, filler: Filler) -> None:
    store = SqlStore(url)
    await store.start()  # the schema, by the migrations
    await store.close()
    engine = create_async_engine(async_url(url))
    try:
        with progress() as bars:
            task = bars.add_task("players", total=filler.players)
            for first in range(1, filler.players + 1, BATCH):
                last = min(first + BATCH, filler.players + 1)
                await insert(engine, users, filler.user_rows(first, last))
                bars.advance(task, last - first)
            task = bars.add_task("games", total=filler.games)
            for first in range(0, filler.games, BATCH):
                made = [filler.game(index) for index in range(first, min(first + BATCH, filler.games))]
                await insert(engine, games, [game for game, _ in made])
                await insert(engine, game_players, [row for _, rows in made for row in rows])
                bars.advance(task, len(made))
            rating_rows = [
                {"user_id": user_id, "pool": pool, "mu": mu, "sigma": sigma, "shown": shown(mu, sigma),
                 "games": played, "updated_at": filler.end, "name_key": player_name(user_id).casefold()}
                for (user_id, pool), (mu, sigma, played) in filler.ratings.now.items()
            ]  # fmt: skip
            xp_rows = [
                {
                    "period": period,
                    "user_id": user_id,
                    "xp": total,
                    "name_key": player_name(user_id).casefold(),
                }
                for (period, user_id), total in filler.xp.items()
            ]
            for label, table, rows in (("ratings", ratings, rating_rows), ("xp", xp, xp_rows)):
                task = bars.add_task(label, total=len(rows))
                for first in range(0, len(rows), 4 * BATCH):
                    await insert(engine, table, rows[first : first + 4 * BATCH])
                    bars.advance(task, len(rows[first : first + 4 * BATCH]))
        if engine.dialect.name == "postgresql":
            async with engine.connect() as connection:
                autocommit = await connection.execution_options(isolation_level="AUTOCOMMIT")
                await autocommit.exec_driver_sql("VACUUM ANALYZE")
    finally:
        await engine.dispose()
    console.print(f"{len(rating_rows):,} ratings rows, {len(xp_rows):,} xp rows")


# The requests ---------------------------------------------------------------------------------


@contextlib.asynccontextmanager
async def running_app(url: str) -> AsyncIterator[tuple[httpx.AsyncClient, Any]]:
    app = create_app(Settings(database_url=url, bot_processes=0, fairplay_sampler=False))  # reads only
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
            yield client, app.state.tranque.store


async def log_in(store: Any, client: httpx.AsyncClient, user_id: int) -> None:
    token = secrets.token_urlsafe(32)
    async with store.engine.begin() as connection:
        await connection.execute(
            sessions.insert().values(
                token_hash=token_hash(token), user_id=user_id, expires_at=time.time() + 3600
            )
        )
    client.cookies.set(SESSION_COOKIE, token)


def requests_plan(filler: Filler, count: int, rng: random.Random) -> list[tuple[str, str, dict[str, Any]]]:
    """(endpoint label, path, params), `count` of each kind, in a shuffled order."""
    pages_guess = max(1, filler.players // 50)
    plan: list[tuple[str, str, dict[str, Any]]] = []
    for _ in range(count):
        page = rng.choice([1, max(1, pages_guess // 2), rng.randint(1, pages_guess)])
        for period in ("week", "month", "all"):
            plan.append(
                (f"rankings xp {period}", "/api/rankings", {"by": "xp", "period": period, "page": page})
            )
        for pool in ("duel", "individual", "pairs"):
            plan.append(
                (f"rankings rating {pool}", "/api/rankings", {"by": "rating", "pool": pool, "page": page})
            )
        name = player_name(skewed(rng, filler.players))
        plan.append(("profile", f"/api/players/{name}", {}))
        plan.append(("games", f"/api/players/{name}/games", {}))
    rng.shuffle(plan)
    return plan


async def measure(
    url: str, filler: Filler, count: int, explain: bool, rng: random.Random
) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {}
    async with running_app(url) as (client, store):
        await log_in(store, client, skewed(rng, filler.players))
        if explain:
            await explain_queries(client, store, filler)
        plan = requests_plan(filler, count, rng)
        for _label, path, params in plan[:20]:  # warm-up: connections, caches
            await client.get(path, params=params)
        with progress() as bars:
            task = bars.add_task("requests", total=len(plan))
            for label, path, params in plan:
                started = time.perf_counter()
                response = await client.get(path, params=params)
                elapsed = time.perf_counter() - started
                assert response.status_code == 200, (path, response.text)
                times.setdefault(label, []).append(elapsed)
                if label == "games" and response.json()["more"]:
                    before = response.json()["games"][-1]["finished_at"]
                    started = time.perf_counter()
                    response = await client.get(path, params={"before": before})
                    times.setdefault("games (before)", []).append(time.perf_counter() - started)
                    assert response.status_code == 200
                bars.advance(task)
    return times


async def explain_queries(client: httpx.AsyncClient, store: Any, filler: Filler) -> None:
    """The plan of every query one request of each kind runs."""
    captured: list[tuple[str, Any]] = []

    def capture(
        _conn: Any, _cursor: Any, statement: str, parameters: Any, _context: Any, _many: bool
    ) -> None:
        captured.append((statement, parameters))

    engine = store.engine
    heavy = player_name(1)
    samples: list[tuple[str, dict[str, str | float]]] = [
        ("/api/rankings", {"by": "xp", "period": "all", "page": 3}),
        ("/api/rankings", {"by": "rating", "pool": "pairs", "page": 3}),
        (f"/api/players/{heavy}", {}),
        (f"/api/players/{heavy}/games", {"before": filler.end - 86400}),
    ]
    for path, params in samples:
        captured.clear()
        sa.event.listen(engine.sync_engine, "before_cursor_execute", capture)
        try:
            await client.get(path, params=params)
        finally:
            sa.event.remove(engine.sync_engine, "before_cursor_execute", capture)
        console.rule(f"{path} {params}")
        prefix = "EXPLAIN QUERY PLAN " if engine.dialect.name == "sqlite" else "EXPLAIN "
        async with engine.connect() as connection:
            for statement, parameters in captured:
                if not statement.lstrip().upper().startswith("SELECT"):
                    continue
                plan = (await connection.exec_driver_sql(prefix + statement, parameters)).all()
                console.print(" ".join(statement.split())[:160], style="dim")
                for row in plan:
                    console.print("   ", row[-1] if engine.dialect.name == "sqlite" else row[0])


def report(times: dict[str, list[float]], args: argparse.Namespace) -> None:
    table = Table(title=f"{args.db}: {args.players:,} players, {args.games:,} games (ms)")
    for column in ("endpoint", "n", "p50", "p95", "p99", "max"):
        table.add_column(column, justify="left" if column == "endpoint" else "right")
    worst = 0.0
    for label in sorted(times):
        values = sorted(times[label])
        cuts = statistics.quantiles(values, n=100, method="inclusive") if len(values) > 1 else values * 99
        p99 = cuts[98] * 1000
        worst = max(worst, p99)
        table.add_row(
            label, str(len(values)), f"{cuts[49] * 1000:.1f}", f"{cuts[94] * 1000:.1f}", f"{p99:.1f}",
            f"{values[-1] * 1000:.1f}",
        )  # fmt: skip
    console.print(table)
    console.print(f"worst p99: {worst:.1f} ms (goal <= 50 ms)")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--db", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--requests", type=int, default=200, help="requests of each kind")
    parser.add_argument("--explain", action="store_true", help="print the plan of every query")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--database",
        metavar="URL",
        help="fill this database if it is empty and keep it (to time again without refilling)",
    )
    args = parser.parse_args()
    if args.players < 4 or args.games < 1:
        parser.error("--players must be at least 4 and --games at least 1")
    rng = random.Random(args.seed)
    filler = Filler(args.players, args.games, rng, end=time.time())
    kept = contextlib.nullcontext(args.database) if args.database else scratch_database(args.db)
    with kept as url:
        filled_until = asyncio.run(last_game(url))
        if filled_until is None:
            started = time.perf_counter()
            asyncio.run(fill(url, filler))
            console.print(f"filled in {time.perf_counter() - started:.0f} s")
        else:
            filler.end = filled_until
            console.print(
                f"{url}: filled already (as --players {args.players} --games {args.games}, I trust)"
            )
        times = asyncio.run(measure(url, filler, args.requests, args.explain, rng))
    report(times, args)
    return 0


async def last_game(url: str) -> float | None:
    """When the database's last game finished; None for an empty (or new) database."""
    store = SqlStore(url)
    await store.start()
    try:
        async with store.engine.connect() as connection:
            last: float | None = await connection.scalar(sa.select(sa.func.max(games.c.finished_at)))
    finally:
        await store.close()
    return last


if __name__ == "__main__":
    sys.exit(main())
