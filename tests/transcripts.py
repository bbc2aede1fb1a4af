"""Transcripts: a few seeded games of several packs written out whole, as people read them.

A transcript holds the game's header, every request with all its options' labels and the answer taken,
every log line, the state view (docs/api.md) of the seat asked first, the farmyards and the score
table at the end, and the final view of everything. The answers are drawn from a generator
seeded per game, through the game held open (``Game.run`` / ``Game.answer``), so the file depends on the
rules, the cards and every word the runtime writes, and on nothing else.

tests/test_transcripts.py plays the games again and compares them with tests/fixtures/transcripts/, line
by line. A commit that changes games or words on purpose (a rule fix, a card edit, a clearer message)
writes them again in the same commit, and its diff shows every change a player would see:

    .venv/bin/python tests/transcripts.py
"""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "tests" / "fixtures" / "transcripts"
# (pack, players, seed): the editions with their cards at 1 to 5 players, the family games, and variants
# whose requests or reports no other game reaches (teams, a draft, the open display, tiles, swaps)
GAMES = [("revised", 1, 1), ("revised", 2, 2), ("revised", 4, 3), ("revised-family", 3, 4),
         ("original", 5, 5), ("original-family", 2, 6), ("family-2012", 3, 7), ("revised-teams", 4, 8),
         ("revised-draft", 3, 9), ("revised-open-display", 2, 10), ("revised-optional-tiles", 2, 11),
         ("revised-swap-and-draw", 2, 12), ("revised-redraw", 3, 13)]


def file_name(pack_id: str, players: int, seed: int) -> str:
    return f"{pack_id}-{players}p-seed{seed}.txt"


def _json(value) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=repr)


def transcript(pack, players: int, seed: int) -> str:
    """The whole game, every seat answered at random (seeded), as text."""
    from runtime.engine import Game
    from runtime.report import farmyards, header, score_table
    from runtime.view import state_view
    game = Game(pack, players, seed=seed, log=True)
    rng = random.Random(f"transcript:{pack.id}:{players}:{seed}")
    out = [header(game, ["random"] * players), ""]
    shown = 0
    request = game.run()
    if request is not None:
        out.append(f"view of {request.player.name}: {_json(state_view(game, request.seat))}")
    while request is not None:
        out.extend(game.log[shown:])
        shown = len(game.log)
        pick = rng.randrange(len(request.options))
        prompt = f" ({request.prompt})" if request.prompt else ""
        out.append(f"? {request.number} {request.player.name} {request.kind}{prompt}: "
                   f"{' | '.join(request.labels)} -> {request.labels[pick]}")
        request = game.answer(pick)
    out.extend(game.log[shown:])
    out += ["", farmyards(game), "", score_table(game), "", f"view of everything: {_json(state_view(game, everything=True))}"]
    return "\n".join(out) + "\n"


def main() -> int:
    import tempfile
    sys.path.insert(0, str(ROOT))
    from compiler.build import Compiler
    from runtime.pack import load_pack
    build = Path(tempfile.mkdtemp(prefix="agricola-transcripts-"))
    comp = Compiler(ROOT, build)
    FOLDER.mkdir(parents=True, exist_ok=True)
    packs = {}
    for pack_id, players, seed in GAMES:
        if pack_id not in packs:
            result = comp.compile(pack_id)
            if not result.ok:
                raise SystemExit(result.report.render())
            packs[pack_id] = load_pack(pack_id, build)
        path = FOLDER / file_name(pack_id, players, seed)
        path.write_text(transcript(packs[pack_id], players, seed), encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
