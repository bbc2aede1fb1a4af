"""Seeded games of several packs, written out whole (requests with every option's label, the log, state
views, farmyards and scores: tests/transcripts.py), must read exactly as recorded in
tests/fixtures/transcripts/. A change of rules or wording on purpose writes them again in its commit."""
from __future__ import annotations

import difflib

import pytest

import transcripts as T

HINT = ("if this commit changes games or words on purpose, write the transcripts again "
        "(.venv/bin/python tests/transcripts.py) and read the diff")


@pytest.mark.parametrize("pack_id,players,seed", T.GAMES, ids=[T.file_name(*g)[:-4] for g in T.GAMES])
def test_a_seeded_game_reads_as_its_transcript(pack_loader, pack_id, players, seed):
    recorded = (T.FOLDER / T.file_name(pack_id, players, seed)).read_text(encoding="utf-8")
    now = T.transcript(pack_loader(pack_id), players, seed)
    if now != recorded:
        diff = list(difflib.unified_diff(recorded.splitlines(), now.splitlines(), "recorded", "now", n=2, lineterm=""))
        shown = "\n".join(line[:300] for line in diff[:40])
        pytest.fail(f"{T.file_name(pack_id, players, seed)} differs:\n{shown}\n{HINT}", pytrace=False)


def test_every_transcript_file_belongs_to_a_game():
    assert sorted(p.name for p in T.FOLDER.glob("*.txt")) == sorted(T.file_name(*g) for g in T.GAMES)
