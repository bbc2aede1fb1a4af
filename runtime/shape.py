"""Checking the shape of a JSON document the runtime reads (a save file) against a small schema.

The schema is a subset of JSON Schema (Draft 2020-12): ``type``, ``const``, ``enum``, ``properties``,
``required``, ``additionalProperties`` (false or a schema), ``items``, ``prefixItems``, ``minItems``,
``maxItems``, ``minimum`` and ``maximum``. The runtime reads save files without the toolchain, so it
does not use the ``jsonschema`` package; tests check that both agree on every documented key.

Each problem comes with the line and column of the value in the JSON text, and uses the words of the
compiler's schema messages (``'seed' must be a whole number, not text``).
"""
from __future__ import annotations

import json
import re
from json.decoder import scanstring  # type: ignore[attr-defined]  # (json's own string scanner, not in typeshed)

TYPE_WORDS = {"string": "text", "integer": "a whole number", "number": "a number", "boolean": "true or false",
              "array": "a list", "object": "a mapping", "null": "nothing"}


def type_name(value) -> str:
    """How a value's type is named in messages ('text', 'a number', 'a list', …)."""
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


def has_type(value, name: str) -> bool:
    """Whether ``value`` (plain JSON data) is of the JSON Schema type ``name``."""
    if name == "null":
        return value is None
    if name == "boolean":
        return isinstance(value, bool)
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)  # stricter than JSON Schema: 2.0 is not
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if name == "string":
        return isinstance(value, str)
    if name == "array":
        return isinstance(value, list)
    if name == "object":
        return isinstance(value, dict)
    return False


def _field(path) -> str:
    """The name of the value at ``path`` in messages: its key, then its list positions ('decisions[0][1]')."""
    path = list(path)
    k = len(path)
    while k and not isinstance(path[k - 1], str):
        k -= 1
    name = path[k - 1] if k else "value"
    return name + "".join(f"[{i}]" for i in path[k:])


def problems(doc, schema: dict, path=()):
    """Every problem of ``doc`` against ``schema``: a list of (path, code, message), path a tuple of keys."""
    out: list[tuple] = []
    _check(doc, schema, tuple(path), out)
    return out


def _check(value, schema: dict, path, out):
    field = _field(path)
    if "type" in schema:
        types: list[str] = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(has_type(value, t) for t in types):
            words = " or ".join(TYPE_WORDS.get(t, t) for t in types)
            out.append((path, "E112", f"'{field}' must be {words}, not {type_name(value)}"))
            return
    if "const" in schema and value != schema["const"]:
        out.append((path, "E113", f"'{field}' must be {json.dumps(schema['const'])}"))
        return
    if "enum" in schema and value not in schema["enum"]:
        shown = value if isinstance(value, str) else json.dumps(value)
        out.append((path, "E113", f"'{shown}' is not allowed for '{field}' (use one of: "
                                  f"{', '.join(map(str, schema['enum']))})"))
        return
    if isinstance(value, str):
        if "minLength" in schema and len(value) < schema["minLength"]:
            n = schema["minLength"]
            out.append((path, "E116", f"'{field}' is too short (at least {n} character{'s' if n != 1 else ''})"))
        elif "maxLength" in schema and len(value) > schema["maxLength"]:
            n = schema["maxLength"]
            out.append((path, "E116", f"'{field}' is too long (at most {n} character{'s' if n != 1 else ''})"))
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            out.append((path, "E115", f"'{field}' must be at least {schema['minimum']}, not {value}"))
        if "maximum" in schema and value > schema["maximum"]:
            out.append((path, "E115", f"'{field}' must be at most {schema['maximum']}, not {value}"))
    if isinstance(value, dict):
        props = schema.get("properties", {})
        for key in schema.get("required", ()):
            if key not in value:
                out.append((path, "E111", f"'{field}' is missing the required key '{key}'" if path else
                            f"the save file is missing the required key '{key}'"))
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            if key in props:
                _check(item, props[key], path + (key,), out)
            elif extra is False:
                out.append((path + (key,), "E110", f"unknown key '{key}'"))
            elif isinstance(extra, dict):
                _check(item, extra, path + (key,), out)
    if isinstance(value, list):
        # a list of the wrong length is one problem: its items are not checked (they would be out of place)
        if "minItems" in schema and len(value) < schema["minItems"]:
            n = schema["minItems"]
            out.append((path, "E116", f"'{field}' is too short (at least {n} item{'s' if n != 1 else ''})"))
            return
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            n = schema["maxItems"]
            out.append((path, "E116", f"'{field}' is too long (at most {n} item{'s' if n != 1 else ''})"))
            return
        prefix = schema.get("prefixItems", [])
        for i, item in enumerate(value):
            sub = prefix[i] if i < len(prefix) else schema.get("items")
            if isinstance(sub, dict):
                _check(item, sub, path + (i,), out)


# ---------------------------------------------------------------- where a value is in the JSON text

_SPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


def line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of ``offset`` in ``text``."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def locate(text: str, path, key: bool = False) -> tuple[int, int]:
    """Line and column of the value at ``path`` (keys and list indexes) in the valid JSON ``text``; of its
    key, with ``key``. A path that is not in the text (a missing key) gives the nearest enclosing value.
    Only the values before the one sought are read (by the C decoder), so any nesting is fine."""
    def ws(i):
        m = _SPACE.match(text, i)   # (white space or none: it always matches)
        return m.end() if m else i

    pos = ws(0)
    for n, part in enumerate(path):
        opening = text[pos:pos + 1]
        if opening == "{" and isinstance(part, str):
            i = ws(pos + 1)
            found = None
            while text[i:i + 1] == '"':
                key_at = i
                name, i = scanstring(text, i + 1)
                i = ws(ws(i) + 1)  # past the ':'
                if name == part:
                    found = key_at if key and n == len(path) - 1 else i
                    break
                i = ws(_DECODER.raw_decode(text, i)[1])
                i = ws(i + 1) if text[i:i + 1] == "," else i
        elif opening == "[" and isinstance(part, int):
            i = ws(pos + 1)
            found = None
            for k in range(part + 1):
                if text[i:i + 1] in ("]", ""):
                    break
                if k == part:
                    found = i
                    break
                i = ws(_DECODER.raw_decode(text, i)[1])
                i = ws(i + 1) if text[i:i + 1] == "," else i
        else:
            found = None
        if found is None:
            break
        pos = found
    return line_col(text, pos)
