"""`tranque admin grant NAME ROLE [--db URL]`: give an account a role on a site's database.

How an operator makes the first admin (docs/deploy.md): ROLE is `admin`, `moderator`, or
`player` to take a role away. The database is `tranque serve`'s (`--db`, else
$TRANQUE_DATABASE_URL, else ./tranque.db), migrated to the current schema first. The change is
written in the moderation log with no moderator (the terminal). An unknown name or role, a
bot account or a database that cannot be opened is one line and exit code 2.
"""

from __future__ import annotations

import argparse
import asyncio

from tranque.terminal.catalogue import t
from tranque.terminal.command import CliError, Command, Context
from tranque.terminal.serve import check_database, database_url


def configure(parser: argparse.ArgumentParser, lang: str) -> None:
    parser.add_argument("action", choices=["grant"], help=t("opt_admin_action", lang))
    parser.add_argument("name", help=t("opt_admin_name", lang))
    parser.add_argument("role", help=t("opt_admin_role", lang))
    parser.add_argument(
        "--db", metavar="URL", help=t("opt_db", lang, default="sqlite+aiosqlite:///./tranque.db")
    )


async def grant(url: str, name: str, role: str, now: float) -> tuple[str, str] | str:
    """Give the account `role`: (its name, its role before), or the catalogue key of a refusal."""
    from tranque.server.accounts.names import normal_form
    from tranque.server.store.factory import make_store
    from tranque.server.store.moderation import LogEntry

    store = make_store(url)
    await store.start()
    try:
        user = await store.find_user(normal_form(name))
        if user is None:
            return "admin_no_account"
        if user.is_bot:
            return "admin_bot_account"
        before = await store.role_of(user.user_id)
        entry = LogEntry(
            now, None, "grant", user.user_id, None, "tranque admin grant", {"role": role, "before": before}
        )
        await store.set_role(user.user_id, role, entry)
        return user.name, before
    finally:
        await store.close()


def run(args: argparse.Namespace, ctx: Context) -> int:
    import time

    from tranque.server.store.factory import MEMORY_URL
    from tranque.server.store.moderation import ROLES

    lang = ctx.lang
    if args.role not in ROLES:
        raise CliError(t("admin_bad_role", lang, role=args.role))
    url = database_url(args, lang)
    if url == MEMORY_URL:
        raise CliError(t("admin_memory_db", lang))
    check_database(url, lang)
    done = asyncio.run(grant(url, args.name, args.role, time.time()))
    if isinstance(done, str):
        raise CliError(t(done, lang, name=args.name))
    name, before = done
    ctx.out.print(t("admin_granted", lang, name=name, role=args.role, before=before))
    return 0


COMMAND = Command("help_admin", configure, run)
