"""Bots from outside the project, named by import path: ``mypkg.mybot:MyBot``.

Wherever the arena takes a level's name it also takes ``module:Class`` (the part after the
colon may be dotted, ``module:Outer.Inner``, and may name any callable that returns a bot).
It is called with ``seed=`` when it takes a `seed` parameter, else with no arguments, and
what it returns must fit the `Bot` protocol: a ``choose(view)`` method returning one of
``view.legal_actions``. A path that does not lead there raises `BotPathError`, whose
`code` says why and whose `text(lang)` says it in a line.

>>> bot = make_imported_bot("tranque.bots.simple:GreedyBot", seed=1)
>>> type(bot).__name__
'GreedyBot'
>>> make_imported_bot("tranque.bots.simple:Nobody")
Traceback (most recent call last):
...
tranque.bots.imported.BotPathError: «tranque.bots.simple» no tiene «Nobody».
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from typing import Final, cast

from tranque.bots.base import Bot

_MESSAGES: Final[dict[str, dict[str, str]]] = {
    "malformed": {
        "es": "«{path}» no es un bot: escribe un nivel o la ruta de tu clase, como mipaquete.mibot:MiBot.",
        "en": "“{path}” is not a bot: write a level or your class's import path, like mypkg.mybot:MyBot.",
    },
    "no_module": {
        "es": "no se pudo importar «{module}»: {reason}",
        "en": "could not import “{module}”: {reason}",
    },
    "module_failed": {
        "es": "importar «{module}» falló: {reason}",
        "en": "importing “{module}” failed: {reason}",
    },
    "no_attribute": {
        "es": "«{module}» no tiene «{name}».",
        "en": "“{module}” has no “{name}”.",
    },
    "not_callable": {
        "es": "«{path}» no es una clase ni una función que cree un bot.",
        "en": "“{path}” is not a class or a function that makes a bot.",
    },
    "cannot_create": {
        "es": "«{path}» no se pudo crear: {reason}",
        "en": "“{path}” could not be created: {reason}",
    },
    "no_choose": {
        "es": "«{path}» no es un bot: le falta el método choose(view).",
        "en": "“{path}” is not a bot: it has no choose(view) method.",
    },
}


class BotPathError(ValueError):
    """A ``module:Class`` that does not give a bot; `code` is one of `_MESSAGES`' keys."""

    def __init__(self, code: str, **params: str) -> None:
        self.code = code
        self.params = params
        super().__init__(self.text("es"))

    def text(self, lang: str) -> str:
        """The reason in one line, in Spanish ("es") or English ("en")."""
        texts = _MESSAGES[self.code]
        return texts.get(lang, texts["es"]).format(**self.params)


def is_bot_path(name: str) -> bool:
    """Whether `name` is meant as an import path (it has a colon) rather than a level."""
    return ":" in name


def bot_factory(path: str) -> Callable[[int | None], object]:
    """What ``module:Class`` names, as a function of the bot's seed; `BotPathError` if the
    path leads nowhere. The module is imported here (once: Python keeps it)."""
    module_name, _, attribute = path.partition(":")
    parts = attribute.split(".")
    if not module_name or not all(part.isidentifier() for part in [*module_name.split("."), *parts]):
        raise BotPathError("malformed", path=path)
    try:
        target: object = importlib.import_module(module_name)
    except ImportError as error:
        raise BotPathError("no_module", module=module_name, reason=str(error)) from error
    except Exception as error:  # the module's own code failed: say so in a line
        raise BotPathError(
            "module_failed", module=module_name, reason=f"{type(error).__name__}: {error}"
        ) from error
    found = module_name
    for part in parts:
        if not hasattr(target, part):
            raise BotPathError("no_attribute", module=found, name=part)
        target = getattr(target, part)
        found = f"{found}.{part}"
    if not callable(target):
        raise BotPathError("not_callable", path=path)
    make = target
    takes_seed = _takes_seed(make)
    return lambda seed: make(seed=seed) if takes_seed else make()


def make_imported_bot(path: str, seed: int | None = None) -> Bot:
    """A bot from ``module:Class``, seeded when it takes a seed; `BotPathError` when the path
    leads nowhere, the bot cannot be made, or what is made has no ``choose`` method."""
    factory = bot_factory(path)
    try:
        bot = factory(seed)
    except Exception as error:
        raise BotPathError("cannot_create", path=path, reason=f"{type(error).__name__}: {error}") from error
    if not callable(getattr(bot, "choose", None)):
        raise BotPathError("no_choose", path=path)
    return cast(Bot, bot)  # it has a callable choose: the protocol's one method


def _takes_seed(make: Callable[..., object]) -> bool:
    try:
        parameters = inspect.signature(make).parameters
    except (TypeError, ValueError):  # no signature to read (some built-ins)
        return False
    return "seed" in parameters or any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values())
