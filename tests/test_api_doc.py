"""docs/api.md runs: every ```python block of the page, in order, in one namespace (as a reader would
paste them), with the page's own custom agent playing a whole game."""
from __future__ import annotations

import re
from pathlib import Path

import runtime.pack

DOC = Path(__file__).resolve().parent.parent / "docs" / "api.md"


def blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def test_every_example_of_the_api_page_runs(family, build_root, monkeypatch, capsys):
    real = runtime.pack.load_pack
    # The page loads from the default build folder; the tests compile into their own.
    monkeypatch.setattr(runtime.pack, "load_pack", lambda pack_id, root=None: real(pack_id, root or build_root))
    code = blocks()
    assert len(code) >= 6
    namespace: dict = {"__name__": "api_doc"}
    for i, block in enumerate(code):
        exec(compile(block, f"{DOC.name} block {i + 1}", "exec"), namespace)
    out = capsys.readouterr().out.splitlines()
    game = namespace["game"]
    assert game.pack is family
    agent_lines = [line for line in code[0].splitlines() if line.strip()]
    assert 15 <= len(agent_lines) <= 30  # a complete custom agent of about 20 lines
    first_game = out[0]
    assert first_game.endswith(" decisions") and first_game.startswith("[")
    assert out[2].startswith("True [")                     # the held-open game finished
    assert out[3].startswith("took ")                      # the lookahead picked a space
    assert '"round": 1' in out[4] and '"options": [' in out[4]
    assert out[5] == "True True"                           # restored at the same request
    assert out[6].startswith("True ") and out[6].endswith(" features")  # the PettingZoo loop finished


def test_the_custom_agent_of_the_page_is_checked_and_plays_legally(family, build_root, monkeypatch):
    real = runtime.pack.load_pack
    monkeypatch.setattr(runtime.pack, "load_pack", lambda pack_id, root=None: real(pack_id, root or build_root))
    namespace: dict = {"__name__": "api_doc"}
    exec(compile(blocks()[0], "api.md block 1", "exec"), namespace)
    from runtime.engine import Game
    Agent = namespace["HoarderAgent"]
    for seed in range(5):
        g = Game(family, 3, seed=seed, agents=[Agent(seed), Agent(seed + 1), Agent(seed + 2)])
        g.play()
        assert g.finished and g.decisions > 30
        took = [o for pi, kind, o in g.record if kind == "place"]
        assert took, "the agent placed people"
