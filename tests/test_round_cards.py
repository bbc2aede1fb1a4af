"""The tags of the round cards: the current round's card alone carries ``newest_round`` (gamefields.mark_newest,
which looks only at the space it tagged last unless a space came into play with that tag)."""
from __future__ import annotations

from runtime import primitives as P
from runtime.agents import RandomAgent
from runtime.engine import Game
from runtime.gamefields import NEWEST
from runtime.packdata import SpaceDef


def _tagged(g):
    return [s.id for s in g.spaces if NEWEST in s.tags]


def test_the_newest_round_card_alone_carries_the_tag_in_every_round(revised):
    g = Game(revised, 2, seed=5, agents=[RandomAgent("5:0"), RandomAgent("5:1")])
    seen = {}

    def look(game):
        seen.setdefault(game.round, set()).add(tuple(_tagged(game)))

    g.on_step = look
    g.play()
    assert sorted(seen) == list(range(1, 15))
    for r, tagged in seen.items():
        assert tagged == {(g.round_order[r - 1],)}, r


def test_a_space_that_comes_with_the_tag_loses_it_at_the_next_round(revised):
    """A pack may give a space the tag itself: the next round's card takes it from that space too."""
    g = Game(revised, 2, seed=5, agents=[RandomAgent("5:0"), RandomAgent("5:1")])
    g.start_round()
    first = g.round_order[0]
    assert _tagged(g) == [first]
    g._add_space(SpaceDef({"id": "tagged_by_its_pack", "name": "Tagged", "players": (2,), "tags": (NEWEST,),
                           "variants": {2: (None, P.always, None)}}))
    assert _tagged(g) == [first, "tagged_by_its_pack"]
    g.start_round()
    assert _tagged(g) == [g.round_order[1]]
