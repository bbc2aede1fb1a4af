"""Determinism: compiled output is byte-identical across compiles and across processes with different
PYTHONHASHSEED values, and the same seed and decisions give the same game in any process.

Also: an agent that answers with something that is not a legal option gets ``IllegalDecision`` with a clear
message, and the game state is unchanged by that answer.
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from runtime.state import PLAYER_FIELDS

from compiler.build import Compiler
from test_hostile import make_hostile_root

REPO = Path(__file__).resolve().parent.parent
PACKS = ("revised", "revised-family")
HASH_SEEDS = ("0", "1", "12345")


def _tree(folder: Path) -> dict:
    """{relative path: bytes} of every file under ``folder``."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts}


def test_two_compiles_are_byte_identical(tmp_path):
    hostile_root = make_hostile_root(tmp_path / "hostile-ws")
    trees = []
    for run in ("a", "b"):
        build = tmp_path / f"build-{run}"
        for pack in PACKS:
            result = Compiler(REPO, build).compile(pack)
            assert result.ok, result.report.render()
        result = Compiler(hostile_root, build).compile("hostile")
        assert result.ok, result.report.render()
        trees.append(_tree(build))
    a, b = trees
    assert sorted(a) == sorted(b)
    assert len([n for n in a if n.endswith(".py")]) > 100
    different = [name for name in a if a[name] != b[name]]
    assert not different, different


def test_recompiling_in_place_changes_nothing(tmp_path):
    build = tmp_path / "build"
    comp = Compiler(REPO, build)
    assert comp.compile("revised").ok
    before = _tree(build)
    result = comp.compile("revised")
    assert result.ok and not result.written
    assert _tree(build) == before


# Run in fresh processes: compile the packs, hash every file written, play seeded games with random agents.
_SCRIPT = """
import hashlib, json, sys
from pathlib import Path
from compiler.build import Compiler
from runtime.pack import load_pack
from runtime.engine import Game
from runtime.agents import RandomAgent
build = Path(sys.argv[1])
for pack in {packs!r}:
    result = Compiler(Path({repo!r}), build).compile(pack)
    assert result.ok, result.report.render()
files = {{str(p.relative_to(build)): hashlib.sha256(p.read_bytes()).hexdigest()
         for p in sorted(build.rglob('*')) if p.is_file() and '__pycache__' not in p.parts}}
games = {{}}
for spec in {games!r}:
    pack_id, players, seed = spec.split(':')
    pack = load_pack(pack_id, build)
    n, seed = int(players), int(seed)
    game = Game(pack, n, seed=seed, agents=[RandomAgent(f"{{seed}}:{{i}}") for i in range(n)])
    game.record = []
    game.play()
    games[spec] = {{"record": game.record, "scores": game.scores, "ranking": game.ranking()}}
print(json.dumps({{"files": files, "games": games}}, sort_keys=True, default=repr))
"""
GAMES = ("revised:2:1", "revised:4:7", "revised-family:3:12", "revised-family:1:5")
CLI_GAME = ("revised", "3", "11")


def _env(hash_seed: str) -> dict:
    env = dict(os.environ)
    env["PYTHONHASHSEED"] = hash_seed
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("AGRICOLA_HOME", None)
    return env


def _run_all(commands) -> list[str]:
    """Run (argv, env) commands at the same time; their standard outputs, in order."""
    procs = [subprocess.Popen(argv, env=env, cwd=str(REPO), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for argv, env in commands]
    outs = []
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err[-3000:]
        outs.append(out)
    return outs


@pytest.fixture(scope="module")
def processes(tmp_path_factory):
    """What each process (one per PYTHONHASHSEED) compiled and played, and two ``agricola play --json``."""
    tmp = tmp_path_factory.mktemp("processes")
    script = _SCRIPT.format(repo=str(REPO), packs=PACKS, games=GAMES)
    commands = [([sys.executable, "-c", script, str(tmp / f"build-{seed}")], _env(seed)) for seed in HASH_SEEDS]
    pack, players, seed = CLI_GAME
    for hs in HASH_SEEDS[:2]:
        commands.append(([sys.executable, "-m", "compiler.cli", "--build", str(tmp / f"cli-{hs}"), "play",
                          "--pack", pack, "--players", players, "--seed", seed, "--json"], _env(hs)))
    outs = _run_all(commands)
    return [json.loads(o) for o in outs[:len(HASH_SEEDS)]], [json.loads(o) for o in outs[len(HASH_SEEDS):]]


def test_compiled_output_is_the_same_under_any_hash_seed(processes, tmp_path):
    runs, _ = processes
    hashes = [r["files"] for r in runs]
    assert len(hashes[0]) > 100
    for other in hashes[1:]:
        assert other == hashes[0], sorted(k for k in other if other.get(k) != hashes[0].get(k))
    # and the same as in this process
    build = tmp_path / "build-here"
    for pack in PACKS:
        assert Compiler(REPO, build).compile(pack).ok
    here = {k: hashlib.sha256(v).hexdigest() for k, v in _tree(build).items()}
    assert here == hashes[0]


def test_same_seed_same_game_in_any_process(processes):
    """The decision record and the scores agree across processes with different PYTHONHASHSEED values,
    and so does ``agricola play --json``."""
    runs, cli_runs = processes
    games = [r["games"] for r in runs]
    for spec in GAMES:
        assert len(games[0][spec]["record"]) > 20, spec
    for other in games[1:]:
        assert other == games[0]
    a, b = cli_runs
    assert a == b
    assert a["decisions"] > 20 and a["scores"]


# ---------------------------------------------------------------- illegal decisions

class _BadAgent:
    """Plays randomly until its ``n``-th real choice, then answers ``answer(options)``."""

    trusted = False

    def __init__(self, n, answer):
        from runtime.agents import RandomAgent
        self.inner = RandomAgent("bad")
        self.n = n
        self.answer = answer
        self.asked = 0
        self.snapshot = None

    def choose(self, game, player, kind, options, labels=None, prompt=None):
        self.asked += 1
        if self.asked == self.n:
            self.snapshot = _snapshot(game)
            self.kind, self.options = kind, list(options)
            return self.answer(options)
        return self.inner.choose(game, player, kind, options, labels, prompt)


def _snapshot(game) -> str:
    """Players' goods, farm and cards, and the board, as text."""
    data = {
        "round": game.round, "decisions": game.decisions,
        "players": [{k: repr(getattr(p, k, None)) for k in sorted(PLAYER_FIELDS)} for p in game.players],
        "spaces": [(s.id, repr(s.goods), list(s.occupants)) for s in game.spaces],
    }
    return json.dumps(data, sort_keys=True, default=repr)


class _Unhashable:
    __hash__ = None

    def __eq__(self, other):
        return False


BAD_ANSWERS = {
    "not_an_option": lambda options: "no_such_space",
    "none": lambda options: None,
    "out_of_range_index": lambda options: len(options) + 5,
    "list_of_options": lambda options: list(options),
    "unhashable": lambda options: _Unhashable(),
    "dict": lambda options: {"option": options[0]},
}


@pytest.mark.parametrize("answer", sorted(BAD_ANSWERS))
@pytest.mark.parametrize("n", [1, 6])
def test_illegal_decision_is_rejected(revised, answer, n):
    from runtime.agents import RandomAgent
    from runtime.engine import Game, IllegalDecision
    bad = _BadAgent(n, BAD_ANSWERS[answer])
    game = Game(revised, 2, seed=3, agents=[bad, RandomAgent("other")])
    game.record = []
    with pytest.raises(IllegalDecision) as info:
        game.play()
    message = str(info.value)
    assert "not a legal option" in message and repr(bad.kind) in message, message
    assert bad.snapshot is not None
    assert _snapshot(game) == bad.snapshot, "the illegal answer changed the game"
    assert len(game.record) == game.decisions  # the bad answer was not recorded


def test_bool_is_not_a_number_option(revised):
    from runtime.agents import RandomAgent
    from runtime.engine import Game, IllegalDecision

    class BoolAgent(RandomAgent):
        trusted = False

        def choose(self, game, player, kind, options, labels=None, prompt=None):
            if all(type(o) is int for o in options) and 1 in options:
                return True
            return super().choose(game, player, kind, options, labels, prompt)

    game = Game(revised, 2, seed=3, agents=[BoolAgent("a"), RandomAgent("b")])
    with pytest.raises(IllegalDecision):
        game.play()

