"""The game loop: set-up, rounds, work phase, returning home, harvest, scoring.

The round structure comes from the pack's data (rounds, stages, harvest rounds, feeding, start goods);
every decision is a request with an enumerable list of options answered by the player's agent.
Same pack, seed and answers give the same game in any process.
"""
from __future__ import annotations

import random

from . import primitives as P
from .state import Ctx, Player, Space


class IllegalDecision(Exception):
    """An agent answered with something that is not one of the legal options."""


class Game:
    def __init__(self, pack, nplayers: int, seed: int = 0, agents=None, log: bool = False):
        rules = pack.rules
        if not rules.min_players <= nplayers <= rules.max_players:
            raise ValueError(f"pack '{pack.id}' is for {rules.min_players} to {rules.max_players} players, not {nplayers}")
        self.pack = pack
        self.rules = rules
        self.nplayers = nplayers
        self.seed = seed
        self.rng = random.Random(f"agricola:{seed}")
        self.players = [Player(i, rules) for i in range(nplayers)]
        self.agents = list(agents) if agents is not None else []
        self.log = [] if log else None
        self.round = 0
        self.last_round = rules.last_round
        self.start_player = 0
        self.spaces: list[Space] = []
        self.space_by_id: dict[str, Space] = {}
        self.schedule: dict[int, list] = {}
        self.listeners: dict[str, list] = {}
        self.latches: list = []     # (owner, condition, handler, card id): 'once …' rules not yet fired
        self.animal_set = frozenset(rules.animals)
        self.building_set = frozenset(rules.building)
        self.in_work_phase = False
        self.decisions = 0
        self.turn_no = self.action_no = self.harvest_no = 0  # periods of rule limits (runtime/firing.py)
        self.record = None          # list of (player, kind, option) when recording
        self.after_decision = None  # callback(game) after every recorded decision (saving)
        self.on_step = None         # callback(game) before every decision (invariant checks)
        self.major_supply = list(pack.majors)
        self.major_order = {cid: i for i, cid in enumerate(pack.majors)}
        self.round_order: list[str] = []
        self.finished = False
        self.scores = None
        self._base_exchanges = [ex + (None, f"base:{i}") for i, ex in enumerate(rules.exchanges)]
        self._setup()

    # ------------------------------------------------------------------ helpers
    def clone(self, agents=None) -> "Game":
        """An independent copy of the game state (for lookahead); the pack and handlers are shared."""
        g = Game.__new__(Game)
        g.__dict__.update(self.__dict__)
        g.rng = random.Random()
        g.rng.setstate(self.rng.getstate())
        g.players = [p.clone() for p in self.players]
        g.spaces = [s.clone() for s in self.spaces]
        g.space_by_id = {s.id: s for s in g.spaces}
        g.schedule = {r: list(v) for r, v in self.schedule.items()}
        g.listeners = {k: list(v) for k, v in self.listeners.items()}
        g.latches = list(self.latches)
        g.major_supply = list(self.major_supply)
        g.agents = list(agents) if agents is not None else list(self.agents)
        g.log = None
        g.record = None
        g.after_decision = None
        g.on_step = None
        g.scores = None
        return g

    def card(self, cid):
        return self.pack.all_cards[cid]

    def say(self, text: str) -> None:
        if self.log is not None:
            self.log.append("    " + text)

    def decide(self, p, kind, options, labels=None, prompt=None):
        """Ask ``p``'s agent to pick one of ``options`` (a single option is taken without asking)."""
        n = len(options)
        if n == 1:
            agent = self.agents[p.idx] if self.agents else None
            if agent is not None and getattr(agent, "sees_forced", False):
                agent.forced(self, p, kind, options[0], labels[0] if labels else None)
            return options[0]
        if n == 0:
            raise RuntimeError(f"no legal option for a '{kind}' decision")
        if self.on_step is not None:
            self.on_step(self)
        agent = self.agents[p.idx]
        choice = agent.choose(self, p, kind, options, labels, prompt)
        if not getattr(agent, "trusted", False) and not any(
                choice == o and type(choice) is type(o) for o in options):  # True is not the option 1
            raise IllegalDecision(f"{choice!r} is not a legal option for '{kind}'")
        self.decisions += 1
        if self.record is not None:
            self.record.append((p.idx, kind, choice))
            if self.after_decision is not None:
                self.after_decision(self)
        return choice

    def emit(self, key: str, actor, ctx=None):
        """Run the listeners of an event. Listeners added while it runs (a card played by another
        listener) run too. A listener that could do nothing (it returns None) gets one more chance
        after the others, so that goods one card gives can pay for what another card offers."""
        hooks = self.listeners.get(key)
        if not hooks:
            return
        c = ctx or Ctx(actor=actor)
        retry = []
        fired = False
        i = 0
        while i < len(hooks):
            owner, handler, who = hooks[i]
            i += 1
            if who == "you" and owner != actor.idx:
                continue
            if who == "other" and owner == actor.idx:
                continue
            result = handler(self, self.players[owner], c)
            if result is None:
                retry.append((owner, handler))
            else:
                fired = True
        if retry and fired and len(retry) < len(hooks):
            for owner, handler in retry:
                handler(self, self.players[owner], c)

    def exchanges_of(self, p):
        return self._base_exchanges + p.exchanges

    # ------------------------------------------------------------------ cards in play
    def acquire_card(self, p, card):
        """Put a card's lasting effects into play for ``p`` and run its on-play effects."""
        self.install_card(p, card)
        self.run_on_play(p, card)
        self.check_latches()

    def check_latches(self):
        """Fire every 'once <condition>' rule whose condition now holds (each fires at most once)."""
        if not self.latches:
            return
        for entry in list(self.latches):
            owner, cond, handler, cid = entry
            p = self.players[owner]
            if entry in self.latches and cond(self, p):
                self.latches.remove(entry)
                handler(self, p, Ctx(actor=p))

    def install_card(self, p, card):
        """Put a card's lasting effects (exchanges, bake rates, listeners, modifiers) into play for ``p``."""
        for give, get, window, at_most in card.exchanges:
            p.exchanges.append((give, get, window, at_most, card.id, f"x:{card.id}:{len(p.exchanges)}"))
        for give, get, at_most in card.bake:
            p.bake_rates.append((give, get, at_most, card.id))
        for key, handler, who in card.listeners:
            self.listeners.setdefault(key, []).append((p.idx, handler, who))
        for apply in card.modifiers:
            apply(self, p, card)
        for cond, handler in card.latches:
            self.latches.append((p.idx, cond, handler, card.id))
        for window, can, do, label in card.actions:
            p.actions.append((window, can, do, label, card.id))
        p.turn_abilities = bool(p.actions) or any(
            e[2] == "any_time" and (e[1] == "pile" or not any(g == "food" for g, n in e[1])) for e in p.exchanges)

    def run_on_play(self, p, card):
        for handler in card.on_play:
            handler(self, p, Ctx(actor=p, card=card))

    def release_card(self, p, cid):
        """Take a returned card's lasting effects out of play (an upgraded improvement)."""
        p.exchanges = [e for e in p.exchanges if e[4] != cid]
        p.bake_rates = [b for b in p.bake_rates if b[3] != cid]
        p.actions = [a for a in p.actions if a[4] != cid]
        p.turn_abilities = bool(p.actions) or any(
            e[2] == "any_time" and (e[1] == "pile" or not any(g == "food" for g, n in e[1])) for e in p.exchanges)
        card = self.card(cid)
        for key, handler, who in card.listeners:
            hooks = self.listeners.get(key, [])
            for i, h in enumerate(hooks):
                if h[0] == p.idx and h[1] is handler:
                    del hooks[i]
                    break

    # ------------------------------------------------------------------ set-up
    def _setup(self):
        pack, n = self.pack, self.nplayers
        for d in pack.spaces:
            if n in d.players and d.stage is None:
                self._add_space(d)
        by_stage: dict = {}
        for d in pack.round_cards:
            if n in d.players:
                by_stage.setdefault(d.stage, []).append(d.id)
        order = []
        for stage in sorted(by_stage):
            ids = by_stage[stage]
            self.rng.shuffle(ids)
            order.extend(ids)
        self.round_order = order
        self.start_player = self.rng.randrange(n)
        first_fn, others_fn = self.rules.start_goods
        for p in self.players:
            fn = first_fn if p.idx == self.start_player else others_fn
            for good, k in fn(self, p):
                p.goods[good] += k
        self._deal()

    def _deal(self):
        hand = self.rules.hand
        if not hand:
            return
        occs = sorted(cid for cid, c in self.pack.cards.items()
                      if c.kind == "occupation" and (c.players or 1) <= self.nplayers)
        minors = sorted(cid for cid, c in self.pack.cards.items() if c.kind == "minor")
        self.rng.shuffle(occs)
        self.rng.shuffle(minors)
        for p in self.players:
            k = hand.get("occupations", 0)
            p.hand_occupations = occs[:k]
            occs = occs[k:]
            k = hand.get("minors", 0)
            p.hand_minors = minors[:k]
            minors = minors[k:]

    @staticmethod
    def mark_round_space(space, r):
        """A round card lies on round space ``r``: it is revealed then and carries the tag ``round_<r>``
        (so that a card can refer to "the action on round space 1")."""
        space.round_revealed = r
        space.tags = tuple(space.tags) + (f"round_{r}",)

    def _add_space(self, d):
        s = Space(d, self.nplayers)
        self.spaces.append(s)
        self.space_by_id[s.id] = s
        return s

    # ------------------------------------------------------------------ the game
    def play(self):
        """Play the whole game; returns the score table."""
        while self.round < self.last_round:
            self.play_round()
        return self.finish()

    def play_round(self):
        self.start_round()
        self.work_phase()
        self.returning_home()
        if self.round in self.rules.harvest_rounds:
            self.harvest()
        self.end_round()

    def start_round(self):
        """The preparation phase: next round, its card revealed, scheduled goods collected,
        round-start abilities, accumulation spaces refilled."""
        self.round += 1
        self.turn_no += 1
        self.action_no += 1
        r = self.round
        if self.log is not None:
            self.log.append(f"Round {r}")
        if r - 1 < len(self.round_order):
            d = self.pack.space_defs[self.round_order[r - 1]]
            if d.id not in self.space_by_id:
                s = self._add_space(d)
                self.mark_round_space(s, r)
                if self.log is not None:
                    self.say(f"new action space: {d.name}")
        self.collect_scheduled(r)
        self.check_latches()
        for p in self.turn_order():
            self.emit("phase:round_start", p)
        for s in self.spaces:
            if s.accumulate:
                goods = s.goods
                for good, k in s.accumulate:
                    goods[good] = goods.get(good, 0) + k

    def end_round(self):
        """After returning home (and the harvest): newborns grow up, round tallies reset."""
        for p in self.players:
            p.newborns = 0
            p.stats["building_gained"] = 0

    def collect_scheduled(self, r):
        """Players take what lies for them on this round's space (goods, or an action to take)."""
        for pi, items in self.schedule.pop(r, ()):
            p = self.players[pi]
            if isinstance(items, P.ScheduledAction):
                if items.can(self, p, None):
                    items.do(self, p, Ctx(actor=p))
            else:
                P.gain(self, p, items)

    def turn_order(self):
        n = self.nplayers
        return [self.players[(self.start_player + i) % n] for i in range(n)]

    def work_phase(self):
        self.in_work_phase = True
        order = self.turn_order()
        for p in self.players:
            p.home = p.people - p.newborns
            p.stats["building_gained"] = 0
        while True:
            placed = False
            for p in order:
                if p.home > 0:
                    self.place(p)
                    placed = True
            if not placed:
                break
        self.in_work_phase = False

    def legal_spaces(self, p, only=None):
        shared = p.mods.get("use_occupied") if p.mods else None
        out = []
        for s in self.spaces:
            if only is not None and not self._matches(s, only):
                continue
            if s.occupants:
                if not shared or len(s.occupants) != 1 or s.occupants[0] == p.idx or not self._matches(s, shared):
                    continue
            if s.can(self, p, None):
                out.append(s.id)
        return out

    @staticmethod
    def _matches(space, keys) -> bool:
        for k in keys:
            if k == space.id or (k[0] == "#" and k[1:] in space.tags):
                return True
        return False

    def place(self, p):
        self.turn_no += 1
        if p.turn_abilities:
            self.any_time(p)
        opts = self.legal_spaces(p)
        p.home -= 1
        if not opts:
            self.say(f"{p.name} has no action space to use; the person stays home")
            return
        sid = self.decide(p, "place", opts)
        space = self.space_by_id[sid]
        self.use_space(p, space)
        double = p.mods.get("double_placement") if p.mods else None
        if double and p.home > 0:
            only = None if self._matches(space, double) else double
            opts = self.legal_spaces(p, only)
            if opts and P.may(self, p, "place another person now"):
                p.home -= 1
                self.use_space(p, self.space_by_id[self.decide(p, "place", opts)])

    def any_time(self, p):
        """Before a placement, the player may use any-time abilities (see primitives.turn_options)."""
        while True:
            opts = P.turn_options(self, p)
            if not opts:
                return
            pick = self.decide(p, "any_time", ["place"] + opts)
            if pick == "place":
                return
            kind, i = pick
            self.action_no += 1
            if kind == "x":
                P.use_exchange(self, p, i)
            else:
                window, can, do, label, source = p.actions[i]
                do(self, p, Ctx(actor=p))

    def use_space(self, p, s):
        self.action_no += 1
        s.occupants.append(p.idx)
        if self.log is not None:
            taken = ", ".join(f"{k} {g}" for g, k in s.goods.items() if k)
            self.log.append(f"  {p.name} → {s.name}" + (f" (takes {taken})" if taken else ""))
        ctx = Ctx(space=s, actor=p)
        tags = s.tags
        self.emit("before_use:" + s.id, p, ctx)
        for t in tags:
            self.emit("before_use:#" + t, p, ctx)
        if s.goods:
            items = tuple((g, k) for g, k in s.goods.items() if k)
            s.goods.clear()
            if items:
                gained_log, self.log = self.log, None
                P.gain(self, p, items, ctx)
                self.log = gained_log
        if s.use is not None:
            s.use(self, p, ctx)
        self.emit("use:" + s.id, p, ctx)
        for t in tags:
            self.emit("use:#" + t, p, ctx)
        self.emit("turn_end:" + s.id, p, ctx)
        for t in tags:
            self.emit("turn_end:#" + t, p, ctx)
        self.check_latches()

    def returning_home(self):
        for p in self.turn_order():
            self.emit("phase:returning_home", p)
        for s in self.spaces:
            s.occupants.clear()
        self.emit_round_end()

    def emit_round_end(self):
        key = f"phase:end_of_round:{self.round}"
        if key in self.listeners:
            for p in self.turn_order():
                self.emit(key, p)

    # ------------------------------------------------------------------ harvest
    def harvest(self):
        if self.log is not None:
            self.log.append(f"  Harvest after round {self.round}")
        order = self.turn_order()
        self.harvest_no += 1
        self.turn_no += 1
        self.action_no += 1
        for p in order:
            for key in [k for k in p.used if k.startswith("x:")]:
                del p.used[key]
            self.emit("phase:harvest_start", p)
        for p in order:
            self.emit("phase:field_phase_start", p)
            taken = {}
            for cell in sorted(p.fields):
                f = p.fields[cell]
                if f[1] > 0:
                    f[1] -= 1
                    taken[f[0]] = taken.get(f[0], 0) + 1
                    if f[1] == 0:
                        f[0] = None
            if taken:
                P.gain(self, p, tuple(taken.items()))
            self.emit("phase:field_phase", p)
        for p in order:
            self.emit("phase:feeding", p)
            self.feed(p)
        for p in order:
            self.emit("phase:breeding", p)
            P.breed(self, p)
        for p in order:
            self.emit("phase:harvest_end", p)

    def feeding_need(self, p) -> int:
        per_person, per_newborn = self.rules.feeding
        adult = sum(k for g, k in per_person(self, p) if g == "food")
        baby = sum(k for g, k in per_newborn(self, p) if g == "food")
        return adult * (p.people - p.newborns) + baby * p.newborns

    def feed(self, p):
        """Feeding: the player may convert goods first (any food exchange while short; the harvest's
        once-per-harvest exchanges even when fed), then pays; each missing food is a begging card."""
        need = self.feeding_need(p)
        goods = p.goods
        while True:
            opts = P.feeding_options(self, p)
            if goods["food"] >= need:
                exchanges = self.exchanges_of(p)
                opts = [i for i in opts if exchanges[i][2] == "harvest"]
            if not opts:
                break
            choice = self.decide(p, "feed", ["pay"] + opts)
            if choice == "pay":
                break
            P.use_exchange(self, p, choice)
        paid = min(goods["food"], need)
        goods["food"] -= paid
        short = need - paid
        if short:
            p.begging += short
            self.say(f"{p.name} is {short} food short and takes {short} begging card(s)")
        elif self.log is not None:
            self.say(f"{p.name} feeds the family ({need} food)")

    # ------------------------------------------------------------------ scoring
    def finish(self):
        for p in self.turn_order():
            self.emit("phase:scoring", p)
        self.scores = [self.score(p) for p in self.players]
        self.finished = True
        return self.scores

    def score(self, p) -> dict:
        cats = {}
        for cid, label, fn in self.rules.scoring:
            cats[cid] = fn(self, p)
        total = sum(cats.values())
        return {"player": p.name, "total": total, "categories": cats, "tie_break": self.rules.tie_break(self, p)}

    def ranking(self):
        scores = self.scores or [self.score(p) for p in self.players]
        return sorted(range(self.nplayers), key=lambda i: (-scores[i]["total"], -scores[i]["tie_break"], i))
