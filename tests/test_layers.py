"""One direction of dependency: toolchain (compiler/) -> runtime <- generated packs.

- Every module under runtime/ imports only the standard library, the runtime itself and the runtime's
  declared dependencies; nothing from compiler/ (lazy imports inside functions count too).
- Every generated module of a compiled pack imports only the runtime (and its own sibling modules).
- A compiled pack plays in a process where lark, jinja2, jsonschema and the compiler cannot be imported.
"""
from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

# Third-party packages the runtime may import (pyproject.toml's dependencies), and the optional extra
# the reinforcement-learning environment uses (installed with `pip install .[rl]`).
RUNTIME_DEPENDENCIES = {"yaml", "greenlet", "mypy_extensions"}
RL_EXTRA = {"pettingzoo", "gymnasium", "numpy"}
RL_MODULES = {"rl.py"}
TOOLCHAIN = ("lark", "jinja2", "jsonschema", "compiler")


def imports_of(path: Path) -> list[tuple[int, int, str]]:
    """(line, relative level, module) of every import statement in a file, at any depth."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, 0, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            out.append((node.lineno, node.level, node.module or ""))
    return out


@pytest.mark.source_text
def test_runtime_imports_nothing_from_the_toolchain():
    stdlib = set(sys.stdlib_module_names)
    problems = []
    files = sorted((REPO / "runtime").rglob("*.py"))
    assert len(files) >= 10
    for path in files:
        allowed = RUNTIME_DEPENDENCIES | (RL_EXTRA if path.name in RL_MODULES else set())
        depth = len(path.relative_to(REPO / "runtime").parts)  # 1 for runtime/x.py, 2 in runtime/primitives/
        for line, level, module in imports_of(path):
            top = module.split(".")[0]
            if level > depth or (level == 0 and top not in stdlib and top != "runtime" and top not in allowed):
                problems.append(f"{path.relative_to(REPO)}:{line}: imports {'.' * level}{module}")
    assert not problems, "\n".join(problems)


def test_generated_modules_import_only_the_runtime(revised, family):
    problems = []
    count = 0
    for pack in (revised, family):
        folder = Path(pack.module.__file__).parent
        for path in sorted(folder.glob("*.py")):
            count += 1
            for line, level, module in imports_of(path):
                ok = (level == 0 and module.split(".")[0] == "runtime") or (level == 1 and not module)
                if not ok:
                    problems.append(f"{path.name}:{line}: imports {'.' * level}{module}")
    assert count > 100
    assert not problems, "\n".join(problems)


def test_the_checker_that_finds_imports_finds_them(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import os\nfrom . import x\n\ndef f():\n    from compiler.build import Compiler\n"
                      "    import lark.lexer\n")
    assert imports_of(sample) == [(1, 0, "os"), (2, 1, ""), (5, 0, "compiler.build"), (6, 0, "lark.lexer")]


NO_TOOLCHAIN = r"""
import importlib.abc, json, sys
BLOCKED = set(sys.argv[3].split(","))

class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"{name} is blocked in this test")
        return None

sys.meta_path.insert(0, Block())
for name in BLOCKED:
    try:
        __import__(name)
    except ImportError:
        pass
    else:
        raise SystemExit(f"{name} could be imported")
from pathlib import Path
from runtime.pack import load_pack
from runtime.engine import Game
from runtime.agents import RandomAgent
pack = load_pack(sys.argv[1], Path(sys.argv[2]))
g = Game(pack, 2, seed=3, agents=[RandomAgent("3:0"), RandomAgent("3:1")])
g.play()
# the library's other calls: a game held open, a clone, the state view, a save restored
from runtime.savegame import restore, save_game, read_save
import tempfile
held = Game(pack, 2, seed=4)
request = held.run()
for _ in range(20):
    request = held.answer(len(request.options) - 1)
view = json.dumps(held.view(seat=request.seat))
twin = held.clone()
path = Path(tempfile.mkdtemp()) / "save.json"
save_game(held, path)
back = restore(read_save(path), pack)[0]
same = [twin.pending.labels == request.labels, back.run().labels == request.labels, len(view) > 1000]
print(json.dumps({"totals": [s["total"] for s in g.scores], "decisions": g.decisions, "held_open": same,
                  "loaded": sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED)}))
"""


def _run_without_toolchain(snippet: str, *args) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(REPO)
    out = subprocess.run([sys.executable, "-c", snippet, *map(str, args)], capture_output=True, text=True,
                         env=env, cwd=str(REPO), timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_compiled_pack_plays_without_the_toolchain(revised, build_root):
    from runtime.agents import RandomAgent
    from runtime.engine import Game
    result = _run_without_toolchain(NO_TOOLCHAIN, "revised", build_root, ",".join(TOOLCHAIN))
    assert result["loaded"] == []
    assert result["held_open"] == [True, True, True]
    here = Game(revised, 2, seed=3, agents=[RandomAgent("3:0"), RandomAgent("3:1")])
    here.play()
    assert result["totals"] == [s["total"] for s in here.scores]
    assert result["decisions"] == here.decisions > 50


WEB_EXTRA = {"starlette", "uvicorn"}


@pytest.mark.source_text
def test_the_web_server_sits_above_the_runtime():
    """compiler/web/ (the playtest server) may use the runtime and the toolchain; nothing else imports the
    web extra's packages but the server and the command that starts it (lazily), and the runtime imports
    nothing of it (test_runtime_imports_nothing_from_the_toolchain covers compiler.web)."""
    problems = []
    for path in sorted((REPO / "compiler").rglob("*.py")):
        rel = path.relative_to(REPO).as_posix()
        for line, level, module in imports_of(path):
            if module.split(".")[0] in WEB_EXTRA and not rel.startswith("compiler/web/") and rel != "compiler/cli.py":
                problems.append(f"{rel}:{line}: imports {module}")
    web = sorted((REPO / "compiler" / "web").glob("*.py"))
    assert {p.name for p in web} >= {"app.py", "server.py", "store.py", "svg.py"}
    for path in web:
        for line, level, module in imports_of(path):
            if level == 0 and module.split(".")[0] == "compiler" and not module.startswith(("compiler.web", "compiler.table")):
                problems.append(f"compiler/web/{path.name}:{line}: imports {module} (use a relative import)")
    cli_text = (REPO / "compiler" / "cli.py").read_text(encoding="utf-8")
    top_level = [n for n in ast.parse(cli_text).body if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert not [n for n in top_level if any(a.name.split(".")[0] in WEB_EXTRA for a in n.names)
                or (isinstance(n, ast.ImportFrom) and (n.module or "").split(".")[0] in WEB_EXTRA)]
    assert not problems, "\n".join(problems)
