"""The engine's errors: a stable `code` a program can branch on, and a text in the player's language.

Every error the engine raises carries a `code` (``"not_in_hand"``, ``"does_not_fit"``, …)
and the parameters of its message. `str(error)` is the Spanish text; `error.text("en")` the
English one. Callers that speak to a person translate by code, never by parsing the text.

>>> error = EngineError("not_in_hand", tile="6-4")
>>> error.code, str(error)
('not_in_hand', 'No tienes la ficha 6-4.')
>>> error.text("en")
"You don't have the 6-4."
"""

from __future__ import annotations

from typing import Any

from tranque.engine.messages import LANGUAGES, MESSAGES, localize


class EngineError(ValueError):
    """Base of the engine's errors; `code` names the message in `tranque.engine.messages`."""

    def __init__(self, code: str, /, **params: Any) -> None:
        if code not in MESSAGES:
            raise KeyError(f"no message for error code {code!r}")
        self.code = code
        self.params = params
        super().__init__(self.text("es"))

    def text(self, lang: str = "es") -> str:
        """The message in `lang` (``"es"`` or ``"en"``); any other language gets Spanish."""
        return render(self.code, lang, **self.params)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), self.code, self.params))


def render(code: str, lang: str, **params: Any) -> str:
    """The catalogue's text for `code` in `lang` with `params` filled in."""
    texts = MESSAGES[code]
    template = texts.get(lang if lang in LANGUAGES else "es") or texts["es"]
    return template.format(**{name: localize(value, lang) for name, value in params.items()})


def _rebuild(kind: type[EngineError], code: str, params: dict[str, Any]) -> EngineError:
    error = kind.__new__(kind)
    EngineError.__init__(error, code, **params)
    return error
