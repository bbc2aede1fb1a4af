"""Stage 2: JSON Schema (Draft 2020-12) validation of rule and card files, with located messages.

The schemas live in ``compiler/schemas/`` and ``agricola schema`` prints them, so that an editor can
check and complete card files while they are written.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from .diagnostics import Report, Span, did_you_mean
from .loader import LDict, LList, plain

SCHEMA_DIR = Path(__file__).parent / "schemas"
KINDS = ("game", "game-full", "space", "spaces", "major", "card", "scenario")

_WHAT = {"game": "game.yaml", "game-full": "game.yaml", "space": "action space", "spaces": "action space",
         "major": "major improvement", "card": "card", "scenario": "scenario file"}


@lru_cache(maxsize=None)
def schema(kind: str) -> dict:
    return json.loads((SCHEMA_DIR / f"{kind}.json").read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def _registry() -> Registry:
    resources = []
    for kind in KINDS:
        s = schema(kind)
        resources.append((s["$id"], Resource.from_contents(s)))
        resources.append((f"{kind}.json", Resource.from_contents(s)))
    return Registry().with_resources(resources)


@lru_cache(maxsize=None)
def validator(kind: str) -> Draft202012Validator:
    return Draft202012Validator(schema(kind), registry=_registry())


def all_schemas() -> dict:
    return {kind: schema(kind) for kind in KINDS}


def _short(value) -> str:
    """A value for a message, cut short when it is long (a 5,000-character id is not echoed)."""
    text = str(value)
    return text if len(text) <= 40 else text[:40] + "…"


def _locate(data, path):
    """(container, key) of the value at ``path`` in located data."""
    container, key = None, None
    node = data
    for part in path:
        container, key = node, part
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            break
    return container, key, node


def _span(data, path) -> Span:
    container, key, node = _locate(data, path)
    if container is None:
        return getattr(data, "span", Span("<memory>"))
    if isinstance(container, LDict):
        return container.span_of(key)
    if isinstance(container, LList):
        return container.span_of(key)
    return getattr(container, "span", Span("<memory>"))


def _type_name(value) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a number"
    if isinstance(value, float):
        return "a decimal number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


_TYPE_WORDS = {"string": "text", "integer": "a whole number", "number": "a number", "boolean": "true or false",
               "array": "a list", "object": "a mapping", "null": "nothing"}


def _field(path) -> str:
    for part in reversed(list(path)):
        if isinstance(part, str):
            return part
    return "value"


def validate(data, kind: str, report: Report) -> bool:
    """Check ``data`` against the ``kind`` schema; every problem goes to ``report``. True when valid."""
    as_json = plain(data)
    errors = sorted(validator(kind).iter_errors(as_json), key=lambda e: (list(map(str, e.absolute_path)), e.validator))
    ok = True
    for err in errors:
        ok = False
        _report(err, data, kind, report)
    return ok


def _report(err, data, kind, report: Report):
    path = list(err.absolute_path)
    what = _WHAT.get(kind, kind)
    v = err.validator
    if v == "additionalProperties" and isinstance(err.instance, dict):
        allowed = list(err.schema.get("properties", {}))
        extra = [k for k in err.instance if k not in allowed]
        container, _, node = _locate(data, path)
        for key in extra:
            span = node.key_span(key) if isinstance(node, LDict) else _span(data, path)
            report.error("E110", f"unknown key '{key}' in {what}{did_you_mean(key, allowed)}", span)
        if extra:
            return
    if v == "required":
        missing = err.message.split("'")[1] if "'" in err.message else "?"
        container, key, node = _locate(data, path)
        span = node.span if isinstance(node, (LDict, LList)) else _span(data, path)
        report.error("E111", f"{what} is missing the required key '{missing}'", span)
        return
    field = _field(path)
    span = _span(data, path)
    custom = err.schema.get("x-message") if isinstance(err.schema, dict) else None
    if v == "type":
        expected = err.validator_value
        expected = expected if isinstance(expected, list) else [expected]
        words = " or ".join(_TYPE_WORDS.get(t, t) for t in expected)
        report.error("E112", f"'{field}' must be {words}, not {_type_name(err.instance)}", span)
    elif v == "enum":
        options = ", ".join(map(str, err.validator_value))
        report.error("E113", f"'{err.instance}' is not allowed for '{field}' (use one of: {options})"
                     f"{did_you_mean(err.instance, map(str, err.validator_value))}", span)
    elif v == "pattern" and custom:
        report.error("E114", custom.format(value=_short(err.instance)), span)
    elif v in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        word = "at least" if "inimum" in v else "at most"
        report.error("E115", f"'{field}' must be {word} {err.validator_value}, not {err.instance}", span)
    elif v in ("minItems", "maxItems", "minLength", "maxLength", "minProperties", "maxProperties"):
        report.error("E116", f"'{field}' is {'too short' if v.startswith('min') else 'too long'} "
                     f"({err.message.split(' is ')[-1] if ' is ' in err.message else err.message})", span)
    elif v == "propertyNames":
        report.error("E114", f"'{err.instance}' is not allowed as a key here", span)
    elif custom:
        report.error("E114", custom.format(value=_short(err.instance)), span)
    else:
        report.error("E119", f"'{field}': {err.message}", span)
