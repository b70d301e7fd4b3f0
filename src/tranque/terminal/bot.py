"""`tranque bot run --url URL --token T --level expert [--games N]`: a built-in level plays as
a bot account on a server (docs/bots.md), over the WebSocket protocol like any program.

Exit codes: 0 once the games are played, 1 if the server closed the socket (a token it does
not know, one revoked), 2 for a bad option.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from typing import Any

from tranque.bots import bot_names, make_bot
from tranque.terminal.bot_client import BotClient, Closed, Report
from tranque.terminal.catalogue import t
from tranque.terminal.command import Command, Context
from tranque.terminal.options import positive_int


def configure(parser: argparse.ArgumentParser, lang: str) -> None:
    parser.add_argument("action", choices=["run"], help=t("opt_bot_action", lang))
    parser.add_argument("--url", required=True, help=t("opt_bot_url", lang))
    parser.add_argument("--token", required=True, help=t("opt_bot_token", lang))
    parser.add_argument("--level", choices=bot_names(), default="expert", help=t("opt_bot_level", lang))
    parser.add_argument("--games", type=positive_int(lang), default=1, help=t("opt_bot_games", lang))
    parser.add_argument("--seed", type=int, default=None, help=t("opt_bot_seed", lang))


def run(args: argparse.Namespace, ctx: Context) -> int:
    lang = ctx.lang
    bot = make_bot(args.level, seed=args.seed)

    def game_over(number: int, data: dict[str, Any]) -> None:
        scores = json.dumps(data.get("scores"))
        ctx.out.print(t("bot_game_over", lang, number=number, games=args.games, scores=scores))

    def refused(message: dict[str, Any]) -> None:
        text = message["message_en"] if lang == "en" else message["message"]
        ctx.err.print(t("bot_refused", lang, code=message["code"], message=text))

    client = BotClient(bot.choose, args.games, Report(game_over, refused))
    ctx.out.print(t("bot_connecting", lang, level=args.level, url=args.url))
    try:
        asyncio.run(client.run(args.url, args.token))
    except Closed as closed:
        ctx.err.print(t("bot_closed", lang, code=closed.code, reason=closed.reason))
        return 1
    except OSError as error:
        ctx.err.print(t("bot_unreachable", lang, url=args.url, error=error))
        return 1
    return 0


COMMAND = Command("help_bot", configure, run)
