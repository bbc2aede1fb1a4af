"""End-to-end: the built-in packs compile and a seeded game plays to the end."""
from runtime.agents import RandomAgent
from runtime.engine import Game


def test_family_game_plays_to_the_end(family):
    for n in (1, 2, 3, 4):
        g = Game(family, n, seed=7, agents=[RandomAgent(f"7:{i}") for i in range(n)])
        scores = g.play()
        assert g.round == 14 and g.finished
        assert len(scores) == n
        for s in scores:
            assert s["total"] == sum(s["categories"].values())


def test_same_seed_same_game(family):
    def run():
        g = Game(family, 3, seed=11, agents=[RandomAgent(f"11:{i}") for i in range(3)])
        g.record = []
        g.play()
        return g.record, [s["total"] for s in g.scores]
    assert run() == run()
