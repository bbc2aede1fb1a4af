"""Agents: the greedy agent (one-step lookahead on runtime.agents.heuristic) beats the random agent; the rule
agent's choice of an improvement when it does not try the cards."""
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


def test_the_rule_agent_without_trials_picks_the_improvement_worth_most(revised):
    """Without trying each card on a copy (``try_cards=False``, the answers inside the greedy agent's trials),
    an improvement is worth its points, 5 more for the first that cooks animals at any time, 1 more for an
    upgrade (it costs a returned card instead of clay); a minor its points and a half."""
    from runtime.agents import RuleAgent, _improvement_value
    game = Game(revised, 2, seed=1, agents=[RandomAgent(0), RandomAgent(1)])
    p = game.players[0]
    minor = next(c for c in sorted(revised.cards) if revised.cards[c].kind == "minor")
    values = {o: _improvement_value(game, p, o)
              for o in ("well", "fireplace_2", "cooking_hearth_4", "cooking_hearth_4<fireplace_2", f"minor:{minor}")}
    assert values == {"well": 4, "fireplace_2": 6, "cooking_hearth_4": 6, "cooking_hearth_4<fireplace_2": 7,
                      f"minor:{minor}": revised.cards[minor].points + 0.5}
    agent = RuleAgent(try_cards=False)
    assert agent.choose(game, p, "improvement", ["well", "cooking_hearth_4", "cooking_hearth_4<fireplace_2"]) \
        == "cooking_hearth_4<fireplace_2"
    # once the player cooks, a cooking improvement is worth its points only: the Well is taken
    p.majors.append("fireplace_2")
    game.install_card(p, game.card("fireplace_2"))
    assert _improvement_value(game, p, "cooking_hearth_4") == 1
    assert agent.choose(game, p, "major", ["cooking_hearth_4", "cooking_hearth_4<fireplace_2", "well"]) == "well"


def test_the_heuristic_counts_a_room_on_a_card_while_its_condition_holds(pack_loader):
    """'this card houses 1 person while rooms >= 3': with 3 rooms and 2 people the family has 2 free rooms,
    each worth WEIGHTS free_room plus free_room_round per round left."""
    from runtime.agents import WEIGHTS, heuristic
    probes = pack_loader("lang-probes")
    g = Game(probes, 2, seed=0)
    g.run()
    p = g.players[0]
    p.minors.append("while_room_probe")
    g.install_card(p, probes.all_cards["while_room_probe"])
    cell = next(c for c in range(p.grid.rows * p.grid.cols) if not p.rooms >> c & 1)
    p.rooms |= 1 << cell
    p.room_count, p.people = 3, 2
    housed = heuristic(g, p)
    rule = p.mods.pop("card_rooms_while")
    assert housed - heuristic(g, p) == WEIGHTS["free_room"] + WEIGHTS["free_room_round"] * (g.last_round - g.round)
    p.mods["card_rooms_while"] = rule
    p.rooms &= ~(1 << cell)
    p.room_count = 2   # the condition no longer holds: no free room
    assert heuristic(g, p) < housed - WEIGHTS["free_room"]
