"""A bot for Tranque in plain Python: it plays a random legal move, from the protocol alone.

It imports nothing of Tranque (only the `websockets` library: ``pip install websockets``).
Make a bot account in the browser (#/bots) or over HTTP (docs/bots.md), then::

    python examples/random_bot.py --url ws://localhost:8000/ws --token tqb_... --games 3

It joins the bots' quick match, plays each game to its end (choosing among the `options`
the server sends on its turn, saying `ready` after each round but the last), and joins again
until it has played `--games` games. Everything it knows comes from the frames the server
sends: exactly what a person's seat receives.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import random
import sys
from typing import Any

import websockets

Message = dict[str, Any]


def ends_the_game(rules: Message, round_ended: Message) -> bool:
    """Whether the round that just ended also ended the game: a side reached the target (or,
    in fútbol, the goals to win). `game_ended` follows such a round at once; `ready` is for
    the rounds in between."""
    goals_to_win = rules.get("goals_to_win")
    reached_goals = goals_to_win is not None and max(round_ended["goals"]) >= goals_to_win
    return max(round_ended["scores"]) >= rules["target"] or reached_goals


class RandomBot:
    def __init__(self, socket: Any, games: int, rng: random.Random) -> None:
        self.socket = socket
        self.games_left = games
        self.rng = rng
        self.ids = itertools.count(1)
        self.rules: Message = {}  # the table's, from the `sync` that answers `hello`

    async def send(self, message: Message) -> None:
        await self.socket.send(json.dumps({**message, "id": next(self.ids)}))

    async def run(self) -> None:
        await self.send({"type": "quick_match"})
        async for text in self.socket:
            message = json.loads(text)
            if await self.on(message):
                return

    async def on(self, message: Message) -> bool:
        """React to one frame; True once the last game is over."""
        kind = message["type"]
        if kind == "matched":  # a table: follow it with the seat's token
            await self.send({"type": "hello", "table": message["table"], "token": message["token"]})
        elif kind == "sync":
            self.rules = message["rules"]
        elif kind == "options":  # our turn: one of the legal actions, at random
            action = self.rng.choice(message["legal_actions"])
            await self.send({"type": "act", "action": action, "turn_id": message["turn_id"]})
        elif kind == "event" and message["kind"] == "round_ended":
            if not ends_the_game(self.rules, message["data"]):
                await self.send({"type": "ready"})
        elif kind == "event" and message["kind"] == "game_ended":
            self.games_left -= 1
            print(f"game over: {json.dumps(message['data'].get('scores'))}", flush=True)
            if self.games_left <= 0:
                return True
            await self.send({"type": "quick_match"})
        elif kind == "error" and message["code"] not in ("stale", "not_your_turn", "not_playing"):
            print(f"refused: {message['code']}: {message['message_en']}", file=sys.stderr, flush=True)
        return False


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="the server's WebSocket, e.g. ws://localhost:8000/ws")
    parser.add_argument("--token", required=True, help="the bot account's token (tqb_...)")
    parser.add_argument("--games", type=int, default=1, help="how many games to play")
    parser.add_argument("--seed", type=int, default=None, help="seed of the random choices")
    args = parser.parse_args()
    headers = {"Authorization": f"Bearer {args.token}"}
    try:
        async with websockets.connect(args.url, additional_headers=headers) as socket:
            await RandomBot(socket, args.games, random.Random(args.seed)).run()
    except websockets.ConnectionClosed as closed:
        reason = closed.rcvd.reason if closed.rcvd is not None else ""
        print(f"closed by the server: {closed.rcvd.code if closed.rcvd else '?'} {reason}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
