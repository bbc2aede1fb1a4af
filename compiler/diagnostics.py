"""Diagnostics: located, coded error messages that every compiler stage reports.

A diagnostic prints as::

    rules/revised/majors.yaml:9:31: error[E203]: unknown good 'sheeps' (did you mean 'sheep'?)
      at harvest: gain 1 food per 3 sheeps
                                     ^^^^^^

Error texts are part of the interface and are tested word for word.
"""
from __future__ import annotations

import difflib
import os
from dataclasses import dataclass, field
from pathlib import Path


LINE_SHOWN = 160   # a source line longer than this is shown in part, around the place of the problem


@dataclass(frozen=True)
class Span:
    """A place in a source file: 1-based line and column, and a length in characters."""

    file: str
    line: int = 0
    col: int = 0
    length: int = 1

    def shifted(self, line_offset: int, col: int, length: int) -> "Span":
        return Span(self.file, self.line + line_offset, col, length)


@dataclass
class Diagnostic:
    code: str
    message: str
    span: Span
    hint: str | None = None
    severity: str = "error"

    def sort_key(self):
        return (self.span.file, self.span.line, self.span.col, self.code, self.message)

    def format(self, sources: "SourceCache | None" = None) -> str:
        s = self.span
        file = sources.shown(s.file) if sources is not None else s.file
        where = file if not s.line else f"{file}:{s.line}:{s.col}"
        out = [f"{where}: {self.severity}[{self.code}]: {self.message}"]
        if sources is not None and s.line:
            text = sources.line(s.file, s.line)
            if text is not None:
                # control characters (a form feed, a lone carriage return) would garble the line: blanks
                shown = "".join(c if c.isprintable() or c == "\t" else " " for c in text.rstrip("\r\n")).expandtabs(1)
                col = max(1, s.col)
                width = max(1, min(s.length, max(1, len(shown) - col + 1)))
                if len(shown) > LINE_SHOWN:  # a very long line: the part around the place, marked with '…'
                    start = max(0, min(col - 1 - LINE_SHOWN // 4, len(shown) - LINE_SHOWN))
                    piece = shown[start:start + LINE_SHOWN]
                    lead = "…" if start > 0 else ""
                    shown = lead + piece + ("…" if start + LINE_SHOWN < len(shown) else "")
                    col = col - start + len(lead)
                    width = max(1, min(width, LINE_SHOWN - (col - 1 - len(lead))))
                out.append("  " + shown)
                out.append("  " + " " * (col - 1) + "^" * width)
        if self.hint:
            out.append(f"  = hint: {self.hint}")
        return "\n".join(out)


def _editor_lines(text: str) -> list[str]:
    """The lines of a text as an editor numbers them: split at line feeds only (str.splitlines would also
    split at form feeds and other separators, and the caret would be shown under another line)."""
    lines = [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]
    return lines[:-1] if lines and lines[-1] == "" else lines


def shown_path(path) -> str:
    """A file as a message prints it: relative to the working folder when it is inside it, else absolute
    (so that the printed path can be opened from where the command ran)."""
    full = os.path.abspath(path)
    here = os.getcwd()
    try:
        if os.path.commonpath([full, here]) == here:
            return os.path.relpath(full, here)
    except ValueError:  # another drive
        pass
    return full


class SourceCache:
    """Reads source lines for caret displays (files are read once), and knows where each named file is.

    A span names a file by a stable name (a pack's files relative to its workspace, so that generated code
    and build keys do not depend on the working folder); ``shown`` is the path printed for it."""

    def __init__(self):
        self._lines: dict[str, list[str] | None] = {}
        self._paths: dict[str, Path] = {}

    def add_text(self, file: str, text: str) -> None:
        self._lines[file] = _editor_lines(text)

    def add_path(self, file: str, path) -> None:
        """The file a span's name stands for."""
        self._paths[file] = Path(path)

    def shown(self, file: str) -> str:
        """The path printed for a span's file: where it is, from the working folder (a name that stands
        for no known file, such as an unknown pack's, as it is)."""
        path = self._paths.get(file)
        return shown_path(path) if path is not None else file

    def line(self, file: str, line: int) -> str | None:
        if file not in self._lines:
            try:
                self._lines[file] = _editor_lines(Path(self._paths.get(file, file)).read_text(
                    encoding="utf-8", errors="replace"))
            except OSError:
                self._lines[file] = None
        lines = self._lines[file]
        if lines is None or not (1 <= line <= len(lines)):
            return None
        return lines[line - 1]


@dataclass
class Report:
    """Collects every problem of a run, so that all of them are shown at once."""

    diagnostics: list[Diagnostic] = field(default_factory=list)
    sources: SourceCache = field(default_factory=SourceCache)

    def error(self, code: str, message: str, span: Span, hint: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(code, message, span, hint))

    def warning(self, code: str, message: str, span: Span, hint: str | None = None) -> None:
        """Something the user should know that does not stop the run (it is shown, and the run goes on)."""
        self.diagnostics.append(Diagnostic(code, message, span, hint, severity="warning"))

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "warning"]

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    def __bool__(self) -> bool:  # a report is "truthy" when it holds errors
        return bool(self.errors)

    def sorted(self) -> list[Diagnostic]:
        seen = set()
        out = []
        for d in sorted(self.diagnostics, key=Diagnostic.sort_key):
            key = d.sort_key()
            if key not in seen:
                seen.add(key)
                out.append(d)
        return out

    def render(self) -> str:
        return "\n".join(d.format(self.sources) for d in self.sorted())

    def summary(self) -> str:
        """The last line of every report: '1 problem found', '3 problems found' (and warnings, if any:
        '1 problem found, 2 warnings')."""
        from runtime.words import plural
        shown = self.sorted()
        warnings = sum(1 for d in shown if d.severity == "warning")
        if warnings == len(shown) and warnings:
            return plural(warnings, "warning")
        text = f"{plural(len(shown) - warnings, 'problem')} found"
        return text + (f", {plural(warnings, 'warning')}" if warnings else "")


class CompileError(Exception):
    """Raised by a stage when it cannot go on; carries the report."""

    def __init__(self, report: Report):
        super().__init__(report.render())
        self.report = report


def did_you_mean(word: str, candidates) -> str:
    """' (did you mean 'x'?)' when a close candidate exists, else ''."""
    matches = difflib.get_close_matches(str(word), sorted(set(candidates)), n=1, cutoff=0.6)
    return f" (did you mean '{matches[0]}'?)" if matches else ""
