"""Thinking off the caller's thread: the same choice as `choose`, from a future or from
asyncio, and never out of turn."""

from __future__ import annotations

import asyncio
import copy
from concurrent.futures import ThreadPoolExecutor

import pytest

from tranque import Game, Rules
from tranque.bots import make_bot
from tranque.bots.expert import Budget, ExpertBot
from tranque.bots.thinking import choose_async, shared_executor, think


def a_view_with_a_choice() -> Game:
    game = Game(Rules.preset("clasico"), seed=4)
    bot = make_bot("greedy", seed=0)
    while len(game.view(game.round.turn).legal_actions) < 2 or len(game.round.line) < 4:
        game.apply(bot.choose(game.view(game.round.turn)))
    return game


def test_think_returns_what_choose_returns() -> None:
    game = a_view_with_a_choice()
    view = game.view(game.round.turn)
    bot = make_bot("expert", seed=5)
    twin = copy.deepcopy(bot)
    with ThreadPoolExecutor(1) as pool:
        assert think(bot, view, executor=pool).result() == twin.choose(view)


def test_think_in_the_shared_worker_process() -> None:
    game = a_view_with_a_choice()
    view = game.view(game.round.turn)
    bot = make_bot("heuristic", seed=2)
    future = think(copy.deepcopy(bot), view)
    assert future.result(timeout=60) == bot.choose(view)
    assert shared_executor() is shared_executor()


def test_choose_async_does_not_block_the_event_loop() -> None:
    game = a_view_with_a_choice()
    view = game.view(game.round.turn)

    async def main() -> tuple[object, int]:
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0)

        task = asyncio.create_task(ticker())
        with ThreadPoolExecutor(1) as pool:
            action = await choose_async(make_bot("expert", seed=1), view, executor=pool)
        task.cancel()
        return action, ticks

    action, ticks = asyncio.run(main())
    assert action in view.legal_actions
    assert ticks > 0  # the loop ran other work while the bot thought


def test_a_bot_only_thinks_on_its_turn() -> None:
    game = a_view_with_a_choice()
    other = (game.round.turn + 1) % 4
    with pytest.raises(ValueError, match="en su turno"):
        think(make_bot("random"), game.view(other))


def test_a_time_limit_still_gives_a_legal_choice() -> None:
    game = a_view_with_a_choice()
    view = game.view(game.round.turn)
    bot = ExpertBot(seed=1, budget=Budget(time_limit=0.0))
    assert bot.choose(view) in view.legal_actions
