"""A PettingZoo AEC environment over a game held open (``pip install .[rl]``; docs/api.md).

Agents are ``player_0`` … ``player_<n-1>`` (seat order). The acting agent is the seat of the game's
pending request, so one agent may act several times in a row (a placement, then its fencing steps).

- **Actions**: ``Discrete(max_actions)``; action ``i`` answers the pending request with its option
  ``i`` (``request.options[i]``, in the request's fixed order). The observation's ``action_mask`` has a
  1 for each option of the request, so the mask is exactly the legal answers. A request with more
  options than ``max_actions`` raises ValueError (the default, 2048, is above the largest request seen:
  762 fencing options in 480 random games).
- **Observations**: ``{"observation": float32 vector, "action_mask": int8 vector}``; the vector encodes
  the state view seen from the agent's seat (``Game.view``: its own hand, other hands as counts), with
  the observing player first. ``env.feature_names()`` names every position.
- **Rewards** (at the end only): ``reward="win"`` gives +1 to each winner (ties share) and -1 to the
  others; ``reward="score"`` gives each player its final score. A solo game always uses its score.
"""
from __future__ import annotations

import functools
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .engine import Game
from .report import score_table
from .requests import KINDS

CELL_KINDS = ("empty", "room", "field", "pasture", "stable")
LIMIT = 1000.0  # every feature is clipped to [-LIMIT, LIMIT]


class AgricolaEnv(AECEnv):
    """Agricola as a PettingZoo AEC environment; ``pack`` is a compiled pack (``runtime.pack.load_pack``)."""

    metadata = {"name": "agricola_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, pack, players: int = 2, max_actions: int = 2048, reward: str = "win",
                 render_mode: str | None = None):
        super().__init__()
        rules = pack.rules
        if not rules.min_players <= players <= rules.max_players:
            raise ValueError(f"pack '{pack.id}' is for {rules.min_players} to {rules.max_players} players, not {players}")
        if reward not in ("win", "score"):
            raise ValueError(f"reward must be 'win' or 'score', not {reward!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.pack, self.players, self.max_actions = pack, players, max_actions
        self.reward_mode = "score" if players == 1 else reward
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.game: Any = None   # the Game being played (reset)
        self._encoder = _Encoder(pack, players)
        self._seed = 0

    # ----------------------------------------------------------------- spaces
    @functools.lru_cache(maxsize=None)
    def observation_space(self, agent):
        return spaces.Dict({
            "observation": spaces.Box(-LIMIT, LIMIT, shape=(self._encoder.size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(self.max_actions,), dtype=np.int8),
        })

    @functools.lru_cache(maxsize=None)
    def action_space(self, agent):
        return spaces.Discrete(self.max_actions)

    def feature_names(self) -> list[str]:
        """What each position of the observation vector holds."""
        return list(self._encoder.names)

    # ----------------------------------------------------------------- the game
    def reset(self, seed=None, options=None):
        """A new game: seeded by ``seed`` (else the previous seed plus one)."""
        self._seed = int(seed) if seed is not None else self._seed + 1
        self.game = Game(self.pack, self.players, seed=self._seed)
        self.agents = list(self.possible_agents)
        self.rewards: dict[str, float] = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self._after(self.game.run())

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.max_actions, dtype=np.int8)
        request = self.game.pending
        if request is not None and request.seat == seat:
            mask[:len(request.options)] = 1
        vector = self._encoder.encode(self.game.view(seat), seat)
        return {"observation": vector, "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        request = self.game.pending
        if action is None or not 0 <= int(action) < len(request.options):
            raise ValueError(f"action {action!r} is not legal: {agent} has {len(request.options)} options "
                             f"(see the observation's action_mask)")
        self._cumulative_rewards[agent] = 0
        self._clear_rewards()
        self._after(self.game.answer(int(action)))
        self._accumulate_rewards()

    def _after(self, request):
        """Point at the next agent to act, or end the game and hand out the rewards."""
        if request is not None:
            if len(request.options) > self.max_actions:
                raise ValueError(f"a '{request.kind}' request has {len(request.options)} options, more than "
                                 f"max_actions={self.max_actions}; make the environment with a larger max_actions")
            self.agent_selection = self.possible_agents[request.seat]
            for a in self.agents:
                self.infos[a] = {"request": request.kind} if a == self.agent_selection else {}
            return
        scores = self.game.scores
        if self.reward_mode == "score":
            final = {a: float(scores[i]["total"]) for i, a in enumerate(self.possible_agents)}
        else:
            order = self.game.ranking()
            top = (scores[order[0]]["total"], scores[order[0]]["tie_break"])
            final = {a: 1.0 if (scores[i]["total"], scores[i]["tie_break"]) == top else -1.0
                     for i, a in enumerate(self.possible_agents)}
        for a in self.agents:
            self.rewards[a] = final[a]
            self.terminations[a] = True
            self.infos[a] = {}
        if getattr(self, "agent_selection", None) not in self.agents:
            self.agent_selection = self.agents[0]

    def render(self):
        if self.render_mode != "ansi" or self.game is None:
            return None
        g = self.game
        if g.finished:
            return score_table(g)
        request = g.pending
        lines = [f"Round {g.round} of {g.last_round}"]
        for p in g.players:
            goods = ", ".join(f"{k} {name}" for name, k in p.goods.items() if k)
            lines.append(f"  {p.name}: {goods or 'nothing'}; score now {g.score(p)['total']}")
        if request is not None:
            lines.append(f"{request.player.name} to answer '{request.kind}': " + "; ".join(
                f"{i}={label}" for i, label in enumerate(request.labels)))
        return "\n".join(lines)

    def close(self):
        self.game = None


class _Encoder:
    """Turns a state view into a fixed-length vector (the layout depends on the pack and player count)."""

    def __init__(self, pack, players: int):
        rules = pack.rules
        self.players = players
        self.goods = list(rules.goods)
        self.crops = list(rules.crops)
        self.materials = list(rules.materials)
        self.spaces = [d.id for d in pack.spaces + pack.round_cards if players in d.players]
        self.majors = list(pack.majors)
        self.cards = sorted(pack.cards)
        self.cells = rules.rows * rules.cols
        names = ["round", "rounds_left", "stage", "work_phase", "harvest_this_round", "hidden_round_cards"]
        names += [f"kind:{k}" for k in KINDS] + ["my_request", "options"]
        for sid in self.spaces:
            names += [f"space:{sid}:{w}" for w in ("in_play", "round", "mine", "others")]
            names += [f"space:{sid}:{g}" for g in self.goods]
        names += [f"supply:{m}" for m in self.majors]
        self.tiles = [t["id"] for t in rules.pasture_tiles]   # a farm of tiles: the shared supply, laid tiles
        names += [f"tiles_left:{t}" for t in self.tiles]
        for k in range(players):
            who = "me" if k == 0 else f"next{k}"
            names += [f"{who}:{w}" for w in ("start_player", "rooms", "fences", "fences_left", "stables_left",
                                             "people", "newborns", "at_home", "begging", "bonus", "score",
                                             "hand_occupations", "hand_minors")]
            names += [f"{who}:house:{m}" for m in self.materials]
            names += [f"{who}:{g}" for g in self.goods]
            for c in range(self.cells):
                names += [f"{who}:cell{c}:{kind}" for kind in CELL_KINDS]
                names += [f"{who}:cell{c}:{w}" for w in self.crops + ["count", "stable"]]
            names += [f"{who}:tiles:{t}" for t in self.tiles]
            names += [f"{who}:major:{m}" for m in self.majors]
            names += [f"{who}:card:{c}" for c in self.cards]
        names += [f"hand:{c}" for c in self.cards]
        self.names = names
        self.size = len(names)
        self.space_index = {sid: i for i, sid in enumerate(self.spaces)}
        self.card_index = {c: i for i, c in enumerate(self.cards)}
        self.major_index = {m: i for i, m in enumerate(self.majors)}

    def encode(self, view: dict, seat: int) -> np.ndarray:
        out: list[float] = [view["round"], view["last_round"] - view["round"], view["stage"] or 0,
                            float(view["work_phase"]), float(view["round"] in view["harvest_rounds"]),
                            view["hidden_round_cards"]]
        pending = view["pending"]
        if pending is not None and pending["kind"] not in KINDS:
            raise ValueError(f"a '{pending['kind']}' request is not one of the request kinds of runtime/requests.py")
        out += [float(pending is not None and pending["kind"] == k) for k in KINDS]
        mine = pending is not None and pending["seat"] == seat
        out += [float(mine), float(len(pending["options"])) if mine else 0.0]
        me = view["players"][seat]["name"]
        board = {b["id"]: b for b in view["board"]}
        for sid in self.spaces:
            b = board.get(sid)
            if b is None:
                out += [0.0] * (4 + len(self.goods))
                continue
            out += [1.0, float(b["round"] or 0), float(me in b["occupants"]),
                    float(sum(o != me for o in b["occupants"]))]
            out += [float(b["goods"].get(g, 0)) for g in self.goods]
        supply = {m["id"] for m in view["major_supply"]}
        out += [float(m in supply) for m in self.majors]
        tiles_left = view.get("tile_supply") or {}
        out += [float(tiles_left.get(t, 0)) for t in self.tiles]
        for k in range(self.players):
            p = view["players"][(seat + k) % self.players]
            out += [float(p["start_player"]), p["rooms"], p["fences"], p["fences_left"], p["stables_left"],
                    p["people"], p["newborns"], p["at_home"], p["begging"], p["bonus"], p["score"]["total"],
                    p["hand_size"]["occupations"], p["hand_size"]["minors"]]
            out += [float(p["house"] == m) for m in self.materials]
            out += [float(p["goods"].get(g, p["animals"].get(g, 0))) for g in self.goods]
            for cell in p["farmyard"]["cells"]:
                out += [float(cell["kind"] == kind) for kind in CELL_KINDS]
                out += [float(cell["crop"] == crop) for crop in self.crops]
                out += [cell["count"], float(cell["stable"])]
            laid = [pasture.get("tile") for pasture in p["pastures"]]
            out += [float(laid.count(t)) for t in self.tiles]
            owned = [0.0] * len(self.majors)
            for m in p["cards"]["majors"]:
                owned[self.major_index[m]] = 1.0
            played = [0.0] * len(self.cards)
            for c in p["cards"]["minors"] + p["cards"]["occupations"]:
                if c in self.card_index:
                    played[self.card_index[c]] = 1.0
                else:   # a major that is a minor for its player ('<major> is a minor for you') lies among the minors
                    owned[self.major_index[c]] = 1.0
            out += owned + played
        hand = [0.0] * len(self.cards)
        own = view["players"][seat]["hand"] or {"occupations": [], "minors": []}
        for c in own["occupations"] + own["minors"]:
            hand[self.card_index[c]] = 1.0
        out += hand
        vector = np.asarray(out, dtype=np.float32)
        return np.clip(vector, -LIMIT, LIMIT, out=vector)


def env(pack, **kwargs) -> AgricolaEnv:
    """The environment (PettingZoo's naming convention: ``env(...)``)."""
    return AgricolaEnv(pack, **kwargs)
