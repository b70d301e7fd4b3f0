"""A server's `Settings` from a TOML file and the environment, checked before anything starts.

Every field of `Settings` whose type is a plain value (bool, int, float, str, a `Literal`, an
optional one of those, a tuple or list of them, or a list of tables: `list[dict[str, Any]]`,
TOML's `[[name]]` or an inline `[{...}]`, JSON text in a variable) is a *key*; each field
that is a dataclass of such values is a *section* (a TOML table). Nothing is listed by hand: a field added to
`Settings` or to one of its sections is a key at once. Fields of other types (the clock,
callables, a test's cluster links) are not configurable, and naming one is an error.

- TOML: `hints_per_game = 20` at the top, `[limits]` then `body_bytes = 65536` for a section.
- Environment: `TRANQUE_HINTS_PER_GAME`, `TRANQUE_LIMITS__BODY_BYTES` (upper case, two
  underscores between a section and its key); an empty variable counts as unset.
- The precedence: defaults < the file < the environment < the command's own options.

A key's meaning (docs/configuration.md) is its field's `field(metadata={"doc": ...})`, else
the comment at the end of its line (`hints_per_game: int = 20  # the expert's suggestions…`),
else the comment lines right above it.

Numbers are never negative, and a few keys have tighter bounds: the field's
`metadata={"bounds": (least, most, least_allowed)}`, else the table `BOUNDS`. A field's
`metadata={"secret": True}` (or a name ending in token, password, secret) is never shown. Every problem is
one `Problem` naming the key as the operator wrote it; a value that may hold a password (a
URL's, a token) is never shown whole (`shown`). docs/configuration.md lists every key.
"""

from __future__ import annotations

import ast
import dataclasses
import difflib
import functools
import inspect
import io
import json
import math
import re
import sys
import textwrap
import tokenize
import tomllib
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from tranque.bots import bot_names
from tranque.server.settings import Settings

ENV_PREFIX = "TRANQUE_"
SECTION_MARK = "__"
CONFIG_VARIABLE = "TRANQUE_CONFIG"  # the file, when `--config` is not given
RESOLVED_VARIABLE = "TRANQUE_SETTINGS_JSON"  # what `tranque serve --workers N` hands its workers
# Variables of the project that are not settings: the command's language, the file, other
# commands' (`tranque admin`), the tests'. Any other TRANQUE_ variable that is no key is
# refused when it looks like a misspelt one (a section's `__`, or close to a key's name:
# `MISSPELT`), and otherwise left alone: it may be some other program's.
NOT_SETTINGS = frozenset(
    {
        "TRANQUE_LANG",
        CONFIG_VARIABLE,
        RESOLVED_VARIABLE,
        "TRANQUE_SITE",
        "TRANQUE_ADMIN_TOKEN",
        "TRANQUE_REQUIRE_SERVICES",
        "TRANQUE_CLUSTER_DEBUG",
    }
)
NOT_SETTINGS_PREFIXES = ("TRANQUE_TEST_", "TRANQUE_BENCH_")
MISSPELT = 0.8  # difflib's ratio between an unknown variable's name and a key's
ALIASES = {  # documented variables named otherwise than their key
    "TRANQUE_BOT_LEVEL": "default_bot_level",
    "TRANQUE_REDIS_PREFIX": "cluster.prefix",
}

# Bounds beyond "not negative", by TOML key: (least, most, whether the least itself is allowed).
BOUNDS: dict[str, tuple[float | None, float | None, bool]] = {
    "bot_processes": (1, None, True),
    "port": (1, 65535, True),
    "workers": (1, 64, True),
    "sockets_per_place": (1, None, True),
    "password_checks_at_once": (1, None, True),
    "ipv6_prefix": (0, 128, True),
    "analysis_deals": (1, None, True),
    "fairplay_deals": (1, None, True),
    "fairplay_sample_rate": (0, 1, True),
    "analysis_poll_seconds": (0, None, False),
    "fairplay_poll_seconds": (0, None, False),
    "recorder_retry_seconds": (0, None, False),
    "tournament_tick_seconds": (0, None, False),
    "tournament_scan_seconds": (0, None, False),
    "socket_limits.heartbeat_seconds": (0, 10, False),
    "socket_limits.per_second": (0, None, False),
    "socket_limits.bot_per_second": (0, None, False),
    "cluster.lease_seconds": (0, None, False),
    "cluster.renew_seconds": (0, None, False),
    "cluster.scan_seconds": (0, None, False),
}
# Keys whose value is one of a list known only at run time.
CHOICES: dict[str, Callable[[], Iterable[str]]] = {"default_bot_level": bot_names}
SECRET_NAME = re.compile(r"(^|_)(token|password|secret|api_key)$", re.I)  # the whole value is hidden
URL_PASSWORD = re.compile(r"(//[^:@/]*):[^@/]*@")  # a URL's password is hidden


@dataclass(frozen=True)
class Kind:
    """What a key holds: `base` (bool, int, float or str), maybe None, maybe several, maybe
    only some values (a `Literal`)."""

    base: type
    optional: bool = False
    several: type | None = None  # tuple or list
    choices: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Key:
    """One configurable field: `section` None for a field of `Settings` itself."""

    section: str | None
    name: str
    kind: Kind
    default: Any
    doc: str
    bounds: tuple[float | None, float | None, bool] | None = None  # the field's own, else BOUNDS'
    secret: bool = False  # hidden whole wherever it is shown (also: by its name, SECRET_NAME)

    @property
    def toml(self) -> str:
        return self.name if self.section is None else f"{self.section}.{self.name}"

    @property
    def env(self) -> str:
        parts = [self.name] if self.section is None else [self.section, self.name]
        return ENV_PREFIX + SECTION_MARK.join(parts).upper()

    @property
    def aliases(self) -> list[str]:
        return [alias for alias, toml in ALIASES.items() if toml == self.toml]


@dataclass(frozen=True)
class Problem:
    """One bad key: `where` is how the operator named it ("tranque.toml: limits.burst",
    "TRANQUE_LIMITS__BURST", "--db"); `code` a catalogue message, `values` its parameters
    (`expected` is itself a catalogue key: "config_kind_int"…)."""

    where: str
    code: str
    values: dict[str, str] = dataclasses.field(default_factory=dict)

    def __str__(self) -> str:
        details = ", ".join(f"{name}={value}" for name, value in self.values.items())
        return f"{self.where}: {self.code}" + (f" ({details})" if details else "")


class ConfigError(Exception):
    """The problems of a configuration, every one of them (one line each)."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("\n".join(str(problem) for problem in problems))
        self.problems = problems


# The keys -----------------------------------------------------------------------------------


def _annotation(owner: type, field: dataclasses.Field[Any]) -> Any:
    """The field's type, evaluated in its module; None when it cannot be (a name only known
    to type checkers: never a plain value)."""
    if not isinstance(field.type, str):
        return field.type
    try:
        return eval(field.type, vars(sys.modules[owner.__module__]))  # the module's own annotation
    except Exception:
        return None


def kind_of(annotation: Any) -> Kind | None:
    """The `Kind` of a plain value's type, or None for any other type.

    >>> kind_of(int), kind_of(float | None).optional, kind_of(tuple[str, ...]).several
    (Kind(base=<class 'int'>, optional=False, several=None, choices=()), True, <class 'tuple'>)
    >>> kind_of(Literal["a", "b"]).choices, kind_of(dict[str, int]), kind_of(Callable[[], None])
    (('a', 'b'), None, None)
    >>> kind_of(list[dict[str, Any]])
    Kind(base=<class 'dict'>, optional=False, several=<class 'list'>, choices=())
    """
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        members = [member for member in typing.get_args(annotation) if member is not type(None)]
        if len(members) != 1 or len(members) == len(typing.get_args(annotation)):
            return None
        inner = kind_of(members[0])
        return dataclasses.replace(inner, optional=True) if inner and not inner.optional else None
    if origin is Literal:
        choices = typing.get_args(annotation)
        bases = {type(choice) for choice in choices}
        return Kind(bases.pop(), choices=choices) if len(bases) == 1 and bases <= {str, int} else None
    if origin is list and typing.get_args(annotation) == (dict[str, Any],):
        return Kind(dict, several=list)  # a list of tables: what each holds is its reader's to check
    if origin in (tuple, list):
        args = typing.get_args(annotation)
        item = args[0] if origin is list or (len(args) == 2 and args[1] is Ellipsis) else None
        inner = kind_of(item) if item is not None else None
        if inner is None or inner.optional or inner.several:
            return None
        return dataclasses.replace(inner, several=origin)
    if annotation in (bool, int, float, str):
        return Kind(annotation)
    return None


def _default(field: dataclasses.Field[Any]) -> Any:
    if field.default is not dataclasses.MISSING:
        return field.default
    if field.default_factory is not dataclasses.MISSING:
        return field.default_factory()
    return None


@dataclass(frozen=True)
class Layout:
    """The keys of a root dataclass, its sections, and its fields that are not configurable."""

    keys: dict[str, Key]  # by TOML key
    sections: dict[str, type]  # by name
    fixed: set[str]  # TOML keys of the fields that are not configurable

    def by_env(self) -> dict[str, Key]:
        found = {key.env: key for key in self.keys.values()}
        found.update({alias: self.keys[toml] for alias, toml in ALIASES.items() if toml in self.keys})
        return found


@functools.cache
def _comments(owner: type) -> dict[str, str]:
    """The comment ending each field's line (its last line), else the comment lines right
    above it, as one line, by field name."""
    try:
        source = textwrap.dedent(inspect.getsource(owner))
    except (OSError, TypeError):
        return {}
    at_line: dict[int, str] = {}
    alone: set[int] = set()  # lines that are only a comment
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            at_line[token.start[0]] = token.string.lstrip("#").strip()
            if not token.line[: token.start[1]].strip():
                alone.add(token.start[0])
    found: dict[str, str] = {}
    body = ast.parse(source).body[0]
    assert isinstance(body, ast.ClassDef)
    for statement in body.body:
        if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
            comment = at_line.get(statement.end_lineno or statement.lineno)
            above = statement.lineno - 1
            lines: list[str] = []
            while comment is None and above in alone:
                lines.insert(0, at_line[above])
                above -= 1
            comment = comment or " ".join(lines)
            if comment:
                found[statement.target.id] = comment
    return found


def meaning(owner: type, field: dataclasses.Field[Any]) -> str:
    """What a field is for, in one line ("" when nobody said)."""
    doc = field.metadata.get("doc")
    if isinstance(doc, str):
        return doc
    return _comments(owner).get(field.name, "")


def layout(root: type = Settings) -> Layout:
    keys: dict[str, Key] = {}
    sections: dict[str, type] = {}
    fixed: set[str] = set()

    def walk(owner: type, section: str | None) -> None:
        for field in dataclasses.fields(owner):
            annotation = _annotation(owner, field)
            kind = kind_of(annotation)
            toml = field.name if section is None else f"{section}.{field.name}"
            if kind is not None:
                doc, bounds = meaning(owner, field), field.metadata.get("bounds")
                secret = bool(field.metadata.get("secret"))
                keys[toml] = Key(section, field.name, kind, _default(field), doc, bounds, secret)
            elif section is None and isinstance(annotation, type) and dataclasses.is_dataclass(annotation):
                sections[field.name] = annotation
                walk(annotation, field.name)
            else:
                fixed.add(toml)

    walk(root, None)
    return Layout(keys, sections, fixed)


# Values -------------------------------------------------------------------------------------


def is_secret(key: Key) -> bool:
    return key.secret or bool(SECRET_NAME.search(key.name))


def shown(key: Key | None, value: Any) -> str:
    """A value as the operator would write it in TOML, with any password hidden.

    >>> url = Key(None, "redis_url", Kind(str), None, "")
    >>> shown(url, "redis://app:hunter2@cache:6379/0"), shown(None, "muchos"), shown(None, 2.5)
    ('"redis://app:***@cache:6379/0"', '"muchos"', '2.5')
    >>> shown(Key(None, "metrics_token", Kind(str), None, ""), "abc")
    '"***"'
    """
    if key is not None and is_secret(key) and value not in (None, ""):
        return '"***"'
    if isinstance(value, str):
        return json.dumps(URL_PASSWORD.sub(r"\1:***@", value), ensure_ascii=False)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(shown(key, item) for item in value) + "]"
    if isinstance(value, dict):  # an inline table
        return (
            "{" + ", ".join(f"{json.dumps(name)} = {shown(key, item)}" for name, item in value.items()) + "}"
        )
    if value is None:
        return '""'
    if isinstance(value, float | int):
        return repr(value)
    return json.dumps(str(value), ensure_ascii=False)


class Refused(Exception):
    def __init__(self, code: str, **values: str) -> None:
        super().__init__(code)
        self.code = code
        self.values = values


TRUE_WORDS = ("1", "true", "yes", "on")
FALSE_WORDS = ("0", "false", "no", "off")
KIND_MESSAGES = {
    bool: "config_kind_bool",
    int: "config_kind_int",
    float: "config_kind_float",
    str: "config_kind_str",
    dict: "config_kind_table",
}


def _one(kind: Kind, value: Any, from_text: bool) -> Any:
    expected = KIND_MESSAGES[kind.base]
    if kind.base is dict:
        if not isinstance(value, dict) or not all(isinstance(name, str) for name in value):
            raise Refused("config_type", expected=expected)
        return dict(value)
    if from_text and kind.base is not str:
        text = str(value).strip()
        try:
            if kind.base is bool:
                if text.lower() not in TRUE_WORDS + FALSE_WORDS:
                    raise ValueError(text)
                value = text.lower() in TRUE_WORDS
            else:
                value = kind.base(text)
        except ValueError:
            raise Refused("config_type", expected=expected) from None
    elif kind.base is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if type(value) is not kind.base:
        raise Refused("config_type", expected=expected)
    if isinstance(value, float) and not math.isfinite(value):
        raise Refused("config_type", expected=expected)
    if kind.choices and value not in kind.choices:
        raise Refused("config_choice", choices=", ".join(str(choice) for choice in kind.choices))
    return value


def coerce(key: Key, value: Any, from_text: bool) -> Any:
    """`value` (text from the environment, or a TOML or JSON value) as the key's type, or
    `Refused`: the wrong type, out of bounds, not one of the choices."""
    kind = key.kind
    if kind.optional and (value is None or value == ""):
        return None
    if kind.optional and kind.base is not str and isinstance(value, str) and value.strip().lower() == "none":
        return None
    if kind.several is not None:
        if from_text and kind.base is dict:  # a list of tables in a variable: JSON
            try:
                value = json.loads(str(value))
            except ValueError:
                raise Refused("config_type", expected="config_kind_list") from None
            from_text = False
        if from_text:
            items: list[Any] = [item.strip() for item in str(value).split(",") if item.strip()]
        elif isinstance(value, list | tuple):
            items = list(value)
        else:
            raise Refused("config_type", expected="config_kind_list")
        single = dataclasses.replace(kind, several=None)
        result = [_checked(key, _one(single, item, from_text)) for item in items]
        return tuple(result) if kind.several is tuple else result
    return _checked(key, _one(kind, value, from_text))


NOT_NEGATIVE: tuple[float | None, float | None, bool] = (0, None, True)


def bounds_of(key: Key) -> tuple[float | None, float | None, bool]:
    """(least, most, whether the least itself is allowed) of a number's key."""
    return key.bounds or BOUNDS.get(key.toml, NOT_NEGATIVE)


def _checked(key: Key, value: Any) -> Any:
    choices = CHOICES.get(key.toml)
    if choices is not None and value not in list(choices()):
        raise Refused("config_choice", choices=", ".join(choices()))
    if isinstance(value, bool) or not isinstance(value, int | float):
        return value
    least, most, inclusive = bounds_of(key)
    low = least is not None and (value < least if inclusive else value <= least)
    if not low and (most is None or value <= most):
        return value
    if least is None:
        raise Refused("config_at_most", most=number_text(most))
    if most is None:
        raise Refused("config_at_least" if inclusive else "config_above", least=number_text(least))
    raise Refused("config_between", least=number_text(least), most=number_text(most))


def number_text(value: float | None) -> str:
    return "" if value is None else (str(int(value)) if float(value).is_integer() else str(value))


# Sources ------------------------------------------------------------------------------------


@dataclass
class Collected:
    """Values gathered so far, by TOML key, and the problems met."""

    values: dict[str, Any] = dataclasses.field(default_factory=dict)
    problems: list[Problem] = dataclasses.field(default_factory=list)


def _suggest(word: str, candidates: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return close[0] if close else ""


def _unknown(where: str, word: str, candidates: Iterable[str]) -> Problem:
    suggestion = _suggest(word, candidates)
    if suggestion:
        return Problem(where, "config_unknown_suggest", {"suggestion": suggestion})
    return Problem(where, "config_unknown", {})


def _take(found: Collected, key: Key, where: str, value: Any, from_text: bool) -> None:
    try:
        found.values[key.toml] = coerce(key, value, from_text)
    except Refused as refused:
        found.problems.append(Problem(where, refused.code, {"value": shown(key, value), **refused.values}))


def read_mapping(found: Collected, table: Mapping[str, Any], origin: str, the: Layout) -> None:
    """The values of a parsed TOML file (or of the resolved JSON); `origin` prefixes each key."""
    every = list(the.keys) + list(the.sections)
    for name, value in table.items():
        if name in the.sections:
            if not isinstance(value, dict):
                wrong = Problem(f"{origin}{name}", "config_not_table", {"value": shown(None, value)})
                found.problems.append(wrong)
                continue
            inner = [toml.partition(".")[2] for toml in the.keys if toml.startswith(name + ".")]
            for field_name, inner_value in value.items():
                toml = f"{name}.{field_name}"
                _one_key(found, toml, inner_value, f"{origin}{toml}", the, inner)
        else:
            _one_key(found, name, value, f"{origin}{name}", the, every)


def _one_key(found: Collected, toml: str, value: Any, where: str, the: Layout, names: list[str]) -> None:
    key = the.keys.get(toml)
    if key is not None:
        _take(found, key, where, value, from_text=False)
    elif toml in the.fixed:
        found.problems.append(Problem(where, "config_fixed", {}))
    else:
        found.problems.append(_unknown(where, toml.rpartition(".")[2], names))


def read_file(found: Collected, path: Path, the: Layout) -> None:
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as error:
        reason = error.strerror or str(error)
        found.problems.append(Problem(str(path), "config_unreadable", {"reason": reason}))
        return
    except UnicodeDecodeError:
        found.problems.append(Problem(str(path), "config_syntax", {"reason": "not UTF-8"}))
        return
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        found.problems.append(Problem(str(path), "config_syntax", {"reason": str(error)}))
        return
    read_mapping(found, table, f"{path.name}: ", the)


def read_environment(found: Collected, environ: Mapping[str, str], the: Layout) -> None:
    keys = the.by_env()
    for name in sorted(environ):
        value = environ[name]
        if not name.startswith(ENV_PREFIX) or name in NOT_SETTINGS or name.startswith(NOT_SETTINGS_PREFIXES):
            continue
        if value == "":
            continue
        key = keys.get(name)
        if key is not None:
            _take(found, key, name, value, from_text=True)
            continue
        wanted = name.removeprefix(ENV_PREFIX).lower().replace(SECTION_MARK, ".")
        if wanted in the.fixed:
            found.problems.append(Problem(name, "config_fixed", {}))
        elif SECTION_MARK in name or difflib.get_close_matches(name, list(keys), n=1, cutoff=MISSPELT):
            found.problems.append(_unknown(name, name, keys))


def read_options(found: Collected, options: Mapping[str, tuple[str, Any]], the: Layout) -> None:
    """The command's own options: TOML key -> (the option as written, its value)."""
    for toml, (option, value) in options.items():
        _take(found, the.keys[toml], option, value, from_text=False)


# Settings -----------------------------------------------------------------------------------


def build(values: Mapping[str, Any], root: type[Settings] = Settings, the: Layout | None = None) -> Settings:
    """A `root` with `values` (by TOML key) over its defaults."""
    the = the or layout(root)
    top = {toml: value for toml, value in values.items() if "." not in toml}
    for section, owner in the.sections.items():
        inner = {
            toml.partition(".")[2]: value for toml, value in values.items() if toml.startswith(section + ".")
        }
        if inner:
            top[section] = owner(**inner)
    return root(**top)


def resolve(
    file: Path | None,
    environ: Mapping[str, str],
    options: Mapping[str, tuple[str, Any]] | None = None,
) -> Settings:
    """Defaults < `file` (or $TRANQUE_CONFIG) < `environ` < `options`; every problem at once."""
    the = layout()
    found = Collected()
    if file is None and environ.get(CONFIG_VARIABLE):
        file = Path(environ[CONFIG_VARIABLE])
    if file is not None:
        read_file(found, file, the)
    read_environment(found, environ, the)
    read_options(found, options or {}, the)
    if found.problems:
        raise ConfigError(found.problems)
    return build(found.values, the=the)


def values_of(settings: Settings) -> dict[str, Any]:
    """Every key's value in `settings`, nested as in the file (sections as tables)."""
    the = layout(type(settings))
    nested: dict[str, Any] = {}
    for key in the.keys.values():
        owner = settings if key.section is None else getattr(settings, key.section)
        value = getattr(owner, key.name)
        value = list(value) if isinstance(value, tuple) else value
        if key.section is None:
            nested[key.name] = value
        else:
            nested.setdefault(key.section, {})[key.name] = value
    return nested


def environment_of(settings: Settings) -> dict[str, str]:
    """The one variable from which `from_environment` makes `settings` again (in a worker)."""
    return {RESOLVED_VARIABLE: json.dumps(values_of(settings))}


def from_environment(environ: Mapping[str, str]) -> Settings:
    """A worker's settings: the resolved ones it was handed, else the file and the environment."""
    resolved = environ.get(RESOLVED_VARIABLE)
    if resolved is None:
        return resolve(None, environ)
    the = layout()
    found = Collected()
    read_mapping(found, json.loads(resolved), f"{RESOLVED_VARIABLE}: ", the)
    if found.problems:
        raise ConfigError(found.problems)
    return build(found.values, the=the)


def to_toml(settings: Settings) -> str:
    """`settings` as a TOML file (passwords and tokens hidden): what a process runs with."""
    the = layout(type(settings))
    nested = values_of(settings)
    lines: list[str] = []
    for name, value in nested.items():
        if name not in the.sections:
            lines.append(f"{name} = {shown(the.keys[name], value)}")
    for section in the.sections:
        lines += ["", f"[{section}]"]
        for name, value in nested.get(section, {}).items():
            lines.append(f"{name} = {shown(the.keys[f'{section}.{name}'], value)}")
    return "\n".join(lines) + "\n"
