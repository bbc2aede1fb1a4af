"""Agents: the greedy agent (one-step lookahead on runtime.agents.heuristic) beats the random agent."""
from runtime.agents import GreedyAgent, RandomAgent
from runtime.engine import Game


def _greedy_wins(pack, games):
    wins = 0
    for seed in range(games):
        seat = seed % 2  # the greedy agent plays both seats in turn
        agents = [RandomAgent(f"{seed}:0"), RandomAgent(f"{seed}:1")]
        agents[seat] = GreedyAgent()
        g = Game(pack, 2, seed=seed, agents=agents)
        g.play()
        if g.ranking()[0] == seat:
            wins += 1
    return wins


def test_greedy_beats_random_in_90_percent_of_200_games_with_cards(revised):
    assert _greedy_wins(revised, 200) >= 180


def test_greedy_beats_random_in_the_family_game(family):
    assert _greedy_wins(family, 40) >= 36


def test_greedy_is_deterministic(revised):
    def run():
        g = Game(revised, 2, seed=5, agents=[GreedyAgent(), RandomAgent("x")])
        g.record = []
        g.play()
        return g.record
    assert run() == run()
