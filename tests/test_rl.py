"""The PettingZoo environment of the [rl] extra (runtime/rl.py) passes PettingZoo's own API test and
plays whole games whose rewards follow the final scores."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test

from runtime.engine import Game
from runtime.rl import AgricolaEnv


@pytest.mark.parametrize("players", [1, 2, 4])
def test_pettingzoos_api_test_passes(revised, players):
    with warnings.catch_warnings():
        # PettingZoo warns about every Dict observation with an action mask (its own board games too)
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably should be")
        api_test(AgricolaEnv(revised, players=players), num_cycles=300)


def _play_out(env, seed, pick):
    env.reset(seed=seed)
    steps = 0
    final = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            final[agent] = reward
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert obs["observation"].shape == (len(env.feature_names()),) and mask.dtype == np.int8
        assert info["request"] == env.game.pending.kind
        assert mask.sum() == len(env.game.pending.options) and mask[:mask.sum()].all()
        env.step(pick(np.flatnonzero(mask)))
        steps += 1
    return steps, final


def test_whole_games_and_their_rewards(revised, family):
    for pack, players, reward in ((revised, 3, "win"), (family, 2, "score"), (family, 1, "win")):
        env = AgricolaEnv(pack, players=players, reward=reward)
        steps, final = _play_out(env, 5, lambda legal: int(legal[-1]))
        g = env.game
        assert g.finished and steps == g.decisions and env.agents == []
        if reward == "score" or players == 1:
            assert final == {f"player_{i}": float(s["total"]) for i, s in enumerate(g.scores)}
        else:
            best = g.scores[g.ranking()[0]]
            won = {f"player_{i}": 1.0 if (s["total"], s["tie_break"]) == (best["total"], best["tie_break"]) else -1.0
                   for i, s in enumerate(g.scores)}
            assert final == won and 1.0 in final.values()


def test_the_environment_plays_the_same_game_as_the_engine(family):
    env = AgricolaEnv(family, players=2)
    _play_out(env, 9, lambda legal: int(legal[0]))
    g = Game(family, 2, seed=9)
    request = g.run()
    while request is not None:
        request = g.answer(0)
    assert env.game.record == g.record and env.game.scores == g.scores


def test_the_observation_shows_only_the_observers_hand(revised):
    env = AgricolaEnv(revised, players=2)
    env.reset(seed=3)
    names = env.feature_names()
    hand = [i for i, n in enumerate(names) if n.startswith("hand:")]
    for seat, agent in enumerate(env.possible_agents):
        vector = env.observe(agent)["observation"]
        p = env.game.players[seat]
        shown = sorted(names[i][5:] for i in hand if vector[i])
        assert shown == sorted(p.hand_occupations + p.hand_minors) and len(shown) == 14
    other = env.observe("player_1")["action_mask"] if env.agent_selection == "player_0" else \
        env.observe("player_0")["action_mask"]
    assert other.sum() == 0  # only the acting agent has legal actions


def test_wrong_actions_and_settings_are_refused(family):
    env = AgricolaEnv(family, players=2)
    env.reset(seed=1)
    n = len(env.game.pending.options)
    with pytest.raises(ValueError, match=f"action {n} is not legal: {env.agent_selection} has {n} options"):
        env.step(n)
    with pytest.raises(ValueError, match="reward must be 'win' or 'score', not 'gold'"):
        AgricolaEnv(family, reward="gold")
    with pytest.raises(ValueError, match="is for 1 to 4 players, not 5"):
        AgricolaEnv(family, players=5)
    small = AgricolaEnv(family, players=2, max_actions=3)
    with pytest.raises(ValueError, match="more than max_actions=3; make the environment with a larger max_actions"):
        small.reset(seed=1)
