"""Usage limits on rules: '(once per round)' starts again each round, '(twice per game)' never does."""
from __future__ import annotations

import shutil

import pytest
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


PROBES = ROOT / "tests" / "packs" / "rules"


@pytest.fixture(scope="module")
def probes(tmp_path_factory):
    """The test pack tests/packs/rules/limit-probes (probe cards whose rules re-trigger themselves)."""
    build = tmp_path_factory.mktemp("probe-build")
    result = Compiler(ROOT, build, extra_pack_dirs=[PROBES]).compile("limit-probes")
    assert result.ok, result.report.render()
    return load_pack("limit-probes", build)


def _game_with(pack, cid, answers):
    from runtime.agents import ScriptedAgent
    from runtime.engine import Game
    game = Game(pack, 2, seed=0, agents=[ScriptedAgent(answers), ScriptedAgent([])])
    p = game.players[0]
    p.minors.append(cid)
    game.install_card(p, pack.all_cards[cid])
    game.round = 1
    for good in p.goods:
        p.goods[good] = 0
    for s in game.spaces:
        s.goods.clear()
    return game, p


def test_a_rule_that_keeps_triggering_itself_stops_naming_the_card(probes):
    from runtime.firing import MAX_CHAIN, RuleLoop
    game, p = _game_with(probes, "start_player_loop", [])
    with pytest.raises(RuleLoop) as info:
        game.use_space(p, game.space_by_id["meeting_place"])
    assert str(info.value) == (
        "tests/packs/cards/limit-probes/T/start_player_loop.yaml:7: 'Start Player Loop' (start_player_loop) "
        "triggered itself 20 times in one chain and was stopped: give the rule a limit such as "
        "'(once per turn)', or a condition that its own effect ends")
    assert MAX_CHAIN == 20
    assert p.goods["food"] == MAX_CHAIN  # each firing up to the bound did its part, none after
    assert not [k for k in p.used if k.startswith("open:")]  # the chain's bookkeeping is unwound


def test_the_firing_counts_before_the_effect_so_limits_hold_inside_their_own_chain(probes):
    game, p = _game_with(probes, "plow_twice", ["A2", "yes", "A3", "yes", "A4"])
    game.use_space(p, game.space_by_id["farmland"])
    assert len(p.fields) == 3
    assert p.used["lim:plow_twice:0"] == (1, 2)  # (round 1, two firings)


def test_play_reports_a_rule_loop_as_a_located_error(monkeypatch, capsys):
    from compiler import cli
    from runtime.engine import Game
    from runtime.firing import RuleLoop

    def loop(self):
        raise RuleLoop("cards/x/X/loop.yaml:7", "'Loop' (loop) triggered itself 20 times in one chain")
    monkeypatch.setattr(Game, "play", loop)
    assert cli.main(["play", "--pack", "revised-family"]) == 2
    err = capsys.readouterr().err
    assert err == "cards/x/X/loop.yaml:7: error: 'Loop' (loop) triggered itself 20 times in one chain\n"
