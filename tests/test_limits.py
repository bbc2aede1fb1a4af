"""Usage limits on rules: '(once per round)' starts again each round, '(twice per game)' never does."""
from __future__ import annotations

import shutil
from pathlib import Path

from compiler.build import Compiler
from runtime.pack import load_pack
from compiler.scenario import run_file

ROOT = Path(__file__).resolve().parent.parent

CARD = """id: limit_probe
name: Limit Probe
kind: minor
deck: T
cost: 1 wood
effects: |
  after you use #wood_accumulation (once per round): gain 1 food
  after you use #clay_accumulation (twice per game): gain 1 reed
"""

SCENARIOS = """pack: revised
players: 3
scenarios:
  - name: once per round - two wood spaces in one round give 1 food, the next round gives it again
    given:
      player: {improvements: [limit_probe], people: 3}
      spaces: {forest: {wood: 1}, grove: {wood: 1}}
    do: [use forest, use grove, next round, use forest]
    expect:
      player: {goods: {food: 2}}
  - name: twice per game - the third use in a later round gives nothing
    given:
      player: {improvements: [limit_probe], people: 3}
    do: [use clay_pit, next round, use hollow, next round, use clay_pit]
    expect:
      player: {goods: {reed: 2}}
"""


def test_per_round_and_per_game_limits(tmp_path):
    ws = tmp_path / "ws"
    shutil.copytree(ROOT / "rules" / "revised", ws / "rules" / "revised")
    (ws / "cards" / "revised" / "T").mkdir(parents=True)
    (ws / "cards" / "revised" / "T" / "limit_probe.yaml").write_text(CARD, encoding="utf-8")
    result = Compiler(ws, tmp_path / "build").compile("revised")
    assert result.ok, result.report.render()
    pack = load_pack("revised", tmp_path / "build")
    path = tmp_path / "limits.test.yaml"
    path.write_text(SCENARIOS, encoding="utf-8")
    outcomes = run_file(path, lambda name: pack)
    assert [o.message for o in outcomes if not o.ok] == []
    assert len(outcomes) == 2
