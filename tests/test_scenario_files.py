"""Malformed scenario files: every mistake is one located error with exit status 2, from `agricola test`
and from `agricola validate`, never an internal error; the file is left as it was."""
from __future__ import annotations

import pytest

from compiler import cli
from compiler.build import Compiler

BIG = "scenarios:\n  - name: x\n    given: {round: " + "9" * 5000 + "}\n    use: forest\n"

# case: (file text, the error lines after '<file>:', in order)
CASES = {
    "answers_by_list": ('scenarios:\n  - name: x\n    use: forest\n    answers_by: [P2]\n',
        ["4:17: error[E112]: 'answers_by' must be a mapping, not a list"]),
    "answers_by_p1": ('scenarios:\n  - name: x\n    use: forest\n    answers_by: {P1: [a]}\n',
        ["4:18: error[E156]: answers_by: 'P1' is not another player (P2); P1's answers go in 'answers'"]),
    "answers_by_text": ('scenarios:\n  - name: x\n    use: forest\n    answers_by: {P2: yes}\n',
        ["4:22: error[E112]: 'P2' must be a list, not true/false"]),
    "answers_by_yes": ('players: 3\nscenarios:\n  - name: x\n    use: forest\n    answers_by: {P3: [yes]}\n',
        ["5:23: error[E112]: 'P3' must be text or a whole number, not true/false"]),
    "answers_nested": ('scenarios:\n  - name: x\n    use: forest\n    answers: [[A1]]\n',
        ["4:15: error[E112]: 'answers' must be text or a whole number, not a list"]),
    "answers_number": ('scenarios:\n  - name: x\n    use: forest\n    answers: 5\n',
        ["4:14: error[E112]: 'answers' must be a list, not a number"]),
    "answers_text": ('scenarios:\n  - name: x\n    use: forest\n    answers: A1\n',
        ["4:14: error[E112]: 'answers' must be a list, not text"]),
    "answers_yes_unquoted": ('scenarios:\n  - name: x\n    use: forest\n    answers: [yes]\n',
        ["4:15: error[E112]: 'answers' must be text or a whole number, not true/false"]),
    "big_number": (BIG,
        ["3:20: error[E107]: cannot read the value '9999999999999999999999999999999999999999'"]),
    "do_after_score": ('scenarios:\n  - name: x\n    do: [score, use forest]\n',
        ["3:17: error[E160]: nothing can happen after 'score' (the game is over)"]),
    "do_mapping": ('scenarios:\n  - name: x\n    do: {use: forest}\n',
        ["3:9: error[E112]: 'do' must be a list or text, not a mapping"]),
    "do_number": ('scenarios:\n  - name: x\n    do: [5]\n',
        ["3:10: error[E112]: 'do' must be text, not a number"]),
    "do_past_last_round": ('scenarios:\n  - name: x\n    given: {round: 13}\n    do: [next round, next round]\n',
        ["4:22: error[E157]: 'next round' would start round 15; the game ends after round 14"]),
    "do_unknown_step": ('scenarios:\n  - name: x\n    do: [jump]\n',
        ["3:10: error[E160]: unknown step 'jump' (the steps: use <space>, P<n> use <space>, place, work phase, harvest, feed, breed, next round, score)"]),
    "expect_card_unknown": ('scenarios:\n  - name: x\n    use: forest\n    expect: {player: {minors: [no_such_card]}}\n',
        ["4:32: error[E161]: unknown card 'no_such_card'"]),
    "expect_error_number": ('scenarios:\n  - name: x\n    use: forest\n    expect: {error: 5}\n',
        ["4:21: error[E112]: 'error' must be text, not a number"]),
    "expect_good_unknown": ('scenarios:\n  - name: x\n    use: forest\n    expect: {player: {goods: {wod: 1}}}\n',
        ["4:31: error[E155]: unknown good 'wod' (did you mean 'wood'?)"]),
    "expect_goods_text": ('scenarios:\n  - name: x\n    use: forest\n    expect: {player: {goods: {wood: many}}}\n',
        ["4:37: error[E112]: 'wood' must be a whole number, not text"]),
    "expect_options_number_key": ('scenarios:\n  - name: x\n    use: forest\n    expect: {options: {plow: {first: [A1]}}}\n',
        ["4:30: error[E114]: 'first' is not a request number: write 1 for the first request of the kind, 2 for the second, …"]),
    "expect_options_text": ('scenarios:\n  - name: x\n    use: forest\n    expect: {options: abc}\n',
        ["4:23: error[E112]: 'options' must be a mapping, not text"]),
    "expect_pastures_bad": ('scenarios:\n  - name: x\n    use: forest\n    expect: {player: {pastures: [Z9]}}\n',
        ["4:34: error[E161]: 'Z9' is not a farmyard space (use A1 to C5)"]),
    "expect_players_text": ('scenarios:\n  - name: x\n    use: forest\n    expect: {players: abc}\n',
        ["4:23: error[E112]: 'players' must be a list, not text"]),
    "expect_players_too_many": ('scenarios:\n  - name: x\n    use: forest\n    expect: {players: [~, ~, ~]}\n',
        ['4:23: error[E158]: 3 players expected in a 2-player scenario']),
    "expect_rooms_text": ('scenarios:\n  - name: x\n    use: forest\n    expect: {player: {rooms: two}}\n',
        ["4:30: error[E112]: 'rooms' must be a whole number, not text"]),
    "expect_scheduled_round_99": ('scenarios:\n  - name: x\n    use: forest\n    expect: {scheduled: {99: {food: 1}}}\n',
        ['4:26: error[E157]: there is no round 99 (1 to 14)']),
    "expect_scheduled_round_text": ('scenarios:\n  - name: x\n    use: forest\n    expect: {scheduled: {four: {food: 1}}}\n',
        ["4:25: error[E114]: 'four' is not a round number"]),
    "expect_score_category_unknown": ('scenarios:\n  - name: x\n    use: forest\n    expect: {score: {categories: {sheeps: 1}}}\n',
        ["4:35: error[E159]: unknown score category 'sheeps' (did you mean 'sheep'?)"]),
    "expect_score_text": ('scenarios:\n  - name: x\n    use: forest\n    expect: {score: 5}\n',
        ["4:21: error[E112]: 'score' must be a mapping, not a number"]),
    "expect_score_total_text": ('scenarios:\n  - name: x\n    use: forest\n    expect: {score: {total: lots}}\n',
        ["4:29: error[E112]: 'total' must be a whole number, not text"]),
    "expect_start_player_text": ('scenarios:\n  - name: x\n    use: forest\n    expect: {start_player: me}\n',
        ["4:28: error[E114]: 'me' is not a player: write P1, P2, P3 or P4"]),
    "expect_text": ('scenarios:\n  - name: x\n    use: forest\n    expect: abc\n',
        ["4:13: error[E112]: 'expect' must be a mapping, not text"]),
    "expect_unknown_key": ('scenarios:\n  - name: x\n    use: forest\n    expect: {goods: {wood: 1}}\n',
        ["4:14: error[E110]: unknown key 'goods' in scenario file"]),
    "expect_usable_text": ('scenarios:\n  - name: x\n    use: forest\n    expect: {usable: maybe}\n',
        ["4:22: error[E112]: 'usable' must be true or false, not text"]),
    "farmyard_bad_sign": ('scenarios:\n  - name: x\n    given: {player: {farmyard: ["R X . . .", "R . . . .", ". . . . ."]}}\n    use: forest\n',
        ["3:36: error[E153]: 'X' is not a farmyard space (use R, F, G<n>, V<n>, P, PS, S or .)"]),
    "given_player_and_players": ('scenarios:\n  - name: x\n    given: {player: {}, players: [{}]}\n    use: forest\n',
        ["3:25: error[E158]: give either 'player' or 'players', not both"]),
    "given_text": ('scenarios:\n  - name: x\n    given: abc\n    use: forest\n',
        ["3:12: error[E112]: 'given' must be a mapping, not text"]),
    "improvement_unknown": ('scenarios:\n  - name: x\n    given: {player: {improvements: [wel]}}\n    use: forest\n',
        ["3:37: error[E153]: unknown improvement 'wel' (did you mean 'well'?)"]),
    "name_missing": ('scenarios:\n  - use: forest\n',
        ["2:5: error[E111]: scenario file is missing the required key 'name'"]),
    "name_number": ('scenarios:\n  - name: 5\n    use: forest\n',
        ["2:11: error[E112]: 'name' must be text, not a number"]),
    "newborns_too_many": ('scenarios:\n  - name: x\n    given: {player: {people: 2, newborns: 3}}\n    use: forest\n',
        ['3:43: error[E153]: 3 newborns in a family of 2']),
    "occupants_list": ('scenarios:\n  - name: x\n    given: {occupants: [forest]}\n    use: forest\n',
        ["3:24: error[E112]: 'occupants' must be a mapping, not a list"]),
    "occupants_more_than_people": ('scenarios:\n  - name: x\n    given: {occupants: {forest: P2, clay_pit: P2, reed_bank: P2}}\n    use: fishing\n',
        ["3:62: error[E153]: P2 has no person left at home to put on 'reed_bank'"]),
    "occupants_number": ('scenarios:\n  - name: x\n    given: {occupants: {forest: 2}}\n    use: forest\n',
        ["3:33: error[E112]: 'forest' must be text or a list, not a number"]),
    "occupants_p5": ('scenarios:\n  - name: x\n    given: {occupants: {forest: P5}}\n    use: forest\n',
        ["3:33: error[E156]: there is no player 'P5' in a 2-player scenario (P1 to P2)"]),
    "pack_number": ('pack: 5\nscenarios:\n  - name: x\n    use: forest\n',
        ["1:7: error[E112]: 'pack' must be text, not a number"]),
    "pack_unknown": ('pack: revisd\nscenarios:\n  - name: x\n    use: forest\n',
        ["1:7: error[E151]: unknown pack 'revisd' (did you mean 'revised'?)"]),
    "player_farmyard_text": ('scenarios:\n  - name: x\n    given: {player: {farmyard: abc}}\n    use: forest\n',
        ["3:32: error[E112]: 'farmyard' must be a list, not text"]),
    "player_goods_list": ('scenarios:\n  - name: x\n    given: {player: {goods: [wood]}}\n    use: forest\n',
        ["3:29: error[E112]: 'goods' must be a mapping, not a list"]),
    "player_hand_text": ('scenarios:\n  - name: x\n    given: {player: {hand: some_card}}\n    use: forest\n',
        ["3:28: error[E112]: 'hand' must be a list, not text"]),
    "player_hand_unknown": ('scenarios:\n  - name: x\n    given: {player: {hand: [no_such_card]}}\n    use: forest\n',
        ["3:29: error[E153]: unknown hand card 'no_such_card'"]),
    "player_home_text": ('scenarios:\n  - name: x\n    given: {player: {home: x}}\n    use: forest\n',
        ["3:28: error[E112]: 'home' must be a whole number, not text"]),
    "player_improvements_numbers": ('scenarios:\n  - name: x\n    given: {player: {improvements: [1, 2]}}\n    use: forest\n',
        ["3:37: error[E112]: 'improvements' must be text, not a number", "3:40: error[E112]: 'improvements' must be text, not a number"]),
    "player_list": ('scenarios:\n  - name: x\n    given: {player: [wood]}\n    use: forest\n',
        ["3:21: error[E112]: 'player' must be a mapping, not a list"]),
    "player_newborns_text": ('scenarios:\n  - name: x\n    given: {player: {newborns: one}}\n    use: forest\n',
        ["3:32: error[E112]: 'newborns' must be a whole number, not text"]),
    "player_people_text": ('scenarios:\n  - name: x\n    given: {player: {people: two}}\n    use: forest\n',
        ["3:30: error[E112]: 'people' must be a whole number, not text"]),
    "player_unknown_key": ('scenarios:\n  - name: x\n    given: {player: {wood: 2}}\n    use: forest\n',
        ["3:22: error[E110]: unknown key 'wood' in scenario file (did you mean 'goods'?)"]),
    "players_bool": ('players: true\nscenarios:\n  - name: x\n    use: forest\n',
        ["1:10: error[E112]: 'players' must be a whole number, not true/false"]),
    "players_list": ('players: [2]\nscenarios:\n  - name: x\n    use: forest\n',
        ["1:10: error[E112]: 'players' must be a whole number, not a list"]),
    "players_mapping": ('scenarios:\n  - name: x\n    given: {players: {P1: {}}}\n    use: forest\n',
        ["3:22: error[E112]: 'players' must be a list, not a mapping"]),
    "players_nine": ('players: 9\nscenarios:\n  - name: x\n    use: forest\n',
        ["1:10: error[E152]: pack 'revised' is for 1 to 4 players, not 9"]),
    "players_text": ('players: abc\nscenarios:\n  - name: x\n    use: forest\n',
        ["1:10: error[E112]: 'players' must be a whole number, not text"]),
    "players_too_many": ('scenarios:\n  - name: x\n    given: {players: [{}, {}, {}]}\n    use: forest\n',
        ['3:22: error[E158]: 3 players given for a 2-player scenario']),
    "players_zero": ('players: 0\nscenarios:\n  - name: x\n    use: forest\n',
        ["1:10: error[E115]: 'players' must be at least 1, not 0"]),
    "revealed_text": ('scenarios:\n  - name: x\n    given: {revealed: fencing}\n    use: forest\n',
        ["3:23: error[E112]: 'revealed' must be a list, not text"]),
    "round_15": ('scenarios:\n  - name: x\n    given: {round: 15}\n    use: forest\n',
        ['3:20: error[E157]: round 15 is after the last round (14)']),
    "round_list": ('scenarios:\n  - name: x\n    given: {round: [3]}\n    use: forest\n',
        ["3:20: error[E112]: 'round' must be a whole number, not a list"]),
    "round_text": ('scenarios:\n  - name: x\n    given: {round: abc}\n    use: forest\n',
        ["3:20: error[E112]: 'round' must be a whole number, not text"]),
    "round_zero": ('scenarios:\n  - name: x\n    given: {round: 0}\n    use: forest\n',
        ["3:20: error[E115]: 'round' must be at least 1, not 0"]),
    "scenario_text": ('scenarios:\n  - just text\n',
        ['2:5: error[E150]: a scenario is a mapping (name, given, use or do, answers, expect)']),
    "scenarios_empty": ('scenarios: []\n',
        ['1:12: error[E150]: a scenario file needs at least one scenario']),
    "scenarios_mapping": ('scenarios: {name: x}\n',
        ["1:12: error[E112]: 'scenarios' must be a list, not a mapping"]),
    "seed_negative": ('seed: -1\nscenarios:\n  - name: x\n    use: forest\n',
        ["1:7: error[E115]: 'seed' must be at least 0, not -1"]),
    "seed_text": ('seed: abc\nscenarios:\n  - name: x\n    use: forest\n',
        ["1:7: error[E112]: 'seed' must be a whole number, not text"]),
    "space_good_unknown": ('scenarios:\n  - name: x\n    given: {spaces: {forest: {wod: 2}}}\n    use: forest\n',
        ["3:31: error[E155]: unknown good 'wod' (did you mean 'wood'?)"]),
    "space_goods_count_text": ('scenarios:\n  - name: x\n    given: {spaces: {forest: {wood: many}}}\n    use: forest\n',
        ["3:37: error[E112]: 'wood' must be a whole number, not text"]),
    "space_goods_negative": ('scenarios:\n  - name: x\n    given: {spaces: {forest: {wood: -2}}}\n    use: forest\n',
        ["3:37: error[E115]: 'wood' must be at least 0, not -2"]),
    "space_goods_text": ('scenarios:\n  - name: x\n    given: {spaces: {forest: wood}}\n    use: forest\n',
        ["3:30: error[E112]: 'forest' must be a mapping or nothing, not text"]),
    "space_not_for_players": ('scenarios:\n  - name: x\n    given: {spaces: {copse: {wood: 1}}}\n    use: forest\n',
        ["3:22: error[E154]: 'copse' is not used with 2 players"]),
    "space_unknown": ('scenarios:\n  - name: x\n    given: {spaces: {forrest: {wood: 2}}}\n    use: forest\n',
        ["3:22: error[E154]: unknown action space 'forrest' (did you mean 'forest'?)"]),
    "spaces_list": ('scenarios:\n  - name: x\n    given: {spaces: [forest]}\n    use: forest\n',
        ["3:21: error[E112]: 'spaces' must be a mapping, not a list"]),
    "start_player_number": ('scenarios:\n  - name: x\n    given: {start_player: 2}\n    use: forest\n',
        ["3:27: error[E112]: 'start_player' must be text, not a number"]),
    "start_player_p7": ('scenarios:\n  - name: x\n    given: {start_player: P7}\n    use: forest\n',
        ["3:27: error[E156]: there is no start player 'P7' in a 2-player scenario (P1 to P2)"]),
    "top_list": ('- name: x\n',
        ["1:1: error[E150]: a scenario file is a mapping with a 'scenarios' list"]),
    "top_unknown_key": ('scenarios:\n  - name: x\n    use: forest\nplayer: 2\n',
        ["4:1: error[E110]: unknown key 'player' in scenario file (did you mean 'players'?)"]),
    "use_list": ('scenarios:\n  - name: x\n    use: [forest]\n',
        ["3:10: error[E112]: 'use' must be text, not a list"]),
    "use_not_for_players": ('scenarios:\n  - name: x\n    use: grove\n',
        ["3:10: error[E154]: 'grove' is not used with 2 players"]),
    "use_number": ('scenarios:\n  - name: x\n    use: 5\n',
        ["3:10: error[E112]: 'use' must be text, not a number"]),
    "use_unknown": ('scenarios:\n  - name: x\n    use: forrest\n',
        ["3:10: error[E154]: unknown action space 'forrest' (did you mean 'forest'?)"]),
    "yaml_syntax": ('scenarios: [\n',
        ["2:1: error[E101]: invalid YAML: expected the node content, but found '<stream end>'"]),
}


@pytest.fixture(scope="module", autouse=True)
def compile_once(build_root):
    """The pack compiles once for the module: the cases are about scenario files, not compiling."""
    done = {}
    real = Compiler.compile

    def compile_cached(self, pack_id):
        key = (str(self.ws.root), tuple(map(str, self.ws.extra)), str(self.build_root), pack_id)
        if key not in done:
            done[key] = real(self, pack_id)
        return done[key]
    mp = pytest.MonkeyPatch()
    mp.setattr(Compiler, "compile", compile_cached)
    yield
    mp.undo()


def _write(tmp_path, name, text):
    path = tmp_path / f"{name}.test.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_there_are_enough_cases():
    assert len(CASES) >= 40


@pytest.mark.parametrize("name", sorted(CASES))
def test_agricola_test_reports_each_mistake_located(name, tmp_path, capsys, build_root):
    text, lines = CASES[name]
    path = _write(tmp_path, name, text)
    assert cli.main(["--build", str(build_root), "test", str(path)]) == 2
    out, err = capsys.readouterr()
    assert err.splitlines() == [f"{path}:{line}" for line in lines]
    assert out == f"0 passed, {len(lines)} failed\n"
    assert path.read_text(encoding="utf-8") == text


@pytest.mark.parametrize("name", sorted(CASES))
def test_agricola_validate_reports_each_mistake_located(name, tmp_path, capsys, build_root):
    text, lines = CASES[name]
    path = _write(tmp_path, name, text)
    assert cli.main(["--build", str(build_root), "validate", str(path)]) == 2
    out, err = capsys.readouterr()
    shown = [line for line in err.splitlines() if line.startswith(str(path))]
    assert shown == [f"{path}:{line}" for line in lines]
    assert err.splitlines()[-1] == f"{len(lines)} problem{'s' if len(lines) != 1 else ''} found"
    assert "internal error" not in err and "Traceback" not in err
    assert out == ""
    assert path.read_text(encoding="utf-8") == text


FAILING = """scenarios:
  - name: Forest gives its wood
    given: {spaces: {forest: {wood: 3}}}
    use: forest
    expect:
      player: {goods: {wood: 3}}
  - name: A wrong expectation
    given: {spaces: {forest: {wood: 3}}}
    use: forest
    expect:
      player: {goods: {wood: 4}}
"""


def test_agricola_test_prints_one_located_line_a_failure_and_a_summary(tmp_path, capsys, build_root):
    path = _write(tmp_path, "two", FAILING)
    assert cli.main(["--build", str(build_root), "test", "-v", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == f"{path}:2: ok: Forest gives its wood\n1 passed, 1 failed\n"
    assert err == f"{path}:11:30: FAIL: A wrong expectation: P1's wood: got 3, expected 4\n"


def test_validate_finds_test_packs_with_packs_option(tmp_path, capsys, build_root):
    probes = cli.REPO_ROOT / "tests" / "packs" / "rules"
    path = cli.REPO_ROOT / "tests" / "scenarios" / "limits" / "reentrant.yaml"
    assert cli.main(["--build", str(build_root), "validate", str(path)]) == 2
    assert "error[E151]: unknown pack 'limit-probes'" in capsys.readouterr().err
    assert cli.main(["--build", str(build_root), "validate", "--packs", str(probes), str(path)]) == 0
    assert capsys.readouterr().out == f"ok: {path} valid (12 scenarios checked)\n"
    # the folder that holds rules/ and cards/ of the test packs does as well
    assert cli.main(["--build", str(build_root), "validate", "--packs", str(probes.parent), str(path)]) == 0
    assert capsys.readouterr().out == f"ok: {path} valid (12 scenarios checked)\n"


def test_agricola_test_with_the_test_packs_runs_every_scenario_of_the_project(tmp_path, capsys, build_root):
    """What a newcomer types: every scenario file under tests/scenarios, the test packs named by the folder
    that holds them."""
    folder = cli.REPO_ROOT / "tests" / "scenarios"
    assert cli.main(["--build", str(build_root), "test", "--packs", str(folder.parent / "packs"), str(folder)]) == 0
    out, err = capsys.readouterr()
    assert err == "" and out.endswith(" passed, 0 failed\n"), err[:2000]
