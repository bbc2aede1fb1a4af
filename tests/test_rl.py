"""The PettingZoo environment of the [rl] extra (runtime/rl.py) passes PettingZoo's own API test and
plays whole games whose rewards follow the final scores."""
from __future__ import annotations

import re
import warnings
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test

from runtime.engine import Game
from runtime.requests import KINDS
from runtime.rl import AgricolaEnv

ROOT = Path(__file__).resolve().parents[1]
PACKS = sorted(p.parent.name for p in (ROOT / "rules").glob("*/game.yaml"))


@pytest.mark.parametrize("pack_id, players", [("revised", 1), ("revised", 2), ("revised", 4),
                                              ("family-2012", 1), ("family-2012", 3)])
def test_pettingzoos_api_test_passes(pack_loader, pack_id, players):
    with warnings.catch_warnings():
        # PettingZoo warns about every Dict observation with an action mask (its own board games too)
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably should be")
        api_test(AgricolaEnv(pack_loader(pack_id), players=players), num_cycles=300)


@pytest.mark.source_text
def test_every_request_the_runtime_makes_is_a_kind_the_environment_encodes():
    """Each ``decide(player, "kind", …)`` in runtime/ names one of runtime.requests.KINDS, and
    docs/api.md's table lists exactly those kinds."""
    asked = set()
    for path in (ROOT / "runtime").rglob("*.py"):
        asked |= set(re.findall(r"decide\(\s*\w+,\s*\"(\w+)\"", path.read_text()))
    assert asked and asked <= set(KINDS), sorted(asked - set(KINDS))
    table = re.search(r"\| kind \| the options are \|\n\|---\|---\|\n((?:\|.*\n)+)", (ROOT / "docs/api.md").read_text())
    documented = [k for row in table.group(1).splitlines() for k in re.findall(r"`(\w+)`", row.split("|")[1])]
    assert documented == list(KINDS)


@pytest.mark.parametrize("pack_id", PACKS)
def test_every_pack_plays_through_the_environment(pack_loader, pack_id):
    """A whole game of every built-in pack through the environment: each request's kind is one-hot in
    the observation and every answer is taken by its index."""
    pack = pack_loader(pack_id)
    players = max(pack.rules.min_players, min(2, pack.rules.max_players))
    env = AgricolaEnv(pack, players=players)
    first_kind = env.feature_names().index(f"kind:{KINDS[0]}")
    kinds_seen = set()

    def pick(legal):
        kind = env.game.pending.kind
        if kind not in kinds_seen:   # (each kind's first request: encoding every one is slow)
            onehot = env.observe(env.agent_selection)["observation"][first_kind:first_kind + len(KINDS)]
            assert onehot.sum() == 1 and KINDS[int(np.argmax(onehot))] == kind
            kinds_seen.add(kind)
        return int(legal[(env.game.decisions * 7919) % len(legal)])

    _play_out(env, 11, pick)
    assert env.game.finished and "place" in kinds_seen
    if pack.rules.pregame and not pack.rules.deal_by_class:   # (a deal by card class asks nothing)
        assert kinds_seen & {"draft", "redraw", "swap", "round_card", "display"}, kinds_seen


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


def test_each_players_counts_are_named_features_the_observer_first(family):
    """The per-player block of the observation: its names, in order, and each holding that player's
    count, the observing player's block first ("me"), then the next seat's ("next1")."""
    env = AgricolaEnv(family, players=2)
    env.reset(seed=4)
    for _ in range(12):
        env.step(0)
    names = env.feature_names()
    first = names.index("me:start_player")
    assert names[first:first + 13] == [
        "me:start_player", "me:rooms", "me:fences", "me:fences_left", "me:stables_left", "me:people",
        "me:newborns", "me:at_home", "me:begging", "me:bonus", "me:score", "me:hand_occupations",
        "me:hand_minors"]
    g = env.game
    assert sorted(p.home for p in g.players) == [0, 1] and all(p.people == 2 for p in g.players)
    for seat, agent in enumerate(env.possible_agents):
        obs = env.observe(agent)["observation"]
        for k, who in ((0, "me"), (1, "next1")):
            p = g.players[(seat + k) % 2]
            counts = [obs[names.index(f"{who}:{w}")] for w in ("people", "at_home", "rooms", "start_player")]
            assert counts == [p.people, p.home, p.room_count, float(p.idx == g.start_player)], (seat, who)


def test_each_spaces_features_say_whose_people_stand_on_it(family):
    """An action space's block: whether it is in play, whether a person of the observer's stands on it and
    how many people of other players do, seen from each seat."""
    env = AgricolaEnv(family, players=2)
    env.reset(seed=4)
    for _ in range(12):
        env.step(0)
    g, names = env.game, env.feature_names()
    assert sorted(len(s.occupants) for s in g.spaces if s.occupants) == [1, 1, 1]
    for seat, agent in enumerate(env.possible_agents):
        obs = env.observe(agent)["observation"]
        for s in g.spaces:
            block = [obs[names.index(f"space:{s.id}:{w}")] for w in ("in_play", "mine", "others")]
            assert block == [1.0, float(seat in s.occupants), float(sum(o != seat for o in s.occupants))], (seat, s.id)


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



def test_the_round_features_hold_the_stage_and_a_request_of_no_known_kind_is_refused(family):
    """The first features are the round, the rounds left and the stage of the round (0 where the round
    is in no stage); a view whose pending request is of a kind runtime/requests.py does not know is
    refused word for word."""
    env = AgricolaEnv(family, players=2)
    env.reset(seed=1)
    names, g = env.feature_names(), env.game
    assert names[:3] == ["round", "rounds_left", "stage"]
    obs = env.observe("player_0")["observation"]
    assert (g.round, list(obs[:3])) == (1, [1.0, 13.0, 1.0])
    encoder, view = env._encoder, g.view(0)
    view["round"], view["stage"] = 8, 3
    assert list(encoder.encode(view, 0)[:3]) == [8.0, 6.0, 3.0]
    view["stage"] = None
    assert list(encoder.encode(view, 0)[:3]) == [8.0, 6.0, 0.0]
    view["pending"] = dict(view["pending"], kind="dance")
    with pytest.raises(ValueError) as exc:
        encoder.encode(view, 0)
    assert str(exc.value) == "a 'dance' request is not one of the request kinds of runtime/requests.py"

def _tile_policy(request) -> int:
    """Answers that lay pasture tiles and put a stable beside one, so that it may move onto the next."""
    p = request.player
    if request.kind == "place":
        want = ["farm_expansion"] if p.tile_pastures and not p.stables else []
        return next((request.options.index(s) for s in want + ["fencing", "forest", "farm_expansion"]
                     if s in request.options), 0)
    if request.kind in ("next", "choose"):
        return next((i for i, label in enumerate(request.labels) if "stable" in label), 0)
    if request.kind == "stable":
        on_tiles = sum(m for m, _ in p.tile_pastures)
        return next((i for i, o in enumerate(request.options) if isinstance(o, int) and not on_tiles >> o & 1), 0)
    return 0


def test_family_2012_requests_and_tiles_are_in_the_observation(pack_loader):
    """The Family Edition's own requests (pasture tiles, moving a stable) reach the environment, and
    the shared tile supply and each player's laid tiles are features."""
    env = AgricolaEnv(pack_loader("family-2012"), players=2)
    names = env.feature_names()
    first_kind = names.index(f"kind:{KINDS[0]}")
    kinds_seen = set()

    def pick(legal):
        request = env.game.pending
        onehot = env.observe(env.agent_selection)["observation"][first_kind:first_kind + len(KINDS)]
        assert KINDS[int(np.argmax(onehot))] == request.kind and onehot.sum() == 1
        kinds_seen.add(request.kind)
        return _tile_policy(request)

    _play_out(env, 1, pick)
    assert {"pasture_tile", "move_stable", "stable"} <= kinds_seen, kinds_seen
    obs = env.observe("player_0")["observation"]
    g = env.game
    for t in ("small_pasture", "large_pasture_4", "large_pasture_6"):
        assert obs[names.index(f"tiles_left:{t}")] == g.tile_supply[t]
        for k, who in ((0, "me"), (1, "next1")):
            laid = sum(1 for _, tid in g.players[k].tile_pastures if tid == t)
            assert obs[names.index(f"{who}:tiles:{t}")] == laid
    assert sum(g.tile_supply.values()) < 36 and any(p.tile_pastures for p in g.players)


def test_render_draws_the_round_each_players_goods_and_score_and_the_pending_request(family):
    """render() with render_mode 'ansi': the round, each player's goods and score so far, and who must
    answer which request with its numbered options; the score table once the game is over; nothing
    without 'ansi' or before reset. Another render_mode is refused word for word."""
    from runtime.rl import env as make_env
    from runtime.report import score_table
    with pytest.raises(ValueError) as exc:
        AgricolaEnv(family, players=2, render_mode="human")
    assert str(exc.value) == "render_mode must be None or 'ansi', not 'human'"
    quiet = make_env(family, players=2)
    assert isinstance(quiet, AgricolaEnv) and quiet.render_mode is None
    quiet.reset(seed=1)
    assert quiet.render() is None
    e = make_env(family, players=2, render_mode="ansi")
    assert e.render() is None   # no game before reset
    e.reset(seed=1)
    g = e.game
    g.players[0].goods["wood"] = 3
    food = g.players[0].goods["food"]
    g.players[1].goods["food"] = 0   # P2 holds nothing
    request = g.pending
    options = "; ".join(f"{i}={label}" for i, label in enumerate(request.labels))
    assert food > 0 and len(request.labels) > 1
    assert e.render() == "\n".join([
        "Round 1 of 14",
        f"  P1: {food} food, 3 wood; score now {g.score(g.players[0])['total']}",
        f"  P2: nothing; score now {g.score(g.players[1])['total']}",
        f"{request.player.name} to answer 'place': {options}"])
    _play_out(e, 1, lambda legal: int(legal[0]))
    assert e.game.finished and e.render() == score_table(e.game)


def test_a_game_that_ends_without_a_request_ends_the_episode_at_reset(family, monkeypatch):
    """When no seat is ever asked (every decision forced), reset() hands out the final rewards at once and
    points at the first agent, whose step is a dead step."""
    from runtime import rl
    from runtime.agents import RandomAgent

    run = rl.Game.run

    def run_to_the_end(game):
        game.agents = [RandomAgent("end:0"), RandomAgent("end:1")]
        assert run(game) is None
        return None
    monkeypatch.setattr(rl.Game, "run", run_to_the_end)
    e = AgricolaEnv(family, players=2)
    e.reset(seed=1)
    assert e.game.finished and e.agent_selection == "player_0"
    assert e.terminations == {"player_0": True, "player_1": True}
    assert sorted(e.rewards.values()) in ([-1.0, 1.0], [1.0, 1.0])


def test_close_drops_the_game(family):
    e = AgricolaEnv(family, players=2, render_mode="ansi")
    e.reset(seed=1)
    assert e.render() is not None
    e.close()
    assert e.game is None and e.render() is None


def test_a_major_played_as_a_minor_is_observed_as_owned(pack_loader):
    """A major that is a minor for its player ('<major> is a minor for you') lies among the player's minors:
    the observation shows it as the player's major."""
    e = AgricolaEnv(pack_loader("lang-probes"), players=2)
    e.reset(seed=1)
    names = e.feature_names()
    major = e.game.major_supply[0]
    at = names.index(f"me:major:{major}")
    assert e.observe("player_0")["observation"][at] == 0.0
    e.game.major_supply.remove(major)
    e.game.players[0].minors.append(major)
    assert e.observe("player_0")["observation"][at] == 1.0
    assert e.observe("player_1")["observation"][at] == 0.0
