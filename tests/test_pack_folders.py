"""The tools on a pack outside the project's rules/ (a test pack under tests/packs, a modder's own folder):
validate finds the built-in packs it extends, and every command that names a pack takes ``--packs DIR``
as 'agricola test' does (README "Writing a card", steps 3 and 5)."""
from __future__ import annotations

from pathlib import Path

import pytest

from compiler import cli

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def mod(tmp_path, monkeypatch):
    """A modder's folder: rules/mine (extends revised) and one minor in cards/mine/X/."""
    monkeypatch.chdir(ROOT)
    (tmp_path / "rules" / "mine").mkdir(parents=True)
    (tmp_path / "rules" / "mine" / "game.yaml").write_text(
        "extends: revised\nid: mine\nname: Mine\ndescription: A modder's pack.\n")
    (tmp_path / "cards" / "mine" / "X").mkdir(parents=True)
    (tmp_path / "cards" / "mine" / "X" / "hay_tedder.yaml").write_text(
        "id: hay_tedder\nname: Hay Tedder\nkind: minor\ndeck: X\ncost: 1 wood\npoints: 1\n"
        "effects: |\n  after you use #wood_accumulation: gain 1 reed\n")
    return tmp_path


def test_validate_a_test_pack_that_extends_a_built_in_pack(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert cli.main(["validate", "tests/packs/rules/designer-cd"]) == 0
    assert capsys.readouterr().out == "ok: designer-cd valid\n"


def test_validate_a_card_of_a_modders_folder(mod, capsys):
    assert cli.main(["validate", str(mod / "cards" / "mine" / "X" / "hay_tedder.yaml")]) == 0
    assert capsys.readouterr().out == "ok: mine valid\n"


def test_validate_a_folder_of_packs_checks_only_its_own(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert cli.main(["validate", "tests/packs"]) == 0
    assert capsys.readouterr().out == "ok: designer-c3, designer-cd, designer-cd2, lang-probes, limit-probes, original-probes valid\n"


def test_cards_show_with_packs(mod, capsys):
    assert cli.main(["cards", "show", "hay_tedder", "--pack", "mine", "--packs", str(mod)]) == 0
    assert capsys.readouterr().out == (
        "Hay Tedder (minor improvement, deck X)\nCost: 1 wood · Points: 1\n"
        'Each time you use "Forest", "Grove" or "Copse": get 1 reed.\n\n')


def test_compile_with_packs(mod, tmp_path, capsys):
    build = tmp_path / "build"
    assert cli.main(["--build", str(build), "compile", "--pack", "mine", "--packs", str(mod)]) == 0
    assert capsys.readouterr().out.startswith("compiled pack 'mine' into ")
    assert (build / "packs" / "mine").is_dir()
