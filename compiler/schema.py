"""Stage 2: JSON Schema (Draft 2020-12) validation of rule, card, scenario and farm files, with located messages.

The schemas live in ``compiler/schemas/`` (one file per kind; every file there is a kind) plus the
save-file schema, which the runtime holds (``runtime.savegame.SAVE_SCHEMA``: the runtime checks saves
without this package), and the campaign-file schema (``compiler.campaign.CAMPAIGN_SCHEMA``). ``agricola schema`` prints them, so that an editor can check and complete files
while they are written.

Every value the schema rejects is reported once and then removed from the located data, and the
mapping that was checked gets ``schema_ok = False`` and the set ``dropped`` of its top-level keys that
were (or held) rejected values: later stages never see a value of the wrong type, and they skip an
entry that is not ``schema_ok`` (its problem is reported already; one mistake gives one message).
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from runtime.shape import TYPE_WORDS as _TYPE_WORDS
from runtime.shape import type_name as _type_name

from .diagnostics import Report, Span, did_you_mean
from .loader import LDict, LList, plain

SCHEMA_DIR = Path(__file__).parent / "schemas"
FILE_KINDS = tuple(sorted(p.stem for p in SCHEMA_DIR.glob("*.json")))  # may refer to each other ("card.json")
KINDS = FILE_KINDS + ("save", "campaign")

_WHAT = {"game": "game.yaml", "game-full": "game.yaml", "space": "action space", "spaces": "action space",
         "major": "major improvement", "card": "card", "scenario": "scenario file", "farm": "farm file",
         "save": "save file", "campaign": "campaign file"}


@lru_cache(maxsize=None)
def schema(kind: str) -> dict:
    """The JSON Schema of files of ``kind`` (one of KINDS)."""
    if kind == "save":
        from runtime.savegame import SAVE_SCHEMA
        return SAVE_SCHEMA
    if kind == "campaign":
        from .campaign import CAMPAIGN_SCHEMA
        return CAMPAIGN_SCHEMA
    return json.loads((SCHEMA_DIR / f"{kind}.json").read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def _registry() -> Registry:
    resources = []
    for kind in FILE_KINDS:
        s = schema(kind)
        resources.append((s["$id"], Resource.from_contents(s)))
        resources.append((f"{kind}.json", Resource.from_contents(s)))
    return Registry().with_resources(resources)


@lru_cache(maxsize=None)
def validator(kind: str) -> Draft202012Validator:
    return Draft202012Validator(schema(kind), registry=_registry())


def all_schemas() -> dict:
    """Every schema, by kind."""
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


def _field(path) -> str:
    for part in reversed(list(path)):
        if isinstance(part, str):
            return part
    return "value"


def validate(data, kind: str, report: Report) -> bool:
    """Check ``data`` against the ``kind`` schema; every problem goes to ``report``. True when valid.

    When invalid, the rejected values are removed from ``data`` and a mapping ``data`` gets
    ``schema_ok = False`` and ``dropped`` (see the module's docstring)."""
    as_json = plain(data)
    errors = sorted(validator(kind).iter_errors(as_json), key=lambda e: (list(map(str, e.absolute_path)), e.validator))
    rejected = []
    for err in errors:
        rejected.extend(_report(err, data, kind, report))
    if not errors:
        return True
    _remove(data, rejected)
    if isinstance(data, LDict):
        data.schema_ok = False
        data.dropped = set(data.dropped) | {path[0] for path in rejected if path}
    return False


def _remove(data, paths):
    """Remove the values at ``paths`` (lists of keys and indexes) from located data; the root stays.
    The deepest and last paths go first, so that removing a list item does not move another one."""
    order = {tuple((1, p) if isinstance(p, str) else (0, p) for p in path): path for path in paths if path}
    for key in sorted(order, reverse=True):
        path = order[key]
        node = data
        for part in path[:-1]:
            try:
                node = node[part]
            except (KeyError, IndexError, TypeError):
                node = None
                break
        last = path[-1]
        if isinstance(node, dict) and last in node:
            del node[last]
            if isinstance(node, LDict):
                node.value_spans.pop(last, None)
                node.key_spans.pop(last, None)
        elif isinstance(node, list) and isinstance(last, int) and 0 <= last < len(node):
            del node[last]
            if isinstance(node, LList) and last < len(node.item_spans):
                del node.item_spans[last]


def _report(err, data, kind, report: Report) -> list:
    """Report one schema error; returns the paths of the values it rejects."""
    path = list(err.absolute_path)
    what = _WHAT.get(kind, kind)
    v = err.validator
    if "propertyNames" in err.relative_schema_path:  # a key the mapping does not allow: the key goes
        span = _span(data, path)
        custom = err.schema.get("x-message") if isinstance(err.schema, dict) else None
        report.error("E114", custom.format(value=_short(err.instance)) if custom else
                     f"'{_short(err.instance)}' is not allowed as a key here", span)
        return [path + [err.instance]]
    if v == "additionalProperties" and isinstance(err.instance, dict):
        allowed = list(err.schema.get("properties", {}))
        extra = [k for k in err.instance if k not in allowed]
        container, _, node = _locate(data, path)
        for key in extra:
            span = node.key_span(key) if isinstance(node, LDict) else _span(data, path)
            report.error("E110", f"unknown key '{key}' in {what}{did_you_mean(key, allowed)}", span)
        if extra:
            return [path + [key] for key in extra]
    if v == "required":
        missing = err.message.split("'")[1] if "'" in err.message else "?"
        container, key, node = _locate(data, path)
        span = node.span if isinstance(node, (LDict, LList)) else _span(data, path)
        report.error("E111", f"{what} is missing the required key '{missing}'", span)
        return [path]
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
        n = err.validator_value
        unit = {"Items": "item", "Length": "character", "Properties": "key"}[v[3:]] + ("s" if n != 1 else "")
        report.error("E116", f"'{field}' is {'too short' if v.startswith('min') else 'too long'} "
                     f"({'at least' if v.startswith('min') else 'at most'} {n} {unit})", span)
    elif custom:
        report.error("E114", custom.format(value=_short(err.instance)), span)
    else:
        report.error("E119", f"'{field}': {err.message}", span)
    return [path]
