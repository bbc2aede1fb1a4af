"""Stage 1: load YAML safely, keeping the file/line/column of every key and value.

Only plain YAML (mappings, sequences, strings, numbers, booleans, null) is accepted: any tag that
asks for a Python object is rejected, and nothing is ever constructed from a tag. Limits on file
size, nesting depth and alias expansion keep hostile files harmless (see docs/limits.md).
"""
from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import yaml
from yaml.constructor import SafeConstructor
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

from runtime.fileio import not_regular_reason, read_regular_bytes

from .diagnostics import Report, Span

MAX_FILE_BYTES = 2_000_000
MAX_DEPTH = 64
MAX_NODES = 50_000
MAX_INT = 10**9

_STANDARD_TAGS = {
    "tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null", "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq", "tag:yaml.org,2002:timestamp",
}


class LStr(str):
    """A string from a YAML file that remembers where its text is.

    ``segments`` maps offsets in the value to file positions: a sorted tuple of
    ``(value offset, file line, file column)``; a character at offset ``o`` is at the column of the last
    segment starting at or before ``o`` plus the distance from that segment's start. This keeps errors
    inside effects exact for ``|`` blocks, folded and plain multi-line text, and quoted text with escapes.
    """

    span: Span
    segments: tuple

    def __new__(cls, value: str, span: Span, segments=None):
        obj = str.__new__(cls, value)
        obj.span = span
        obj.segments = tuple(segments) if segments else ((0, span.line, span.col),)
        return obj

    def offset_of(self, line_index: int, col_index: int) -> int:
        lines = str(self).split("\n")
        line_index = max(0, min(line_index, len(lines) - 1))
        return sum(len(x) + 1 for x in lines[:line_index]) + max(0, col_index)

    def span_at(self, line_index: int, col_index: int, length: int = 1) -> Span:
        """The file span of text line ``line_index`` (0-based), column ``col_index`` (0-based)."""
        offset = self.offset_of(line_index, col_index)
        seg = self.segments[0]
        for candidate in self.segments:
            if candidate[0] <= offset:
                seg = candidate
            else:
                break
        return Span(self.span.file, seg[1], seg[2] + (offset - seg[0]), max(1, length))


class LDict(dict):
    """A mapping from a YAML file; ``span_of(key)`` is where the key's value is, ``key_span(key)`` the key."""

    span: Span

    def __init__(self, *args, span: Span | None = None, **kw):
        super().__init__(*args, **kw)
        self.span = span or Span("<memory>")
        self.value_spans: dict = {}
        self.key_spans: dict = {}
        self.schema_ok = True  # False once the schema found a problem in this mapping
        self.dropped: set = set()  # its top-level keys whose value the schema rejected (and removed)

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


def plain(value):
    """Located data as plain JSON values (dicts with text keys, lists, str, numbers)."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, str):
        return str(value)
    return value


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
            shown = node.tag
            if shown.startswith("tag:yaml.org,2002:"):
                shown = "!!" + shown[len("tag:yaml.org,2002:"):]
            line = self.text_lines[node.start_mark.line] if node.start_mark.line < len(self.text_lines) else ""
            written = line[node.start_mark.column:].split()[0] if line[node.start_mark.column:].split() else shown
            if written.startswith("!"):
                shown = written
            self.fail("E102", f"YAML tag '{shown}' is not allowed (only plain YAML data is read)",
                      _mark_span(self.file, node.start_mark, len(shown)),
                      "a file with such a tag is not read at all")
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
        if node.style == "|":
            first = start.line + 1  # 0-based index of the first content line
            indent = self._block_indent(node, first)
            segments = []
            offset = 0
            for k, line in enumerate(value.split("\n")):
                segments.append((offset, first + k + 1, indent + 1))
                offset += len(line) + 1
            return LStr(value, Span(self.file, first + 1, indent + 1, 1), segments)
        if node.style == ">" or (start.line != node.end_mark.line):
            return self._folded(node)
        col = start.column + 1
        if node.style == '"':
            return LStr(value, Span(self.file, start.line + 1, col + 1, max(1, len(value))),
                        self._quoted_segments(node, col + 1, double=True))
        if node.style == "'":
            return LStr(value, Span(self.file, start.line + 1, col + 1, max(1, len(value))),
                        self._quoted_segments(node, col + 1, double=False))
        return LStr(value, Span(self.file, start.line + 1, col, max(1, len(value))), [(0, start.line + 1, col)])

    def _block_indent(self, node, first: int) -> int:
        """The indentation of a block scalar's content (explicit indicators like ``|2`` honoured)."""
        header = self.text_lines[node.start_mark.line][node.start_mark.column:] if node.start_mark.line < len(
            self.text_lines) else ""
        digits = [ch for ch in header[1:3] if ch.isdigit()]
        if digits:
            line = self.text_lines[node.start_mark.line]
            stripped = line.lstrip(" ")
            key_col = len(line) - len(stripped)
            while stripped.startswith("- "):
                key_col += 2
                stripped = stripped[2:].lstrip(" ")
                key_col = len(line) - len(stripped)
            parent = key_col if not line.lstrip(" ").startswith("- ") else key_col
            return parent + int(digits[0])
        for i in range(first, min(len(self.text_lines), node.end_mark.line + 1)):
            raw = self.text_lines[i]
            if raw.strip():
                return len(raw) - len(raw.lstrip(" "))
        return 0

    def _folded(self, node) -> LStr:
        """Folded (``>``), plain or quoted text over several lines: find each source line's text in turn."""
        value = node.value
        start = node.start_mark
        first = start.line + (1 if node.style == ">" else 0)
        segments = []
        pos = 0
        for i in range(first, min(len(self.text_lines), node.end_mark.line + 1)):
            raw = self.text_lines[i]
            if i == start.line and node.style != ">":
                col0 = start.column + (1 if node.style in ("'", '"') else 0)
                piece = raw[col0:]
            else:
                col0 = len(raw) - len(raw.lstrip(" "))
                piece = raw[col0:]
            piece = piece.rstrip()
            if node.style in ("'", '"') and i == node.end_mark.line:
                piece = piece[:-1] if piece.endswith(("'", '"')) else piece
            if not piece:
                continue
            probe = piece[: min(len(piece), 12)]
            found = value.find(probe, pos)
            if found < 0:
                continue
            segments.append((found, i + 1, col0 + 1))
            # go past the whole line: a later line's first words found inside this one would put the
            # caret on the wrong line
            pos = found + (len(piece) if value.startswith(piece, found) else len(probe))
        if not segments:
            segments = [(0, start.line + 1, start.column + 1)]
        return LStr(value, Span(self.file, segments[0][1], segments[0][2], max(1, len(value))), segments)

    def _quoted_segments(self, node, col: int, double: bool):
        """Segments of a one-line quoted string, so that escapes do not shift later columns."""
        line = node.start_mark.line + 1
        raw = self.text_lines[node.start_mark.line][col - 1:] if node.start_mark.line < len(self.text_lines) else ""
        segments = [(0, line, col)]
        i = 0
        out = 0
        while i < len(raw):
            ch = raw[i]
            if double and ch == '"':
                break
            if not double and ch == "'":
                if raw[i + 1: i + 2] == "'":
                    i += 2
                    out += 1
                    segments.append((out, line, col + i))
                    continue
                break
            if double and ch == "\\":
                nxt = raw[i + 1: i + 2]
                width = {"x": 4, "u": 6, "U": 10}.get(nxt, 2)
                i += width
                out += 1
                segments.append((out, line, col + i))
                continue
            i += 1
            out += 1
        return segments


_FAILED = object()
_CLoader = getattr(yaml, "CSafeLoader", None)


# A file libyaml rejects is read again by the (slow) Python parser for its clearer message, unless it is
# longer than this: then libyaml's message is shown (keeps big hostile files fast).
_REREAD_LIMIT = 100_000


def _fast_compose(text: str):
    """Compose with libyaml when it is available (much faster); (_FAILED, error or None) on any problem."""
    if _CLoader is None:
        return _FAILED, None
    try:
        return yaml.compose(text, Loader=_CLoader), None
    except (yaml.YAMLError, RecursionError, ValueError) as exc:
        return _FAILED, exc


def _too_many_nodes(text: str):
    """The mark of the first value beyond MAX_NODES distinct values, or None; reads libyaml's events
    only that far. (Every value takes at least two characters, so only long texts need this.)"""
    if _CLoader is None or len(text) <= 2 * MAX_NODES:
        return None
    n = 0
    try:
        for ev in yaml.parse(text, Loader=_CLoader):
            if isinstance(ev, (yaml.ScalarEvent, yaml.AliasEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                n += 1
                if n > MAX_NODES:
                    return ev.start_mark
    except (yaml.YAMLError, RecursionError, ValueError):
        return None
    return None


def _children(node):
    if isinstance(node, SequenceNode):
        return node.value
    if isinstance(node, MappingNode):
        return [n for pair in node.value for n in pair]
    return ()


def _oversized(root):
    """The innermost node whose value, aliases expanded, has more than MAX_NODES nodes; None if none.

    Counts each distinct node once (without recursion), so an alias bomb is found in time proportional
    to the size of the file, not of its expansion. A recursive alias is left to the converter (E103).
    """
    if isinstance(root, ScalarNode):
        return None
    size: dict = {}       # id of a collection node -> its expanded size (at most MAX_NODES + 1)
    visiting = set()      # collection nodes whose children are being counted: the path from the root
    stack = [root]
    while stack:
        node = stack[-1]
        key = id(node)
        if key in size:
            stack.pop()
            continue
        kids = _children(node)
        if key not in visiting:
            visiting.add(key)
            pending = [ch for ch in kids if not isinstance(ch, ScalarNode) and id(ch) not in size]
            if any(id(ch) in visiting for ch in pending):
                return None  # an alias inside its own anchor
            if pending:
                stack.extend(pending)
                continue
        stack.pop()
        visiting.discard(key)
        total = 1
        for ch in kids:
            total += size.get(id(ch), 1)
        size[key] = min(total, MAX_NODES + 1)
    if size[id(root)] <= MAX_NODES:
        return None
    node = root
    while True:
        bigger = next((ch for ch in _children(node) if size.get(id(ch), 0) > MAX_NODES), None)
        if bigger is None:
            return node
        node = bigger


_ODD_BREAK = re.compile("[\x85\u2028\u2029]|\r(?!\n)")


def _text_span(file: str, text: str, at: int) -> Span:
    """The place of character ``at`` of a text, in lines as an editor counts them."""
    line = text.count("\n", 0, at) + 1
    return Span(file, line, at - (text.rfind("\n", 0, at) + 1) + 1)


def load_yaml_text(text: str, file: str, report: Report):
    """Parse YAML text into located values; problems go to ``report``. Returns None on failure."""
    report.sources.add_text(file, text)
    odd = _ODD_BREAK.search(text)
    if odd is not None:  # YAML would count a line there that editors do not show: every line number after it is off
        report.error("E109", f"file contains the line separator U+{ord(odd.group(0)[0]):04X}, which YAML reads as a "
                     "line break; use a plain line break", _text_span(file, text, odd.start()))
        return None
    many = _too_many_nodes(text)
    if many is not None:
        report.error("E104", f"file has more than {MAX_NODES} YAML nodes", _mark_span(file, many))
        return None
    node, fast_error = _fast_compose(text)
    try:
        if node is _FAILED:
            if isinstance(fast_error, yaml.MarkedYAMLError) and "maximum nesting depth" in str(fast_error):
                report.error("E103", f"nesting deeper than {MAX_DEPTH} levels",
                             _mark_span(file, fast_error.problem_mark or fast_error.context_mark))
                return None
            if isinstance(fast_error, yaml.YAMLError) and len(text) > _REREAD_LIMIT:
                raise fast_error
            # the C parser found a problem: read again with the Python parser for its clearer message
            node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = (exc.problem or exc.context or "invalid YAML").strip()
        hint = None
        lines = text.splitlines()
        line = lines[mark.line] if mark is not None and mark.line < len(lines) else ""
        if "mapping values are not allowed" in problem:
            value = line.split(": ", 1)[1] if ": " in line else ""
            if ": " in value or value.rstrip().endswith(":"):
                hint = "text that contains ': ' must be quoted (\"…\") or written as a block after '|'"
            else:
                hint = "check the indentation of this line: keys of one mapping start in the same column"
        elif "cannot start any token" in problem and "\\t" in problem:
            problem = "a tab character; YAML indentation must use spaces"
        elif "expected <block end>, but found" in problem:
            problem = "unexpected text here"
            hint = "check the indentation, and that every quote opened above is closed"
        elif "while scanning a quoted scalar" in (exc.context or "") and exc.context_mark is not None:
            mark = exc.context_mark
            problem = "this quoted text is never closed"
        elif "could not find expected ':'" in problem:
            hint = "each line of a mapping needs 'key: value'; continue long text in a block after '|'"
        report.error("E101", f"invalid YAML: {problem}", _mark_span(file, mark), hint)
        return None
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow (a control character)
        report.error("E101", f"invalid YAML: the control character U+{exc.character:04X} is not allowed"
                     if isinstance(exc.character, int) else f"invalid YAML: {str(exc).splitlines()[0]}",
                     _text_span(file, text, exc.position))
        return None
    except yaml.YAMLError as exc:
        report.error("E101", f"invalid YAML: {str(exc).splitlines()[0]}", Span(file, 1, 1))
        return None
    except RecursionError:
        report.error("E103", f"nesting deeper than {MAX_DEPTH} levels", Span(file, 1, 1))
        return None
    if node is None:
        return None
    bomb = _oversized(node)
    if bomb is not None:  # aliases expand to too many values: refuse before building any of them
        report.error("E104", f"file expands to more than {MAX_NODES} YAML nodes (alias bomb?)",
                     _mark_span(file, bomb.start_mark))
        return None
    conv = _Converter(file, text, report)
    try:
        data = conv.convert(node)
        return None if conv.failed else data
    except RecursionError:
        report.error("E103", f"nesting deeper than {MAX_DEPTH} levels", Span(file, 1, 1))
        return None


def load_yaml_file(path: Path, report: Report, display: str | None = None):
    """Read and parse a YAML file with the size limit; returns located data or None. Only regular files
    are read: a folder, device, named pipe or socket is refused at once (E100)."""
    name = display or str(path)
    report.sources.add_path(name, path)
    try:
        st = os.stat(path)
    except OSError as exc:
        report.error("E100", f"cannot read file: {exc.strerror or exc}", Span(name))
        return None
    if not stat.S_ISREG(st.st_mode):
        report.error("E100", f"cannot read file: {not_regular_reason(st.st_mode)}", Span(name))
        return None
    if st.st_size > MAX_FILE_BYTES:
        report.sources.add_text(name, "")
        report.error("E108", f"file is {st.st_size} bytes; the limit is {MAX_FILE_BYTES} bytes", Span(name, 1, 1))
        return None
    try:
        raw = read_regular_bytes(path, MAX_FILE_BYTES)
    except OSError as exc:
        report.error("E100", f"cannot read file: {exc.strerror or exc}", Span(name))
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        col = len(before[before.rfind(b"\n") + 1:].decode("utf-8", errors="replace")) + 1
        report.sources.add_text(name, raw.decode("utf-8", errors="replace"))
        report.error("E109", "file is not valid UTF-8 text", Span(name, line, col))
        return None
    if "\x00" in text:
        at = text.index("\x00")
        line = text[:at].count("\n") + 1
        col = at - (text.rfind("\n", 0, at) + 1) + 1
        report.sources.add_text(name, text.replace("\x00", " "))
        report.error("E109", "file contains a NUL byte; it is not a text file", Span(name, line, col))
        return None
    return load_yaml_text(text, name, report)

