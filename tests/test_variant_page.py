"""A variant says what it changes in words, and removing an entry that base entries name is reported at
the overlay: hand cards that name it leave the variant with a warning; spaces and improvements that name
it are an error there, with the fix. The base pack's files are never blamed."""
from __future__ import annotations

import html
import re
import shutil
from pathlib import Path

import pytest

from compiler import cli, docs
from compiler.build import Compiler

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture()
def root(tmp_path, monkeypatch):
    shutil.copytree(ROOT / "rules", tmp_path / "rules")
    shutil.copytree(ROOT / "cards", tmp_path / "cards")
    monkeypatch.chdir(tmp_path)   # files print relative to the working folder
    return tmp_path


def variant(root: Path, game: str, **files) -> Path:
    folder = root / "rules" / "mine"
    folder.mkdir()
    (folder / "game.yaml").write_text("extends: revised\nid: mine\nname: Mine\n" + game, encoding="utf-8")
    for name, text in files.items():
        (folder / f"{name}.yaml").write_text(text, encoding="utf-8")
    return folder


def _section_text(out_dir: Path) -> str:
    page = (out_dir / "rules.html").read_text(encoding="utf-8")
    part = page[page.index('id="variant"'):page.index("</section>", page.index('id="variant"'))]
    part = re.sub(r"</t[hd]>", " | ", part)
    part = re.sub(r"</tr>|</li>|</p>|</h3>", "\n", part)
    text = html.unescape(re.sub(r"<[^>]+>", "", part))
    return "\n".join(" ".join(line.split()) for line in text.splitlines() if line.strip())


def test_the_changed_rules_in_words_and_only_those(root, tmp_path):
    variant(root, "family: {start: 2, max: 6}\n"
                  "costs: {room: '4 material, 2 reed', renovation_per_room: 1 material, renovation: 1 reed,"
                  " stable: 2 wood, fence: 1 wood}\n"
                  "start_goods: {start_player: 1 food, others: 3 food}\n"
                  "housing: {pasture_space: 3, stable_factor: 2, unfenced_stable: 1, house: 1}\n"
                  "supply: {fences: 15, stables: 4}\n",
            actions="- id: forest\n  accumulate: 4 wood\n")
    comp = Compiler(root, tmp_path / "build")
    docs.build_site(comp, "mine", tmp_path / "site")
    text = _section_text(tmp_path / "site")
    rows = [line for line in text.splitlines() if line.count("|") == 3]
    assert rows == [
        "Rule | In revised | Here |",
        "People at most | 5 | 6 |",
        "The start player gets | 0 food with 1 player, 2 food with 2 or more players | 1 food |",
        "A room costs | 5 of your house material and 2 reed | 4 of your house material and 2 reed |",
        "Animals per pasture space | 2 | 3 |",
    ]
    for unchanged in ("Fences in each supply", "Every other player gets", "A stable costs", "Renovating"):
        assert unchanged not in text
    assert "{" not in text and "'" not in text.replace("'s ", "")  # no Python dict or list reprs
    assert ("Forest — changed (1–4 players). Now: Collects 4 wood every round; take everything on it. "
            "Was: Collects 2 wood with 1 player; 3 wood with 2 or more players every round; "
            "take everything on it.") in text.replace("\n", " ")


def test_a_variant_that_changes_nothing_says_so(root, tmp_path):
    variant(root, "supply: {fences: 15, stables: 4}\n")
    comp = Compiler(root, tmp_path / "build")
    docs.build_site(comp, "mine", tmp_path / "site")
    text = _section_text(tmp_path / "site")
    assert "and plays exactly like it." in text
    assert "|" not in text


def test_the_family_variant_page(tmp_path):
    comp = Compiler(ROOT, tmp_path / "build")
    docs.build_site(comp, "revised-family", tmp_path / "site")
    text = _section_text(tmp_path / "site")
    assert ("Hand cards | each player is dealt 7 occupations and 7 minor improvements | "
            "no hand cards: the game is played without them |") in text
    assert "Lessons — removed (1–4 players)." in text and "Lessons — removed (3–4 players)." in text


def test_settings_facts_cover_every_setting(tmp_path):
    """Every key of game.yaml that a variant may set shows up as a fact (so no change goes unsaid)."""
    comp = Compiler(ROOT, tmp_path / "build")
    model = docs.build_model(comp, "revised")
    labels = [label for label, _ in docs.setting_facts(model["rules"], model["stages"])]
    for wanted in ("Players", "Rounds", "Stage 1", "Harvests", "Farmyard", "Starting rooms", "House materials",
                   "People at the start", "People at most", "Fences in each supply", "Stables in each supply",
                   "The start player gets", "Every other player gets", "Hand cards", "Food per person at a harvest",
                   "Food per newborn at a harvest", "A room costs", "Renovating costs", "A stable costs",
                   "A fence costs", "Sowing grain", "Animals per pasture space", "A stable in a pasture",
                   "Goods", "Food at any time", "Scoring: Fields", "Tie-break", "Solo target"):
        assert wanted in labels, wanted
    assert len(labels) == len(set(labels))


# ---------------------------------------------------------------- removing what base entries name

def _cards_naming(space_id):
    """(id, name, file) of every hand card whose effects name the space, in file order (as the pack reads them)."""
    import yaml
    out = []
    for path in sorted((ROOT / "cards/revised").glob("*/*.yaml")):
        if path.name.endswith(".test.yaml"):
            continue
        card = yaml.safe_load(path.read_text(encoding="utf-8"))
        if re.search(rf"(?<![#\w]){space_id}(?!\w)", str(card.get("effects") or "")):
            out.append((card["id"], card["name"], str(path.relative_to(ROOT))))
    return out


CARDS_NAMING_GRAIN_SEEDS = _cards_naming("grain_seeds")


def test_removing_a_space_that_cards_name_takes_them_out_with_a_warning(root, tmp_path, capsys):
    variant(root, "", actions="- id: forest\n  accumulate: 4 wood\n- id: grain_seeds\n  remove: true\n")
    status = cli.main(["--root", str(root), "--build", str(tmp_path / "b"), "validate", str(root / "rules/mine")])
    out, err = capsys.readouterr()
    assert status == 0 and out == "ok: mine valid\n"
    assert len(CARDS_NAMING_GRAIN_SEEDS) == 5
    assert err == (
        "rules/mine/actions.yaml:3:7: warning[W125]: removing 'grain_seeds' also takes out 5 cards that name it: "
        + ", ".join(f"{name} ({file})" for _, name, file in CARDS_NAMING_GRAIN_SEEDS) + "\n"
        "  - id: grain_seeds\n"
        "        ^^^^^^^^^^^\n"
        "  = hint: to keep them in this variant, keep 'grain_seeds'\n"
        "1 warning\n")
    assert "cards/revised" not in err.split("warning[W125]")[0]


def test_the_cards_that_left_are_not_in_the_compiled_variant(root, tmp_path, capsys):
    variant(root, "", actions="- id: grain_seeds\n  remove: true\n")
    assert cli.main(["--root", str(root), "--build", str(tmp_path / "b"), "compile", "--pack", "mine"]) == 0
    assert "warning[W125]" in capsys.readouterr().err
    from runtime.pack import load_pack
    pack = load_pack("mine", tmp_path / "b")
    left = {cid for cid, _, _ in CARDS_NAMING_GRAIN_SEEDS}
    assert not left & set(pack.cards)
    assert len(pack.cards) == len(list((ROOT / "cards/revised").glob("*/*.test.yaml"))) - len(left)
    assert "grain_seeds" not in pack.space_defs
    comp = Compiler(root, tmp_path / "b")
    docs.build_site(comp, "mine", tmp_path / "site")
    text = _section_text(tmp_path / "site")
    for _, name, _ in CARDS_NAMING_GRAIN_SEEDS:
        assert f"{name} — removed: it names Grain Seeds, which this variant removes." in text


def test_removing_an_entry_a_major_names_is_an_error_at_the_overlay(root, tmp_path, capsys):
    variant(root, "", majors="- id: fireplace_2\n  remove: true\n- id: fireplace_3\n  remove: true\n")
    status = cli.main(["--root", str(root), "validate", str(root / "rules/mine")])
    err = capsys.readouterr().err
    assert status == 2
    lines = err.splitlines()
    assert lines[0] == ("rules/mine/majors.yaml:1:7: error[E125]: cannot remove the last entries with the tag "
                        "#fireplace (fireplace_2, fireplace_3): the major improvement 'cooking_hearth_4' "
                        "(rules/revised/majors.yaml) names #fireplace")
    assert lines[3] == ("  = hint: remove 'cooking_hearth_4' too (an entry '- id: cooking_hearth_4' with "
                        "'remove: true' in this pack's majors.yaml), or keep one of them")
    assert lines[-1] == "2 problems found"
    assert not any(line.startswith("rules/revised/") or line.startswith("cards/revised/") for line in lines)


def test_the_fix_works(root, tmp_path, capsys):
    variant(root, "", majors="- id: fireplace_2\n  remove: true\n- id: fireplace_3\n  remove: true\n"
                             "- id: cooking_hearth_4\n  remove: true\n- id: cooking_hearth_5\n  remove: true\n")
    status = cli.main(["--root", str(root), "validate", str(root / "rules/mine")])
    out, err = capsys.readouterr()
    assert status == 0, err
    assert out == "ok: mine valid\n"


def test_removing_a_space_only_cards_name_is_a_warning(root, capsys):
    variant(root, "", actions="- id: farmland\n  remove: true\n")
    assert cli.main(["--root", str(root), "validate", str(root / "rules/mine")]) == 0
    err = capsys.readouterr().err
    assert err.startswith("rules/mine/actions.yaml:1:7: warning[W125]: removing 'farmland' also takes out ")


def test_removing_a_space_another_space_names_is_an_error(root, capsys):
    base = root / "rules/revised/actions.yaml"
    base.write_text(base.read_text(encoding="utf-8") +
                    "\n- id: far_field\n  name: Far Meadow\n  effect: gain 1 grain if occupied(farmland)\n",
                    encoding="utf-8")
    assert cli.main(["--root", str(root), "validate", str(root / "rules/revised")]) == 0
    capsys.readouterr()
    variant(root, "", actions="- id: farmland\n  remove: true\n")
    assert cli.main(["--root", str(root), "validate", str(root / "rules/mine")]) == 2
    err = capsys.readouterr().err
    assert ("rules/mine/actions.yaml:1:7: error[E125]: cannot remove 'farmland': the action space 'far_field' "
            "(rules/revised/actions.yaml) names farmland\n") in err
    assert ("  = hint: remove 'far_field' too (an entry '- id: far_field' with 'remove: true' in this pack's "
            "actions.yaml), or keep 'farmland'\n") in err
    assert err.endswith("1 problem found, 1 warning\n")
    assert "rules/revised/actions.yaml:" not in err
