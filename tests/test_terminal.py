"""Playing at the terminal: a person against an agent through a pseudo-terminal, and watching a save."""
from __future__ import annotations

import json
import subprocess
import sys

import pexpect

from compiler.table import Table, agent_specs, explain, readable_labels
from compiler.terminal import TerminalPlay, board_text
from tests.conftest import ROOT


def _cli(build_root, *args):
    return [sys.executable, "-m", "compiler.cli", "--build", str(build_root), *args]


def test_a_person_plays_a_whole_game_through_a_pseudo_terminal(family, build_root, tmp_path):
    save = tmp_path / "game.json"
    command = _cli(build_root, "play", "--agents", "human,random", "--seed", "4", "--save", str(save))
    child = pexpect.spawn(command[0], command[1:], cwd=str(ROOT), encoding="utf-8", timeout=60,
                          dimensions=(50, 200))
    answered = explained = undone = 0
    while True:
        found = child.expect([r"P1> ", r"Final scores", pexpect.EOF])
        if found == 1:
            break
        assert found == 0, child.before
        screen = child.before
        if answered == 0:
            assert "Round 1 of 14" in screen and "Farmyard of P1" in screen and "Forest" in screen
        if answered == 3 and not explained:
            child.sendline("?")
            child.expect(r"P1: a '\w+' request\. ")
            child.expect("take back your last decision")
            explained += 1
            continue
        if answered == 5 and not undone:
            child.sendline("u")
            child.expect("taken back: P1 is at that decision again")
            undone += 1
            continue
        # the last option, so that fences, sowing and building happen; 1 for the long option lists
        numbers = [int(line.split(".")[0]) for line in screen.splitlines()
                   if line.strip()[:1].isdigit() and "." in line and line.split(".")[0].strip().isdigit()]
        child.sendline(str(max(numbers) if numbers and max(numbers) < 20 else 1))
        answered += 1
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "Winner: " in child.before or "Shared win: " in child.before
    assert answered > 25 and explained == 1 and undone == 1
    doc = json.loads(save.read_text())
    assert doc["finished"] is True and doc["agents"][0] == {"kind": "open"}
    # the saved game is the game that was played: replay checks it reaches the same final state
    out = subprocess.run(_cli(build_root, "replay", str(save)), capture_output=True, text=True, cwd=str(ROOT))
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(f"replay ok: {len(doc['decisions'])} decisions")


def _table(family, kinds=("human", "random"), seed=2):
    return Table(family, len(kinds), seed, agent_specs(kinds, seed))


def test_undo_takes_back_the_persons_last_decision_and_what_followed(family):
    table = _table(family)
    first = table.pending
    table.answer(0)
    table.answer(0)
    assert table.game.decisions > first.number
    assert table.undo(0)
    # after one undo P1 is at its second decision again, with the first one kept
    record = table.game.record
    assert [pi for pi, _, _ in record].count(0) == 1
    assert table.undo(0) and table.undo(0) is False
    assert table.pending.number == first.number and table.pending.labels == first.labels


def test_the_options_read_as_names_and_the_request_is_explained(family):
    table = _table(family)
    request = table.pending
    labels = readable_labels(request)
    names = {s.id: s.name for s in table.game.spaces}
    assert [label.split(" (")[0] for label in labels] == [names[o] for o in request.options]
    assert any(label.endswith(" wood)") for label in labels)
    assert explain(request).startswith(f"Decision {request.number}, P1: a 'place' request. Place one of your people")
    assert "Round 1 of 14" in board_text(table.game)


def test_commands_at_the_prompt(family):
    table = _table(family)
    lines = iter(["", "x", "99", "f P9", "f P2", "h", "s", "l", "b", "o", "q"])
    out = []
    done = TerminalPlay(table, lambda prompt: next(lines), out.append).run()
    text = "\n".join(out)
    assert done is False
    assert "not an option: 'x'; type 1 to" in text and "not an option: '99'" in text
    assert "no player 'P9': give P1 … P2 or 'all'" in text
    assert "Farmyard of P2" in text and "Occupations in hand: none" in text
    assert "Scores so far: P1 " in text
    # the end of the input stops the game where it is
    out.clear()
    assert TerminalPlay(table, lambda prompt: None, out.append).run() is False
    assert out[-1] == "\nend of input: the game stops here"


def test_watch_steps_through_a_save(family, build_root, tmp_path):
    save = tmp_path / "game.json"
    out = subprocess.run(_cli(build_root, "play", "--agents", "random", "--seed", "6", "--save", str(save)),
                         capture_output=True, text=True, cwd=str(ROOT))
    assert out.returncode == 0, out.stderr
    n = len(json.loads(save.read_text())["decisions"])
    keys = "\n".join(["", "n", "b", "r 3", "f P2", "s", "r 99", "zz", "e", "n", "q"]) + "\n"
    out = subprocess.run(_cli(build_root, "watch", str(save)), input=keys, capture_output=True, text=True,
                         cwd=str(ROOT))
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert f"{n} decisions; ? for the commands" in text
    assert "-- decision 1: P" in text and "-- decision 2: P" in text
    assert "watch 1/" in text and f"watch {n}/{n}" in text
    assert "Round 3 of 14" in text and "no round 99: rounds 1 to 14" in text
    assert "unknown command 'zz'" in text
    assert "Final scores" in text and "the end of the saved game (it is over)" in text


def test_watch_refuses_a_save_that_does_not_fit(family, build_root, tmp_path):
    save = tmp_path / "game.json"
    subprocess.run(_cli(build_root, "play", "--agents", "random", "--seed", "6", "--save", str(save)),
                   capture_output=True, text=True, cwd=str(ROOT), check=True)
    doc = json.loads(save.read_text())
    doc["decisions"][0][2] = "no_such_space"
    save.write_text(json.dumps(doc))
    out = subprocess.run(_cli(build_root, "watch", str(save)), capture_output=True, text=True, cwd=str(ROOT))
    assert out.returncode == 2
    assert out.stderr.startswith(f"error: {save}: the log does not fit this game: decision 1")


def test_a_person_stops_and_resume_goes_on_at_the_terminal(family, build_root, tmp_path):
    save = tmp_path / "game.json"
    out = subprocess.run(_cli(build_root, "play", "--agents", "random,human", "--seed", "9", "--save", str(save)),
                         input="1\n1\nq\n", capture_output=True, text=True, cwd=str(ROOT))
    assert out.returncode == 0, out.stderr
    doc = json.loads(save.read_text())
    assert out.stdout.rstrip().endswith(f"stopped at decision {len(doc['decisions']) + 1}; saved in {save} "
                                        f"(agricola resume {save} goes on from there)")
    assert [pi for pi, _, _ in doc["decisions"]].count(1) == 2 and not doc["finished"]
    out = subprocess.run(_cli(build_root, "resume", str(save)), input="1\n" * 400, capture_output=True, text=True,
                         cwd=str(ROOT))
    assert out.returncode == 0, out.stderr
    assert "Final scores" in out.stdout and "P2> " in out.stdout
    done = json.loads(save.read_text())
    assert done["finished"] and done["decisions"][:len(doc["decisions"])] == doc["decisions"]


def test_h_shows_each_card_in_hand_with_its_generated_text(revised, build_root):
    """'h' lists the hand with each card's text, generated from the card's effects as in the printed
    reference (price and prerequisite first); the texts are made once, at the first 'h'."""
    from compiler.build import Compiler
    from compiler.docs import card_texts
    table = Table(revised, 2, 1, agent_specs(("human", "random"), 1))
    _src, checked, _report = Compiler(ROOT, build_root).check("revised")
    texts, made = card_texts(checked), []

    def source():
        made.append(1)
        return texts
    out = []
    lines = iter(["h", "h", "q"])
    TerminalPlay(table, lambda prompt: next(lines), out.append, card_texts=source).run()
    p, game = table.game.players[0], table.game
    hands = [block for block in out if block.startswith("Occupations in hand")]
    assert hands == ["\n".join([f"Occupations in hand: {len(p.hand_occupations)}"]
                               + [f"  {game.card(cid).name}: {texts[cid]}" for cid in p.hand_occupations]
                               + [f"Minor improvements in hand: {len(p.hand_minors)}"]
                               + [f"  {game.card(cid).name}: {texts[cid]}" for cid in p.hand_minors])] * 2
    assert len(p.hand_occupations) == len(p.hand_minors) == 7
    assert all(texts[cid].startswith("Cost: ") or texts[cid].startswith("Prerequisite: ") or cid in
               {u.id for u in checked.cards if u.data.get("cost") is None} for cid in p.hand_minors)
    assert made == [1]
