"""Record files: the `--record FILE` of `play` and `simulate` (checked before the first deal,
written at the end), and reading one back for `replay` and `verify`."""

from __future__ import annotations

import errno
import json
from pathlib import Path
from typing import Any

from tranque.engine import Game
from tranque.engine.record import save
from tranque.terminal.catalogue import t
from tranque.terminal.command import CliError


def check_writable(path: str, lang: str) -> None:
    """Refuse a record path that cannot be written, leaving nothing behind: a directory, a
    missing directory, no permission."""
    target = Path(path)
    if target.is_dir():
        raise CliError(t("record_is_directory", lang, file=path))
    if not target.parent.is_dir():
        raise CliError(t("record_no_directory", lang, file=path, directory=target.parent))
    existed = target.exists()
    try:
        with target.open("a", encoding="utf-8"):
            pass
    except OSError as error:
        raise CliError(t("record_cannot_write", lang, file=path, reason=os_reason(error, lang))) from None
    if not existed:
        target.unlink()


def write_record(game: Game, path: str, lang: str) -> None:
    try:
        save(game, path)
    except OSError as error:
        raise CliError(t("cannot_write", lang, file=path, reason=os_reason(error, lang))) from None


def read_record(path: str, lang: str) -> dict[str, Any]:
    """The JSON object in `path`; a missing, unreadable or non-JSON file is a `CliError`."""
    try:
        with open(path, encoding="utf-8") as source:
            data = json.load(source)
    except FileNotFoundError:
        raise CliError(t("no_such_file", lang, file=path)) from None
    except OSError as error:
        raise CliError(t("cannot_read", lang, file=path, reason=os_reason(error, lang))) from None
    except ValueError:  # bad JSON or bad UTF-8
        raise CliError(t("not_a_record", lang, file=path)) from None
    if not isinstance(data, dict):
        raise CliError(t("not_a_record", lang, file=path))
    return data


def os_reason(error: OSError, lang: str) -> str:
    """Why the system refused, in the player's language where the catalogue has it."""
    if error.errno in (errno.EACCES, errno.EPERM):
        return t("no_permission", lang)
    if error.errno == errno.EROFS:
        return t("read_only", lang)
    return error.strerror or str(error)
