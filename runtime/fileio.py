"""Reading and writing files safely.

Reading: only regular files are read. A device (``/dev/zero``), a named pipe or a socket is refused at
once, without blocking and without reading from it, and a file is read only up to a size limit.
``read_json_file`` takes the first steps every JSON file of the project goes through (saves, campaigns):
a regular file under the size limit, UTF-8 text (the bad byte located), JSON; each caller words the
problems for its own kind of file.

Writing is atomic: the new content goes to a temporary file beside the target, is flushed (and synced
when asked) and renamed over it, so a crash leaves the old file or the new one, never half of one. The
new file gets the permissions any new file gets (0666 less the umask), like a file written by ``open``.
A temporary file left behind by a killed run is removed the next time the same file is written.
"""
from __future__ import annotations

import errno
import os
import re
import stat
from pathlib import Path

from mypy_extensions import mypyc_attr


@mypyc_attr(native_class=False)  # a builtin's subclass stays a Python class when compiled (mypyc)
class UnreadableFile(OSError):
    """A path that is not a regular file, or one over the size limit; ``reason`` says which in words."""

    def __init__(self, path, reason: str):
        super().__init__(reason)
        self.path = str(path)
        self.reason = reason

    def __str__(self):
        return self.reason


_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"),
          (stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"))


def file_kind(mode: int) -> str:
    """'a folder', 'a device', 'a named pipe', … for a stat mode that is not a regular file's."""
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"


def not_regular_reason(mode: int) -> str:
    return f"not a regular file (it is {file_kind(mode)})" if file_kind(mode) != "not a regular file" \
        else "not a regular file"


def read_regular_bytes(path, limit: int | None = None) -> bytes:
    """The bytes of a regular file (symlinks followed). Raises UnreadableFile for a folder, device, pipe or
    socket, or for a file over ``limit`` bytes, before reading anything from it; OSError as ``open`` does."""
    st = os.stat(path)
    if not stat.S_ISREG(st.st_mode):
        raise UnreadableFile(path, not_regular_reason(st.st_mode))
    # O_NONBLOCK: should the path become a pipe between the stat and the open, neither waits
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise UnreadableFile(path, not_regular_reason(st.st_mode))
        if limit is not None and st.st_size > limit:
            raise UnreadableFile(path, f"the file is {st.st_size} bytes; the limit is {limit} bytes")
        chunks, total = [], 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if limit is not None and total > limit:  # it grew while being read
                raise UnreadableFile(path, f"the file is over {limit} bytes; the limit is {limit} bytes")
        return b"".join(chunks)
    finally:
        os.close(fd)


class JsonFileError(Exception):
    """Why ``read_json_file`` could not give a JSON value. ``kind`` says which step failed:

    - 'missing': no such file; 'unreadable': not a regular file, over the limit, or an OSError
      (``error`` is the OSError or UnreadableFile);
    - 'not_utf8': ``text`` is the text before the bad byte (``pos`` = its length);
    - 'too_deep': values nested too deeply for the JSON reader;
    - 'not_json': ``error`` is the json.JSONDecodeError, ``pos`` its offset into ``text``;
    - 'bad_value': a hook of the caller (``parse_int``, ``parse_constant``) raised ``error`` (a ValueError).
    """

    def __init__(self, kind: str, text: str = "", pos: int = 0, error: BaseException | None = None):
        super().__init__(kind)
        self.kind, self.text, self.pos, self.error = kind, text, pos, error


def read_json_file(path, limit: int, **hooks) -> tuple[str, object]:
    """(text, value) of the JSON file at ``path`` (a regular file of at most ``limit`` bytes, UTF-8);
    ``hooks`` are passed to ``json.loads`` (``parse_int``, ``parse_constant``). JsonFileError says what
    failed, with what is needed to locate it."""
    import json  # here, not at the top: most commands read no JSON file
    try:
        data = read_regular_bytes(path, limit)
    except FileNotFoundError as exc:
        raise JsonFileError("missing", error=exc) from None
    except OSError as exc:
        raise JsonFileError("unreadable", error=exc) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[:exc.start].decode("utf-8", "replace")
        raise JsonFileError("not_utf8", before, len(before), exc) from None
    try:
        return text, json.loads(text, **hooks)
    except RecursionError:
        raise JsonFileError("too_deep", text) from None
    except json.JSONDecodeError as exc:
        raise JsonFileError("not_json", text, exc.pos, exc) from None
    except ValueError as exc:
        raise JsonFileError("bad_value", text, 0, exc) from None


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


_TEMP = re.compile(r"\.(?P<name>.+)\.(?P<pid>\d+)\.[^.]+\.tmp\Z")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True
    return True


def clean_stale_temps(folder: Path, name: str | None = None) -> list:
    """Remove the temporary files of atomic writes into ``folder`` (only those of ``name`` when given)
    whose writing process no longer runs; returns the paths removed."""
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        m = _TEMP.match(entry.name)
        if m is None or (name is not None and m["name"] != name):
            continue
        if int(m["pid"]) == os.getpid() or _alive(int(m["pid"])):
            continue
        try:
            if entry.is_file(follow_symlinks=False):
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            pass
    return removed


def write_text_atomic(path: Path, text: str, sync: bool = False) -> None:
    """Write ``text`` to ``path`` atomically (see the module's docstring). OSError as the system gives it;
    on any failure the old file is left as it was and no temporary file remains."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    clean_stale_temps(path.parent, path.name)
    import tempfile  # here, not at the top: agricola play imports this module and writes no file
    fd, tmp = tempfile.mkstemp(dir=str(path.parent), prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            if sync:
                f.flush()
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def no_space(exc: BaseException) -> bool:
    """Whether an OSError says the disk (or the quota) is full."""
    return isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC))
