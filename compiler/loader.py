"""Stage 1: load YAML safely, keeping the file/line/column of every key and value.

Only plain YAML (mappings, sequences, strings, numbers, booleans, null) is accepted: any tag that
asks for a Python object is rejected, and nothing is ever constructed from a tag. Limits on file
size, nesting depth and alias expansion keep hostile files harmless (see docs/limits.md).
"""
from __future__ import annotations

from pathlib import Path

import yaml
from yaml.constructor import SafeConstructor
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

from .diagnostics import Report, Span, did_you_mean

MAX_FILE_BYTES = 2_000_000
MAX_DEPTH = 64
MAX_NODES = 200_000
MAX_INT = 10**9

_STANDARD_TAGS = {
    "tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null", "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq", "tag:yaml.org,2002:timestamp",
}


class LStr(str):
    """A string from a YAML file that remembers where its text is.

    ``lines[i]`` is the (file line, file column) where line ``i`` of the text starts, so that an error
    inside an effect text can point at the exact character in the file.
    """

    span: Span
    lines: tuple

    def __new__(cls, value: str, span: Span, lines=None):
        obj = str.__new__(cls, value)
        obj.span = span
        obj.lines = tuple(lines) if lines else ((span.line, span.col),)
        return obj

    def span_at(self, line_index: int, col_index: int, length: int = 1) -> Span:
        """The file span of text line ``line_index`` (0-based), column ``col_index`` (0-based)."""
        if not self.lines:
            return self.span
        line_index = max(0, min(line_index, len(self.lines) - 1))
        fline, fcol = self.lines[line_index]
        return Span(self.span.file, fline, fcol + col_index, max(1, length))


class LDict(dict):
    """A mapping from a YAML file; ``span_of(key)`` is where the key's value is, ``key_span(key)`` the key."""

    span: Span

    def __init__(self, *args, span: Span | None = None, **kw):
        super().__init__(*args, **kw)
        self.span = span or Span("<memory>")
        self.value_spans: dict = {}
        self.key_spans: dict = {}

    def span_of(self, key) -> Span:
        return self.value_spans.get(key) or self.key_spans.get(key) or self.span

    def key_span(self, key) -> Span:
        return self.key_spans.get(key) or self.span


class LList(list):
    span: Span

    def __init__(self, *args, span: Span | None = None):
        super().__init__(*args)
        self.span = span or Span("<memory>")
        self.item_spans: list[Span] = []

    def span_of(self, index: int) -> Span:
        if 0 <= index < len(self.item_spans):
            return self.item_spans[index]
        return self.span


def span_of(container, key) -> Span:
    """The span of ``container[key]`` when known, else of the container."""
    if isinstance(container, LDict):
        return container.span_of(key)
    if isinstance(container, LList) and isinstance(key, int):
        return container.span_of(key)
    return getattr(container, "span", Span("<memory>"))


def _mark_span(file: str, mark, length: int = 1) -> Span:
    if mark is None:
        return Span(file)
    return Span(file, mark.line + 1, mark.column + 1, length)


class _Converter:
    def __init__(self, file: str, text: str, report: Report):
        self.file = file
        self.text_lines = text.splitlines()
        self.report = report
        self.nodes = 0
        self.failed = False
        self._ctor = SafeConstructor()

    def fail(self, code, message, span, hint=None):
        self.report.error(code, message, span, hint)
        self.failed = True

    def convert(self, node, depth=0):
        if self.failed:
            return None
        self.nodes += 1
        if self.nodes > MAX_NODES:
            self.fail("E104", f"file expands to more than {MAX_NODES} YAML nodes (alias bomb?)",
                      _mark_span(self.file, node.start_mark))
            return None
        if depth > MAX_DEPTH:
            self.fail("E103", f"nesting deeper than {MAX_DEPTH} levels", _mark_span(self.file, node.start_mark))
            return None
        if node.tag not in _STANDARD_TAGS:
            self.fail("E102", f"YAML tag '{node.tag}' is not allowed (only plain YAML data is read)",
                      _mark_span(self.file, node.start_mark, len(node.tag)))
            return None
        if isinstance(node, MappingNode):
            out = LDict(span=_mark_span(self.file, node.start_mark))
            for key_node, value_node in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    self.fail("E102", "YAML merge keys ('<<') are not allowed",
                              _mark_span(self.file, key_node.start_mark, 2))
                    return None
                key = self.convert(key_node, depth + 1)
                if self.failed:
                    return None
                if isinstance(key, (LDict, LList)):
                    self.fail("E105", "a mapping key must be a plain value", _mark_span(self.file, key_node.start_mark))
                    return None
                key = str(key)
                kspan = _mark_span(self.file, key_node.start_mark, len(key))
                if key in out:
                    self.report.error("E106", f"duplicate key '{key}'", kspan,
                                      f"the first '{key}' is on line {out.key_spans[key].line}")
                    continue
                value = self.convert(value_node, depth + 1)
                out[key] = value
                out.key_spans[key] = kspan
                out.value_spans[key] = _mark_span(self.file, value_node.start_mark,
                                                  self._value_length(value_node))
            return out
        if isinstance(node, SequenceNode):
            out = LList(span=_mark_span(self.file, node.start_mark))
            for item in node.value:
                out.append(self.convert(item, depth + 1))
                out.item_spans.append(_mark_span(self.file, item.start_mark, self._value_length(item)))
            return out
        assert isinstance(node, ScalarNode)
        return self._scalar(node)

    def _value_length(self, node) -> int:
        if isinstance(node, ScalarNode) and node.style in (None, "", "'", '"'):
            if node.start_mark.line == node.end_mark.line:
                return max(1, node.end_mark.column - node.start_mark.column)
        return 1

    def _scalar(self, node: ScalarNode):
        tag = node.tag
        if tag == "tag:yaml.org,2002:str" or tag == "tag:yaml.org,2002:timestamp":
            return self._string(node)
        try:
            if tag == "tag:yaml.org,2002:int":
                value = self._ctor.construct_yaml_int(node)
                if abs(value) > MAX_INT:
                    self.report.error("E107", f"number {node.value[:20]} is too large (the limit is {MAX_INT})",
                                      _mark_span(self.file, node.start_mark, len(node.value)))
                    return 0
                return value
            if tag == "tag:yaml.org,2002:float":
                value = self._ctor.construct_yaml_float(node)
                if value != value or value in (float("inf"), float("-inf")) or abs(value) > MAX_INT:
                    self.report.error("E107", f"number {node.value[:20]} is not a usable number",
                                      _mark_span(self.file, node.start_mark, len(node.value)))
                    return 0
                return value
            if tag == "tag:yaml.org,2002:bool":
                return self._ctor.construct_yaml_bool(node)
            if tag == "tag:yaml.org,2002:null":
                return None
        except (ValueError, TypeError, OverflowError):
            self.report.error("E107", f"cannot read the value '{node.value[:40]}'",
                              _mark_span(self.file, node.start_mark))
            return None
        return self._string(node)

    def _string(self, node: ScalarNode) -> LStr:
        value = node.value
        start = node.start_mark
        if node.style in ("|", ">"):
            # Block scalar: content starts on the next line, at the block's indentation.
            lines = []
            first = start.line + 1  # 0-based index of the first content line
            indent = None
            for i in range(first, min(len(self.text_lines), node.end_mark.line + 1)):
                raw = self.text_lines[i]
                if raw.strip():
                    indent = len(raw) - len(raw.lstrip(" "))
                    break
            indent = indent or 0
            nlines = value.count("\n") + 1
            for k in range(nlines):
                lines.append((first + k + 1, indent + 1))
            span = Span(self.file, first + 1, indent + 1, 1)
            return LStr(value, span, lines)
        col = start.column + 1 + (1 if node.style in ("'", '"') else 0)
        span = Span(self.file, start.line + 1, col, max(1, len(value)))
        return LStr(value, span, [(start.line + 1, col)])


_FAILED = object()
_CLoader = getattr(yaml, "CSafeLoader", None)


def _fast_compose(text: str):
    """Compose with libyaml when it is available (much faster); _FAILED on any problem."""
    if _CLoader is None:
        return _FAILED
    try:
        return yaml.compose(text, Loader=_CLoader)
    except (yaml.YAMLError, RecursionError, ValueError):
        return _FAILED


def load_yaml_text(text: str, file: str, report: Report):
    """Parse YAML text into located values; problems go to ``report``. Returns None on failure."""
    report.sources.add_text(file, text)
    node = _fast_compose(text)
    try:
        if node is _FAILED:
            # the C parser found a problem: read again with the Python parser for its clearer message
            node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = (exc.problem or exc.context or "invalid YAML").strip()
        hint = None
        if "mapping values are not allowed" in problem:
            hint = "text that contains ': ' must be quoted (\"…\") or written as a block after '|'"
        report.error("E101", f"invalid YAML: {problem}", _mark_span(file, mark), hint)
        return None
    except yaml.YAMLError as exc:
        report.error("E101", f"invalid YAML: {str(exc).splitlines()[0]}", Span(file, 1, 1))
        return None
    except RecursionError:
        report.error("E103", f"nesting deeper than {MAX_DEPTH} levels", Span(file, 1, 1))
        return None
    if node is None:
        return None
    conv = _Converter(file, text, report)
    try:
        return conv.convert(node)
    except RecursionError:
        report.error("E103", f"nesting deeper than {MAX_DEPTH} levels", Span(file, 1, 1))
        return None


def load_yaml_file(path: Path, report: Report, display: str | None = None):
    """Read and parse a YAML file with the size limit; returns located data or None."""
    name = display or str(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        report.error("E100", f"cannot read file: {exc.strerror or exc}", Span(name))
        return None
    if size > MAX_FILE_BYTES:
        report.error("E108", f"file is {size} bytes; the limit is {MAX_FILE_BYTES} bytes", Span(name, 1, 1))
        return None
    try:
        raw = path.read_bytes()
    except OSError as exc:
        report.error("E100", f"cannot read file: {exc.strerror or exc}", Span(name))
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        report.error("E109", "file is not valid UTF-8 text", Span(name, line, 1))
        return None
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        report.error("E109", "file contains a NUL byte; it is not a text file", Span(name, line, 1))
        return None
    return load_yaml_text(text, name, report)


def suggest_key(key: str, allowed) -> str:
    return did_you_mean(key, allowed)
