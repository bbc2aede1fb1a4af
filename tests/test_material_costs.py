"""Costs narrowed to a house material do what their text says (docs/language.md 1.7)."""
from __future__ import annotations

import shutil
from pathlib import Path

from compiler.build import Compiler

REPO = Path(__file__).resolve().parent.parent


def test_costs_narrowed_to_a_material_do_what_they_say(tmp_path):
    """'cost of stone renovation' is a renovation to stone (not of a stone house, which cannot be renovated);
    'material' in a modifier is the material the price is for; a substitution narrowed to a material
    applies in a house of that material only."""
    from runtime import primitives as P
    from runtime.agents import RandomAgent
    from runtime.engine import Game
    from runtime.pack import load_pack

    root = tmp_path / "ws"
    shutil.copytree(REPO / "rules" / "revised", root / "rules" / "revised")
    deck = root / "cards" / "revised" / "T"
    deck.mkdir(parents=True)
    (deck / "material_probe.yaml").write_text(
        "id: material_probe\nname: Material Probe\nkind: minor\neffects: |\n"
        "  cost of stone renovation: -1 reed\n"
        "  cost of rooms: -1 material\n"
        "  may pay 2 reed instead of 1 clay for clay rooms\n", encoding="utf-8")
    result = Compiler(root, tmp_path / "build").compile("revised")
    assert result.ok, result.report.render()
    g = Game(load_pack("revised", tmp_path / "build"), 2, seed=1, agents=[RandomAgent("a"), RandomAgent("b")])
    p = g.players[0]
    assert P.renovation_options(g, p, "clay") == [(("clay", 2), ("reed", 1))]
    assert P.room_options(g, p) == [(("wood", 5), ("reed", 2))]
    g.install_card(p, g.card("material_probe"))
    assert P.renovation_options(g, p, "clay") == [(("clay", 2), ("reed", 1))]   # to clay: unchanged
    assert P.room_options(g, p) == [(("wood", 4), ("reed", 2))]                 # not a clay house: no substitute
    p.house = "clay"
    assert P.renovation_options(g, p, "stone") == [(("stone", 2),)]             # to stone: no reed
    assert sorted(P.room_options(g, p)) == [(("clay", 3), ("reed", 4)), (("clay", 4), ("reed", 2))]
