"""The tools a card writer uses (issue 8, 'Tools'): validate on a card outside any pack and on a pack
elsewhere, card new's refusals, coverage from the catalogue shipped inside the repository, an installed
(non-editable) agricola finding its packs; and the files of a pack: links out of it, nesting that would
take too long to run."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from compiler import catalogue

from test_faults import assert_refused, run_cli, snapshot

REPO = Path(__file__).resolve().parent.parent

CARD = """id: loose_card
name: Loose Card
kind: minor
deck: X
cost: {cost}
effects: "{effects}"
"""


# ---------------------------------------------------------------- validate

@pytest.mark.parametrize("cost,effects,first", [
    ("2 wodo", "on play: gain 1 food",
     "card.yaml:5:9: error[E203]: unknown good 'wodo' (did you mean 'wood'?)"),
    ("2 wood", "on play: gian 1 food", "card.yaml:6:20: error[E202]: unexpected 'gian'"),
    ("2 wood", "after you use #no_such_tag: gain 1 food", "card.yaml:6:25: error[E205]: unknown action space tag"),
])
def test_a_card_outside_any_pack_is_checked_with_the_default_pack(cost, effects, first, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("card.yaml").write_text(CARD.format(cost=cost, effects=effects))
    status, out, err = run_cli("validate", "card.yaml")
    assert_refused(status, err, "card.yaml")
    assert err.startswith(first), err


def test_a_valid_card_outside_any_pack_says_which_pack_checked_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("card.yaml").write_text(CARD.format(cost="2 wood", effects="after you use #wood_accumulation: gain 1 food"))
    status, out, err = run_cli("validate", "card.yaml")
    assert (status, out) == (0, "ok: card.yaml valid (checked as cards of pack 'revised')\n"), err
    status, out, err = run_cli("validate", "card.yaml", "--pack", "revised-family")
    assert (status, out) == (0, "ok: card.yaml valid (checked as cards of pack 'revised-family')\n"), err


@pytest.mark.parametrize("name,text,words", [
    ("empty.yaml", "", "empty.yaml:1:1: error[E112]: the file is empty"),
    ("comments.yaml", "# nothing here\n", "comments.yaml:1:1: error[E112]: the file is empty"),
])
def test_an_empty_file_is_not_valid(name, text, words, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path(name).write_text(text)
    status, out, err = run_cli("validate", name)
    assert_refused(status, err, name, words)


def test_validate_dev_null_is_not_valid():
    status, out, err = run_cli("validate", "/dev/null")
    assert_refused(status, err, "/dev/null", "/dev/null: error[E100]: cannot read file: not a regular file "
                                             "(it is a device)")


def test_validate_a_pack_elsewhere_checks_that_pack_not_the_projects(tmp_path, monkeypatch):
    """cd /tmp/copy && agricola validate rules/revised checks the copy (here: a copy with a mistake)."""
    copy = tmp_path / "copy"
    shutil.copytree(REPO / "rules", copy / "rules")
    game = copy / "rules" / "revised" / "game.yaml"
    game.write_text(game.read_text().replace("\nrounds: 14\n", "\nrounds: 15\n"))
    monkeypatch.chdir(copy)
    for path in ("rules/revised", "rules/revised/game.yaml", copy / "rules" / "revised"):
        status, out, err = run_cli("validate", path)
        assert_refused(status, err, "rules/revised/game.yaml", "round 15 is in no stage")
    # and a pack folder of its own, outside any workspace, with the name of a project pack
    alone = tmp_path / "alone" / "revised"
    shutil.copytree(copy / "rules" / "revised", alone)
    status, out, err = run_cli("validate", alone)
    assert_refused(status, err, "game.yaml", "round 15 is in no stage")
    status, out, err = run_cli("validate", REPO / "rules" / "revised")
    assert (status, out) == (0, "ok: revised valid\n"), err


# ---------------------------------------------------------------- files of a pack

def _workspace(tmp_path) -> Path:
    root = tmp_path / "ws"
    shutil.copytree(REPO / "rules" / "revised", root / "rules" / "revised")
    (root / "cards" / "revised" / "X").mkdir(parents=True)
    return root


def test_a_symlink_out_of_the_pack_is_not_followed(tmp_path, monkeypatch):
    secret = tmp_path / "secret.txt"
    secret.write_text("password: hunter2\n")
    root = _workspace(tmp_path)
    monkeypatch.chdir(root)   # files print relative to the working folder
    link = root / "cards" / "revised" / "X" / "evil.yaml"
    link.symlink_to(secret)
    for argv in (["validate", link], ["validate", root / "rules" / "revised"], ["compile", "--pack", "revised"]):
        status, out, err = run_cli("--root", root, "--build", tmp_path / "build", *argv)
        assert_refused(status, err, "cards/revised/X/evil.yaml",
                       "cards/revised/X/evil.yaml: error[E100]: cannot read file: it is a symbolic link to a file "
                       "outside the pack's folder (cards/revised)")
        assert "hunter2" not in err and "hunter2" not in out


def test_a_symlink_inside_the_pack_is_read(tmp_path):
    root = _workspace(tmp_path)
    deck = root / "cards" / "revised" / "X"
    (deck / "real.txt").write_text(CARD.format(cost="1 wood", effects="on play: gain 1 food"))
    (deck / "loose_card.yaml").symlink_to(deck / "real.txt")
    status, out, err = run_cli("--root", root, "validate", root / "cards" / "revised")
    assert (status, out) == (0, "ok: revised valid\n"), err


@pytest.mark.parametrize("target", ["/dev/zero", "/dev/urandom"])
def test_a_symlink_to_a_device_in_a_pack_is_refused_at_once(target, tmp_path):
    root = _workspace(tmp_path)
    (root / "cards" / "revised" / "X" / "zero.yaml").symlink_to(target)
    t0 = time.process_time()   # CPU time, not wall time: reading a device forever costs CPU, a loaded machine does not
    status, out, err = run_cli("--root", root, "validate", root / "rules" / "revised")
    assert_refused(status, err, "cards/revised/X/zero.yaml")
    assert time.process_time() - t0 < 10


@pytest.mark.parametrize("depth,ok", [(1, True), (6, True), (7, False), (12, False)])
def test_nesting_for_each_player_is_bounded_at_compile_time(depth, ok, tmp_path, monkeypatch):
    """12 levels would run 4^12 = 16,777,216 times; the limit (docs/limits.md) is 10,000 steps a rule."""
    root = _workspace(tmp_path)
    monkeypatch.chdir(root)   # files print relative to the working folder
    effect = "on play: " + "for each player (" * depth + "gain 1 food" + ")" * depth
    card = root / "cards" / "revised" / "X" / "deep.yaml"
    card.write_text(CARD.format(cost="1 wood", effects=effect).replace("loose_card", "deep"))
    t0 = time.process_time()   # CPU time, not wall time (4^12 calls cost CPU; a loaded machine does not)
    status, out, err = run_cli("--root", root, "validate", card)
    assert time.process_time() - t0 < 10
    if ok:
        assert status == 0, err
        return
    col = 20 + 17 * (depth - 7)   # the level that makes it too many: 4^6 steps fit, 4^7 do not
    assert_refused(status, err, "deep.yaml")
    assert err.startswith(f"cards/revised/X/deep.yaml:6:{col}: error[E225]: 'for each player' nested too deeply: "
                          "this rule could take more than 10000 steps when it runs (each level runs what it holds "
                          "once for each of up to 4 players)\n"), err


@pytest.mark.parametrize("where", ["yaml_number", "effect_number", "cost_number"])
def test_numbers_of_5000_digits_are_located_errors(where, tmp_path):
    big = "7" * 5000
    root = _workspace(tmp_path)
    text = {"yaml_number": CARD.format(cost="1 wood", effects="on play: gain 1 food") + f"number: {big}\n",
            "effect_number": CARD.format(cost="1 wood", effects=f"on play: gain {big} food"),
            "cost_number": CARD.format(cost=f"{big} wood", effects="on play: gain 1 food")}[where]
    card = root / "cards" / "revised" / "X" / "loose_card.yaml"
    card.write_text(text)
    before = snapshot(tmp_path)
    status, out, err = run_cli("--root", root, "validate", card)
    assert_refused(status, err, "cards/revised/X/loose_card.yaml:", "error[E107]")
    assert snapshot(tmp_path) == before


# ---------------------------------------------------------------- card new

@pytest.fixture
def card_ws(tmp_path):
    root = tmp_path / "ws"
    shutil.copytree(REPO / "rules", root / "rules")
    shutil.copytree(REPO / "cards", root / "cards")
    return root


A_CARD = sorted(p.stem for p in (REPO / "cards" / "revised" / "A").glob("*.yaml")
                if not p.name.endswith(".test.yaml"))[0]   # a hand card of the pack (no card is named in code)

CARD_NEW_REFUSED = {
    "id_taken_by_a_card": ([A_CARD, "--kind", "occupation"], f"error: pack 'revised' already has a card '{A_CARD}'"),
    "id_taken_by_a_major": (["well", "--kind", "minor"], "error: pack 'revised' already has a card 'well'"),
    "deck_up": (["my_card", "--kind", "minor", "--deck", "../../x"], "error: '../../x' is not a deck"),
    "deck_absolute": (["my_card", "--kind", "minor", "--deck", "/tmp"], "error: '/tmp' is not a deck"),
    "deck_lower_case": (["my_card", "--kind", "minor", "--deck", "x"], "error: 'x' is not a deck"),
    "pack_up": (["my_card", "--kind", "minor", "--pack", "../cards"], "--pack '../cards' is not a pack name"),
    "pack_unknown": (["my_card", "--kind", "minor", "--pack", "nope"], "error: no pack 'nope'"),
    "name_too_long": (["my_card", "--kind", "minor", "--name", "x" * 200],
                      "error: the card file would not be valid (check --name); nothing written"),
    "name_empty": (["my_card", "--kind", "minor", "--name", ""],
                   "error: the card file would not be valid (check --name); nothing written"),
    "id_invalid": (["My-Card", "--kind", "minor"], "error: 'My-Card' is not a valid id"),
}


@pytest.mark.parametrize("case", sorted(CARD_NEW_REFUSED))
def test_card_new_refuses_and_writes_nothing(case, card_ws, tmp_path):
    argv, words = CARD_NEW_REFUSED[case]
    before = snapshot(tmp_path)
    status, out, err = run_cli("--root", card_ws, "card", "new", *argv)
    assert_refused(status, err, "error", words)
    assert "nothing written" in err or case == "id_invalid" or case == "pack_up"
    assert snapshot(tmp_path) == before


def test_card_new_writes_a_valid_card_whatever_the_name(card_ws, tmp_path, monkeypatch):
    monkeypatch.chdir(card_ws)
    name = 'Odd: "Name" # not a comment\nsecond line'
    status, out, err = run_cli("--root", card_ws, "card", "new", "odd_card", "--kind", "minor", "--name", name)
    assert status == 0, err
    card = card_ws / "cards" / "revised" / "X" / "odd_card.yaml"
    status, out, err = run_cli("--root", card_ws, "validate", card)
    assert status == 0, err
    from compiler.diagnostics import Report
    from compiler.loader import load_yaml_file
    assert load_yaml_file(card, Report())["name"] == name
    status, out, err = run_cli("--root", card_ws, "--build", tmp_path / "build", "test",
                               card.with_name("odd_card.test.yaml"))
    assert status == 0, err + out


def test_card_new_in_a_pack_of_another_folder_prints_the_commands_that_work(tmp_path, monkeypatch):
    """Issue 11, designer test round 3: 'card new' takes --packs like the other commands that name a pack,
    writes the card beside that folder's pack, and its 'next:' line repeats --packs (without it 'agricola
    test' does not know the pack: E151)."""
    shutil.copytree(REPO / "tests" / "packs", tmp_path / "packs")
    monkeypatch.chdir(tmp_path)
    status, out, err = run_cli("card", "new", "my_thing", "--kind", "minor", "--deck", "C",
                               "--pack", "designer-c3", "--packs", "packs")
    assert (status, err) == (0, "")
    assert out == ("wrote packs/cards/designer-c3/C/my_thing.yaml\n"
                   "wrote packs/cards/designer-c3/C/my_thing.test.yaml\n"
                   "next: fill them in, then run  agricola validate --packs packs "
                   "packs/cards/designer-c3/C/my_thing.yaml  and  agricola test --packs packs "
                   "packs/cards/designer-c3/C/my_thing.test.yaml\n")
    test_file = Path("packs/cards/designer-c3/C/my_thing.test.yaml")
    assert test_file.read_text().splitlines()[0] == (
        "# Scenarios for My Thing: run them with  agricola test --packs packs "
        "packs/cards/designer-c3/C/my_thing.test.yaml")
    status, out, err = run_cli("--build", tmp_path / "build", "test", "--packs", "packs", test_file)
    assert (status, out) == (0, "1 passed, 0 failed\n"), err
    status, out, err = run_cli("validate", "--packs", "packs", "packs/cards/designer-c3/C/my_thing.yaml")
    assert (status, out) == (0, "ok: designer-c3 valid\n"), err
    status, out, err = run_cli("card", "new", "my_thing", "--kind", "minor", "--pack", "designer-c4",
                               "--packs", "packs")
    assert (status, out) == (2, "")
    assert err == (f"error: no pack 'designer-c4' in {REPO / 'rules'}, packs/rules (did you mean "
                   "'designer-cd'?); nothing written\n")
    # --root names a whole workspace: a test pack's base is not in it, and nothing is written into a pack
    # that cannot be read
    before = snapshot(tmp_path / "packs")
    status, out, err = run_cli("--root", "packs", "card", "new", "my_other", "--kind", "minor",
                               "--pack", "designer-c3")
    assert (status, out) == (2, "")
    assert err.endswith("1 problem found\nerror: the pack 'designer-c3' cannot be read (a folder whose packs "
                        "extend the built-in ones is given with --packs DIR, not --root); nothing written\n"), err
    assert err.startswith("packs/rules/designer-c3/game.yaml:4:10: error[E120]: unknown pack 'revised' in "
                          "'extends'\n"), err
    assert snapshot(tmp_path / "packs") == before


# ---------------------------------------------------------------- coverage

def test_coverage_works_in_a_fresh_clone_with_nothing_beside_it(tmp_path):
    clone = tmp_path / "clone"
    shutil.copytree(REPO / "rules", clone / "rules")
    shutil.copytree(REPO / "cards", clone / "cards")
    status, out, err = run_cli("--root", clone, "--build", tmp_path / "build", "coverage")
    assert status == 0, err
    assert out.splitlines()[0] == ("Coverage of revised_2016 by pack 'revised' (reference: the catalogue shipped "
                                   "with agricola)")
    assert "106/106 expressed, 0 missing" in out


def _card_files(folder):
    """(minors, occupations) among the card files below ``folder``."""
    kinds = [yaml.safe_load(f.read_text(encoding="utf-8")).get("kind")
             for f in folder.glob("*/*.yaml") if not f.name.endswith(".test.yaml")]
    return kinds.count("minor"), kinds.count("occupation")


@pytest.mark.parametrize("pack", ["original", "original-family"])
def test_coverage_of_a_2007_pack_reports_the_2007_cards(pack, tmp_path):
    """Without --edition, coverage compares a pack with the cards of its own edition (a variant's is its
    base's): the 2007 packs with the 308 hand cards of 2007, as many expressed as cards/original holds;
    every other card is listed with its note from missing.yaml or as having no card file yet."""
    status, out, err = run_cli("--build", tmp_path / "build", "coverage", "--pack", pack)
    minors, occupations = _card_files(REPO / "cards" / "original")
    done = minors + occupations
    assert status == (2 if done < 308 else 0), err   # every card expressed: nothing is missing, status 0
    lines = out.splitlines()
    assert lines[:5] == [f"Coverage of original_2007 by pack '{pack}' (reference: the catalogue shipped with agricola)",
                         f"  minor improvements    {minors:3}/139 expressed",
                         f"  occupations           {occupations:3}/169 expressed",
                         f"  total                 {done:3}/308 expressed, {308 - done} missing",
                         "Missing:"][:5 if done < 308 else 4]
    rows = lines[5:]
    assert len(rows) == 308 - done and all(row.startswith("  orig-") for row in rows)
    # the notes are read from cards/<pack>/missing.yaml: the family version inherits the cards, not the notes
    notes = yaml.safe_load((REPO / "cards" / pack / "missing.yaml").read_text(encoding="utf-8")) or {} \
        if (REPO / "cards" / pack / "missing.yaml").exists() else {}
    for row in rows:
        card = row.split()[0]
        assert row.endswith(": " + notes[card] if card in notes else
                            ": no card file yet (and no note in cards/<pack>/missing.yaml)"), row


def test_coverage_counts_a_card_for_its_own_edition_and_kind_only(tmp_path):
    """--edition names another edition; a revised card does not express the 2007 card of the same name,
    and the major improvement Cooking Hearth is not the 2007 minor improvement of that name (K128)."""
    status, out, err = run_cli("--build", tmp_path / "build", "coverage", "--pack", "revised",
                               "--edition", "original_2007")
    assert status == 2, err
    assert out.splitlines()[:5] == [
        "Coverage of original_2007 by pack 'revised' (reference: the catalogue shipped with agricola)",
        "  (the pack is of edition revised_2016: only its files that say 'edition: original_2007' count)",
        "  minor improvements      0/139 expressed",
        "  occupations             0/169 expressed",
        "  total                   0/308 expressed, 308 missing"]
    assert "  orig-K128 Cooking Hearth (minor improvement, K128): no card file yet" in out
    # a card file of the 2007 edition counts, matched by deck and number
    clone = tmp_path / "clone"
    shutil.copytree(REPO / "rules", clone / "rules")
    deck = clone / "cards" / "original" / "E"
    deck.mkdir(parents=True)
    (deck / "probe_e11.yaml").write_text("id: probe_e11\nname: Probe Minor\nkind: minor\ndeck: E\nnumber: 11\ncost: 1 food\n"
                                     "effects: 'on play: gain 1 grain'\n")
    status, out, err = run_cli("--root", clone, "--build", tmp_path / "build2", "coverage", "--pack", "original")
    assert status == 2, err
    assert out.splitlines()[1:4] == ["  minor improvements      1/139 expressed",
                                     "  occupations             0/169 expressed",
                                     "  total                   1/308 expressed, 307 missing"]
    assert "orig-E11 " not in out


def test_coverage_of_a_pack_that_names_no_edition_uses_the_default_and_counts_its_cards(tmp_path):
    """A pack without 'edition' is compared with the edition of rules/defaults.yaml, and its cards (which
    name none either) count for it."""
    clone = tmp_path / "clone"
    shutil.copytree(REPO / "rules", clone / "rules")
    shutil.copytree(REPO / "cards", clone / "cards")
    game = clone / "rules" / "revised" / "game.yaml"
    text = game.read_text(encoding="utf-8")
    assert text.count("\nedition: revised_2016\n") == 1
    game.write_text(text.replace("\nedition: revised_2016\n", "\n"), encoding="utf-8")
    status, out, err = run_cli("--root", clone, "--build", tmp_path / "build", "coverage", "--pack", "revised")
    assert status == 0, err
    assert out.splitlines()[0] == ("Coverage of revised_2016 by pack 'revised' (reference: the catalogue shipped "
                                   "with agricola)")
    assert "106/106 expressed, 0 missing" in out


def test_coverage_of_an_edition_the_catalogue_lacks_is_refused(tmp_path):
    status, out, err = run_cli("--build", tmp_path / "build", "coverage", "--pack", "original", "--edition", "nope")
    assert (status, out) == (2, "")
    assert err == (f"error: no cards of edition 'nope' in {catalogue.CATALOGUE} "
                   "(editions: original_2007, revised_2016)\n")


def test_the_catalogue_holds_facts_only():
    cards = catalogue.load()
    assert len(cards) == 414
    assert {c["edition"] for c in cards} == {"revised_2016", "original_2007"}
    for card in cards:
        assert tuple(card) == catalogue.FIELDS, card["id"]
    text = catalogue.CATALOGUE.read_text(encoding="utf-8")
    for word in ("text_en", "clarifications", "errata", "source", "corrections"):
        assert f'"{word}"' not in text
    assert catalogue.CATALOGUE.read_text(encoding="utf-8") == catalogue.render(cards)   # as generated


def test_the_catalogue_script_drops_everything_but_the_facts(tmp_path):
    full = [{"id": "rev-X001", "name_en": "Some Card", "type": "minor_improvement", "edition": "revised_2016",
             "deck": "X", "set": "base", "number": 1, "players": None, "cost": {"wood": 1},
             "cost_alternatives": None, "cost_text": "1 Wood", "prerequisite": None, "vp": 1,
             "bonus_points": False, "passing": True, "text_en": "PRINTED TEXT", "clarifications": ["RULING"],
             "errata": None, "corrections": [], "source": "somewhere"}]
    (tmp_path / "full.json").write_text(json.dumps(full))
    assert catalogue.main([str(tmp_path / "full.json"), "--out", str(tmp_path / "facts.json")]) == 0
    text = (tmp_path / "facts.json").read_text()
    assert "PRINTED TEXT" not in text and "RULING" not in text and "somewhere" not in text
    assert json.loads(text) == [{k: full[0][k] for k in catalogue.FIELDS}]


# ---------------------------------------------------------------- an installed agricola

def test_an_installed_agricola_finds_its_packs_from_any_folder(tmp_path):
    """pip install (not editable) into a folder, then play the revised pack from another folder: the packs
    are installed with the package, and compiled into the user's cache folder."""
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md", "compiler", "runtime", "rules", "cards"):
        (shutil.copytree if (REPO / name).is_dir() else shutil.copy)(
            REPO / name, src / name, **({"ignore": shutil.ignore_patterns("__pycache__")}
                                        if (REPO / name).is_dir() else {}))
    site = tmp_path / "site"
    pip = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                          "--no-index", "--target", str(site), str(src)], capture_output=True, text=True)
    assert pip.returncode == 0, pip.stderr[-3000:]
    assert "Warning" not in pip.stderr, pip.stderr[-3000:]
    assert (site / "agricola_content" / "rules" / "revised" / "game.yaml").is_file()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = dict(os.environ, PYTHONPATH=str(site), XDG_CACHE_HOME=str(tmp_path / "cache"))
    env.pop("AGRICOLA_HOME", None)
    code = ("import sys, compiler, runtime.pack as rp\n"
            f"assert compiler.__file__.startswith({str(site)!r}), compiler.__file__\n"
            "assert rp.INSTALLED\n"
            "from compiler.cli import main\n"
            "sys.exit(main(['play', '--pack', 'revised', '--players', '2', '--seed', '1', '--json']))\n")
    run = subprocess.run([sys.executable, "-P", "-c", code], cwd=elsewhere, env=env, capture_output=True,
                         text=True)
    assert run.returncode == 0, run.stderr[-3000:]
    assert json.loads(run.stdout)["pack"] == "revised"
    assert (tmp_path / "cache" / "agricola" / "build" / "packs" / "revised" / "manifest.json").is_file()
    assert list(elsewhere.iterdir()) == []
    installed = snapshot(site)
    code = ("import sys\nfrom compiler.cli import main\n"
            "sys.exit(main(['card', 'new', 'my_card', '--kind', 'minor']))\n")
    run = subprocess.run([sys.executable, "-P", "-c", code], cwd=elsewhere, env=env, capture_output=True,
                         text=True)
    assert run.returncode == 2 and run.stderr.startswith("error: the packs installed with agricola are not for "
                                                         "editing; give --root"), run.stderr
    assert snapshot(site) == installed


def test_the_packs_installed_with_agricola_are_found_where_the_package_is(tmp_path, monkeypatch):
    """Without rules/ beside runtime/ (a pip install), the packs are those of the package agricola_content:
    the first of its folders that holds rules/; without one, the source folder still."""
    import importlib.util

    import runtime.pack as rp
    source, installed = tmp_path / "site", tmp_path / "site" / "agricola_content"
    (installed / "rules").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.setattr(rp, "_SOURCE_ROOT", source)
    found = {}

    class Spec:
        submodule_search_locations = [str(tmp_path / "elsewhere"), str(installed)]

    def find_spec(name):
        found["name"] = name
        if isinstance(found.get("spec"), Exception):
            raise found["spec"]
        return found.get("spec", Spec)
    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    assert rp._content_root() == installed and found["name"] == "agricola_content"
    Spec.submodule_search_locations = None        # a namespace package without folders
    assert rp._content_root() == source
    for spec in (None, ValueError("agricola_content.__spec__ is None"), ImportError("no module")):
        found["spec"] = spec
        assert rp._content_root() == source
    monkeypatch.undo()
    assert rp._content_root() == REPO and not rp.INSTALLED   # the checkout: rules/ beside runtime/


def test_an_installed_agricola_compiles_into_the_users_cache_folder(tmp_path, monkeypatch):
    import runtime.pack as rp
    monkeypatch.setattr(rp, "INSTALLED", True)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert rp.default_build_root() == tmp_path / "cache" / "agricola" / "build"
    assert rp.default_build_root(rp.REPO_ROOT) == tmp_path / "cache" / "agricola" / "build"
    assert rp.default_build_root(tmp_path / "work") == tmp_path / "work" / "build"   # a folder of one's own
    monkeypatch.setenv("XDG_CACHE_HOME", "")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert rp.default_build_root() == tmp_path / "home" / ".cache" / "agricola" / "build"
    monkeypatch.setattr(rp, "INSTALLED", False)
    assert rp.default_build_root() == REPO / "build"


def test_validate_a_workspace_folder_checks_every_pack_in_it(tmp_path, monkeypatch):
    copy = tmp_path / "copy"
    shutil.copytree(REPO / "rules", copy / "rules")
    shutil.copytree(REPO / "cards", copy / "cards")
    monkeypatch.chdir(copy)
    every = ", ".join(sorted(p.name for p in (REPO / "rules").iterdir() if (p / "game.yaml").exists()))
    assert every.startswith("family-2012, original, original-campaign-solo, original-family, revised, ")
    for path in (".", "rules", "cards", copy):
        status, out, err = run_cli("validate", path)
        assert (status, out) == (0, f"ok: {every} valid\n"), err[:2000]
    status, out, err = run_cli("validate", "")
    assert_refused(status, err, "''", "'': error[E100]: no such file or folder")
