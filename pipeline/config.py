"""Stage configs: YAML files + ``key.sub=value`` overrides -> one validated dataclass.

Every stage (``python -m pipeline|datagen|training|eval --config FILE [key=value ...]``) declares
its config as a (nested) dataclass and loads it with ``load_config``. A single value where a list
is expected is a one-element list (``input=data/x`` is ``input=[data/x]``). Validation happens up front
and reports *every* problem in one ``FormatError``: unknown keys (with the closest known key),
values of the wrong type, and a stage's own checks (``validate()`` methods returning messages).
"""

from __future__ import annotations

import dataclasses
import difflib
import re
import types
import typing
from pathlib import Path
from typing import Any, TypeVar

import yaml

from pipeline.errors import FormatError

T = TypeVar("T")
_TRUE_WORDS = ("on", "yes", "true")
_FALSE_WORDS = ("off", "no", "false")


class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader that also reads YAML 1.2 floats: ``1e-3`` is 0.001, not a string
    (YAML 1.1 wants ``1.0e-3``)."""


_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^[-+]?(?:\d[\d_]*)?\.?\d*[eE][-+]?\d+$"),
    list("-+0123456789."),
)


def _yaml(text: str) -> Any:
    return yaml.load(text, Loader=_Loader)  # a SafeLoader subclass: no arbitrary objects


def load_config(
    cls: type[T], path: str | Path | None = None, overrides: list[str] = (),
    section: str | None = None,
) -> T:
    """Build ``cls`` from the YAML file at ``path`` (optional) and ``key.sub=value`` overrides.

    With ``section``, only that top-level mapping of the file is read (one file can hold several
    subcommands' configs, e.g. ``record:`` and ``build:``); overrides apply inside it."""
    data: dict[str, Any] = {}
    origin = "<defaults>"
    if path is not None:
        origin = str(path)
        try:
            loaded = _yaml(Path(path).read_text(encoding="utf-8"))
        except OSError as exc:
            raise FormatError(f"config {path}: cannot read it ({exc.strerror})") from exc
        except UnicodeDecodeError as exc:
            raise FormatError(f"config {path}: byte {exc.start} is not UTF-8 text; a config is "
                              "a YAML text file (configs/ has examples)") from None
        except yaml.YAMLError as exc:
            raise FormatError(f"config {path}: not valid YAML: {_one_line(exc)}") from None
        if loaded is not None and not isinstance(loaded, dict):
            raise FormatError(f"config {path}: the top level must be a mapping of keys to values")
        data = loaded or {}
        if section is not None:
            origin = f"{path} [{section}]"
            data = data.get(section) or {}
            if not isinstance(data, dict):
                raise FormatError(f"config {path}: `{section}:` must be a mapping of keys to values")
    errors: list[str] = []
    for item in overrides:
        key, sep, raw = item.partition("=")
        if not sep or not key:
            errors.append(f"override {item!r}: write it as key=value (e.g. limit=5)")
            continue
        try:
            value = _yaml(raw) if raw else ""
        except yaml.YAMLError as exc:
            errors.append(f"override {item!r}: {raw!r} is not a YAML value ({_one_line(exc)}); "
                          "write a list as [a, b] and quote text with brackets: key='[x'")
            continue
        _set_path(data, key.strip().split("."), value)
    config = _build(cls, data, "", errors)
    if config is not None:
        errors.extend(_validate(config, ""))
    if errors:
        listing = "\n  - ".join(errors)
        raise FormatError(f"config {origin}: {len(errors)} problem(s):\n  - {listing}")
    return config


def config_to_dict(config: Any) -> dict[str, Any]:
    """The config as plain data (for manifests and result files)."""
    return dataclasses.asdict(config)


def _set_path(data: dict[str, Any], keys: list[str], value: Any) -> None:
    for key in keys[:-1]:
        nested = data.get(key)
        if not isinstance(nested, dict):
            nested = data[key] = {}
        data = nested
    data[keys[-1]] = value


def _build(cls: type, data: dict[str, Any], prefix: str, errors: list[str]) -> Any:
    hints = typing.get_type_hints(cls)
    known = {f.name: f for f in dataclasses.fields(cls) if f.init}
    kwargs: dict[str, Any] = {}
    for key, value in data.items():
        where = f"{prefix}{key}"
        if key not in known:
            close = difflib.get_close_matches(key, list(known), n=1)
            hint = f"; did you mean {prefix}{close[0]!r}?" if close else ""
            errors.append(f"unknown key {where!r}{hint} (known: {', '.join(sorted(known))})")
            continue
        kwargs[key] = _coerce(hints[key], value, where, errors)
    try:
        return cls(**kwargs)
    except TypeError as exc:
        errors.append(f"{prefix or 'config'}: {exc}")
        return None


def _coerce(hint: Any, value: Any, where: str, errors: list[str]) -> Any:
    origin = typing.get_origin(hint)
    if dataclasses.is_dataclass(hint):
        if not isinstance(value, dict):
            errors.append(f"{where}: expected a mapping, got {value!r}")
            return value
        return _build(hint, value, f"{where}.", errors)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(hint)
        if value is None and type(None) in options:
            return None
        for option in options:
            if option is not type(None) and _matches(option, value):
                return _coerce(option, value, where, errors)
        errors.append(f"{where}: {value!r} is not a {_name(hint)}")
        return value
    if origin is typing.Literal:
        allowed = typing.get_args(hint)
        if isinstance(value, bool):  # YAML 1.1 reads off/on/no/yes as booleans
            value = next((a for a in allowed if isinstance(a, str)
                          and a in (_TRUE_WORDS if value else _FALSE_WORDS)), value)
        if value not in allowed:
            errors.append(f"{where}: {value!r} is not one of {', '.join(map(repr, allowed))}")
        return value
    if origin in (list, tuple):
        args = typing.get_args(hint)
        item = args[0] if args else Any
        if isinstance(value, (str, int, float)) and origin is list and _matches(item, value):
            value = [value]  # input=PATH means input=[PATH]
        if not isinstance(value, (list, tuple)):
            errors.append(f"{where}: expected a list, got {value!r}")
            return value
        items = [_coerce(item, v, f"{where}[{i}]", errors) for i, v in enumerate(value)]
        return tuple(items) if origin is tuple else items
    if origin is dict or hint is dict:
        if not isinstance(value, dict):
            errors.append(f"{where}: expected a mapping, got {value!r}")
        return value
    if hint is Any or _matches(hint, value):
        return float(value) if hint is float else value
    errors.append(f"{where}: {value!r} is not a {_name(hint)}")
    return value


def _matches(hint: Any, value: Any) -> bool:
    if hint is Any:
        return True
    if typing.get_origin(hint) is typing.Literal:
        return value in typing.get_args(hint)
    if dataclasses.is_dataclass(hint):
        return isinstance(value, dict)
    base = typing.get_origin(hint) or hint
    if base is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if base is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if base is tuple:
        return isinstance(value, (list, tuple))
    return isinstance(value, base)


def _validate(config: Any, prefix: str) -> list[str]:
    messages: list[str] = []
    for f in dataclasses.fields(config):
        value = getattr(config, f.name)
        if dataclasses.is_dataclass(value):
            messages.extend(_validate(value, f"{prefix}{f.name}."))
    check = getattr(type(config), "validate", None)
    if check is not None:
        try:
            messages.extend(f"{prefix}{m}" for m in check(config))
        except (TypeError, AttributeError):
            pass  # a value of the wrong type, already reported: its checks cannot run
    return messages


def _one_line(exc: yaml.YAMLError) -> str:
    """A YAML error as one line: the problem and where (PyYAML spreads it over several)."""
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    mark = getattr(exc, "problem_mark", None)
    where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
    return f"{problem}{where}"


def _name(hint: Any) -> str:
    return getattr(hint, "__name__", None) or str(hint).replace("typing.", "")
