"""A real ``agricola serve`` in a subprocess on a free port of this machine: for the browser tests, the load
test and ``make bench`` (compiler/web/load.py)."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    """``agricola serve`` on a free port of 127.0.0.1; ``kill()`` stops it at once (SIGKILL), ``start()``
    starts it again on the same SQLite file."""

    def __init__(self, build: Path, db: Path, root: Path | None = None, port: int | None = None):
        self.root, self.build, self.db = (Path(root).resolve() if root else None), Path(build), Path(db)
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = None
        self.output = self.build / f"serve-{self.port}.log"

    def start(self, timeout: float = 120) -> "LiveServer":
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        env["PYTHONPATH"] = str(ROOT)
        self.build.mkdir(parents=True, exist_ok=True)
        log = open(self.output, "ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "compiler.cli", *(["--root", str(self.root)] if self.root else []),
             "--build", str(self.build), "serve",
             "--port", str(self.port), "--db", str(self.db)],
            # run in the workspace served, as a designer does (files in messages print relative to it)
            cwd=str(self.root or ROOT), env=env, stdout=log, stderr=log)
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped: {self.output.read_text(errors='replace')}")
            try:
                if httpx.get(self.url + "/api/games", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("the server did not start in time")

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=30)
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
