"""A fixed set of games, recorded as decision-log hashes and final-state hashes (tests/fixtures/recorded_games.json).

The engine's restructuring and speed work must change no game: tests/test_recorded_games.py plays these
games again and compares. A commit that changes games on purpose (a rule fix, a card edit) records them
again in the same commit, and says so:

    .venv/bin/python tests/recorded_games.py

Recorded: seeds 0-49 with 1 to 4 players of random agents on the packs revised-family and revised, and a
few games of greedy agents (one-step lookahead, so they exercise clone()). For the first games of each
pack the whole decision log is kept, to replay it without agents.
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "recorded_games.json"
PACKS = ("revised-family", "revised")
SEEDS = range(50)
PLAYERS = (1, 2, 3, 4)
GREEDY = [("revised", n, seed) for n in (1, 2, 3, 4) for seed in (0, 1)] + [("revised-family", 2, 0),
                                                                           ("revised-family", 3, 1)]
FULL_LOGS = 3  # per pack and player count: seeds 0..2 keep their whole decision log


def agent_specs(kind: str, seed: int, n: int) -> list:
    return [{"kind": kind, "seed": f"{seed}:{i}"} for i in range(n)]


def full_state(game) -> dict:
    """More of the state than savegame.state_hash looks at: hands, limits used, card state, the schedule."""
    players = []
    for p in game.players:
        d = p.to_dict()
        d.update(hand_occupations=list(p.hand_occupations), hand_minors=list(p.hand_minors),
                 used=sorted(p.used.items()), newborns=p.newborns, card_rooms=p.card_rooms,
                 extra_capacity=p.extra_capacity, card_state=repr(sorted(p.card_state.items())))
        players.append(d)
    spaces = [[s.id, sorted((g, k) for g, k in s.goods.items() if k), list(s.occupants)] for s in game.spaces]
    return {"round": game.round, "start_player": game.start_player, "players": players, "spaces": spaces,
            "major_supply": list(game.major_supply), "decisions": game.decisions, "scores": game.scores,
            "schedule": repr(sorted(game.schedule.items()))}


def digest(value) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=repr).encode()).hexdigest()[:24]


def play(pack, n: int, seed: int, kind: str):
    """Play one recorded game; returns (game, decision log as JSON lists)."""
    from runtime.savegame import Recorder, make_agent
    from runtime.engine import Game
    specs = agent_specs(kind, seed, n)
    game = Game(pack, n, seed=seed, agents=[make_agent(s) for s in specs])
    rec = Recorder(game, None, specs)
    game.play()
    return game, rec.document()["decisions"]


def entry(pack, n, seed, kind, keep_log: bool) -> dict:
    from runtime.savegame import state_hash
    game, log = play(pack, n, seed, kind)
    out = {"pack": pack.id, "players": n, "seed": seed, "agents": kind, "decisions": len(log),
           "log_hash": digest(log), "state_hash": state_hash(game)[:24], "full_hash": digest(full_state(game)),
           "totals": [s["total"] for s in game.scores]}
    if keep_log:
        out["log"] = log
    return out


def games():
    """(pack id, players, seed, agent kind, keep whole log) of every recorded game, in order."""
    out = []
    for pack in PACKS:
        for n in PLAYERS:
            for seed in SEEDS:
                out.append((pack, n, seed, "random", seed < FULL_LOGS))
    for pack, n, seed in GREEDY:
        out.append((pack, n, seed, "greedy", False))
    return out


def record(load) -> dict:
    """Play every game (``load(pack id)`` gives a compiled pack) and return the fixture document."""
    return {"note": "written by tests/recorded_games.py; see its docstring",
            "games": [entry(load(p), n, seed, kind, keep) for p, n, seed, kind, keep in games()]}


def main() -> int:
    import tempfile
    sys.path.insert(0, str(ROOT))
    from compiler.build import Compiler
    from runtime.pack import load_pack
    build = Path(tempfile.mkdtemp(prefix="agricola-record-"))
    comp = Compiler(ROOT, build)
    packs = {}

    def load(name):
        if name not in packs:
            result = comp.compile(name)
            if not result.ok:
                raise SystemExit(result.report.render())
            packs[name] = load_pack(name, build)
        return packs[name]

    doc = record(load)
    FIXTURE.parent.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(g, sort_keys=True) for g in doc["games"]]  # one game a line: readable diffs
    FIXTURE.write_text('{"note": %s,\n "games": [\n%s\n]}\n' % (json.dumps(doc["note"]), ",\n".join(lines)),
                       encoding="utf-8")
    print(f"recorded {len(doc['games'])} games into {FIXTURE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
