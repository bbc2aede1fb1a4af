"""The game's phases: rounds, the work phase (placing people, using spaces), returning home, the harvest with its
feeding, and the final scoring and ranking.

A part of ``runtime.engine.Game``, chained on ``runtime.gamefields.GameFields`` (the fields)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from mypy_extensions import mypyc_attr

if TYPE_CHECKING:  # (a cycle at run time: the engine imports this module)
    from .engine import Game

from . import primitives as P, gamelog, given_setup, pregame
from .events import CardsInPlay
from .state import Ctx, Player, Space
from .words import plural
from .decisions import NoAgent


HARVEST = frozenset(("harvest",))
FEEDING = frozenset(("harvest", "feeding"))

_SPACE_EVENTS: dict = {}  # space id -> {its tags: the names of the events of using it}, strings built once


@mypyc_attr(allow_interpreted_subclasses=True)
class Phases(CardsInPlay):
    def _loop(self, *_) -> None:
        """The whole game from where it stands: the given cards, the pre-game, the rounds and the scoring
        (``Decisions.run`` runs it, held open or not)."""
        if self.round == 0 and given_setup.has_cards(self.setup) and not self.given_played:
            given_setup.play_given_cards(self)
            self.given_played = True
        if self.round == 0 and self.rules.pregame and not self.pregame_done:
            pregame.run(self)
            self.pregame_done = True
        while self.round < self.last_round:
            self.play_round()
        self.finish()

    def play(self):
        """Play the game to its end with its agents; returns the score table. A seat without an agent
        raises NoAgent at its first request (the game stays held open there)."""
        request = self.run()
        if request is not None:
            raise NoAgent(f"{request.player.name} has no agent to answer a '{request.kind}' request; "
                          "answer it with answer() (docs/api.md), or give every seat an agent")
        return self.scores

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
            self.mark_newest(self.space_by_id[d.id])
        self.collect_scheduled(r)
        self.check_latches()
        for p in self.turn_order():
            self.emit("phase:round_start", p)
        for s in self.spaces:
            if s.accumulate:
                goods = self.own_space(s).goods
                refill: tuple[tuple[str, int], ...] = s.accumulate   # (typed: read pair by pair, compiled)
                for good, k in refill:
                    goods[good] = goods.get(good, 0) + k

    def end_round(self):
        """After returning home (and the harvest): newborns grow up, round tallies reset."""
        for p in self.players:
            p.newborns = 0
            p.stats["building_gained"] = 0
            for key in P.placements.ROUND_KEYS:
                p.stats.pop(key, None)
            if "group_meal" in p.stats:
                p.stats["group_meal"] = 0

    def collect_scheduled(self, r):
        """Players take what lies for them on this round's space (goods, or an action to take)."""
        for pi, items, source in self.schedule.pop(r, ()):
            p = self.players[pi]
            # what a card scheduled is made with that card (event_via); the rules' own schedules by none
            self.via = self.pack.all_cards.get(source) if source is not None else None
            if isinstance(items, P.ScheduledAction):
                # pieces set aside for it go back to the supply; the action may build those (set_aside(…))
                ctx = Ctx(actor=p, aside=P.release_set_aside(self, p, items)) if items.aside else None
                if items.can(self, p, ctx):
                    ctx = ctx or Ctx(actor=p)
                    if self.log is None:
                        items.do(self, p, ctx)
                    else:
                        gamelog.from_card(self, source, items.do, p, ctx)
            else:
                gamelog.gained(self, p, items, source)    # before the gain: animals that do not fit are told after it
                P.gain(self, p, items, quiet=True)
        self.via = None

    def turn_order(self):
        n = self.nplayers
        return [self.players[(self.start_player + i) % n] for i in range(n)]

    def work_phase(self):
        self.in_work_phase = True
        self.phase = "work_phase"
        order = self.turn_order()
        for p in self.players:
            p.home = P.people_to_place(self, p)
            p.stats["building_gained"] = 0
        if "phase:work_phase_start" in self.listeners:   # before anyone is placed
            for p in order:
                self.emit("phase:work_phase_start", p)
            for p in order:   # a player who places first this round places one person before the others
                if p.stats.get(P.placements.FIRST) == self.round and p.home > 0:
                    self.place(p)
        reverse = self.rules.reverse_passes
        turn = 0
        while True:
            turn += 1
            placed = False
            for p in (order[::-1] if (self.round, turn) in reverse else order):
                if p.home > 0:
                    self.place(p)
                    placed = True
            if not placed:
                break
        self.in_work_phase = False
        self.phase = None

    def legal_spaces(self, p: Player, only=None) -> list:
        shared = p.mods.get("use_occupied") if p.mods else None
        taken = self._groups_taken() if self.grouped else None
        always = P.always  # most spaces can always be used: not called
        fees, early = self.space_fees, self.early_cards
        if only is None and not shared and not taken and not fees and not early:  # the common case, as one comprehension
            return [s.id for s in self.spaces if not s.occupants and (s.can is always or s.can(self, p, None))]
        out = []
        for s in self.spaces:
            if only is not None and not self._matches(s, only):
                continue
            if taken and s.group in taken:
                continue
            if early and s.early is not None and s.early != p.idx and self.round < (s.round_revealed or 0):
                continue   # a round card revealed early for another player: not before its round
            if s.occupants:
                if not shared or len(s.occupants) != 1 or s.occupants[0] == p.idx or not self._matches(s, shared):
                    continue
            can = s.can
            if (can is always or can(self, p, None)) and (not fees or P.can_pay_space_fees(self, p, s)):
                out.append(s.id)
        return out

    def _groups_taken(self):
        """The space groups somebody has used this round: a group takes one person a round."""
        taken = None
        for s in self.spaces:
            if s.group is not None and s.occupants:
                if taken is None:
                    taken = set()
                taken.add(s.group)
        return taken

    @staticmethod
    def _matches(space: Space, keys) -> bool:
        for k in keys:
            if k == space.id or (k[0] == "#" and k[1:] in space.tags):
                return True
        return False

    def place(self, p: Player):
        self.turn_no += 1
        if p.turn_abilities:
            self.any_time(p)
        if self.display and pregame.take_from_display(self, p):
            p.home -= 1   # a card of the open display taken instead of placing a person
            if p.home <= 0 and p.turn_abilities:
                self.any_time(p, P.STOP)
            return
        opts = self.legal_spaces(p)
        p.home -= 1
        if not opts:
            self.say(f"{p.name} has no action space to use; the person stays home")
            if p.home <= 0 and p.turn_abilities:
                self.any_time(p, P.STOP)
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
        if p.home <= 0 and p.turn_abilities:
            self.any_time(p, P.STOP)  # after the player's last placement of the round

    def any_time(self, p: Player, stop="place"):
        """A window in which the player may use abilities (primitives.window_options) before going on:
        before each placement (``stop`` is "place"), after the last one, after breeding, before scoring.
        What the player converts in it is converted at one time (docs/language.md 4.1.5)."""
        opened = P.batch_open(self, p)
        while True:
            opts = P.window_options(self, p)
            if not opts:
                break
            pick = self.decide(p, "any_time", [stop] + opts)
            if pick == stop:
                break
            self.action_no += 1
            P.use_window_option(self, p, pick)
        P.batch_close(self, p, opened)

    def use_space(self, p: Player, s: Space):
        self.action_no += 1
        s = self.own_space(s)
        s.writable_occupants().append(p.idx)
        if self.log is not None:
            taken = [] if s.takes_goods else [(g, k) for g, k in s.goods.items() if k]
            self.log.append(f"  {p.name} → {gamelog.space_label(self, s)}" +
                            (f" (takes {gamelog.goods(self, taken)})" if taken else ""))
        ctx = Ctx(space=s, actor=p, before=p.clone() if "use" in self.snapshots else None)
        group = self.rules.feeding_group
        if group is not None and group[0] in s.tags:
            p.stats["group_meal"] = p.stats.get("group_meal", 0) + 1
        before, use, end = _space_events(s)
        listeners = self.listeners  # an event nobody listens to costs one look-up
        outer, self.using = self.using, s.id
        via, self.via = self.via, None   # the space's own action is made by no card (event_via(space))
        if self.space_fees:
            P.pay_space_fees(self, p, s, ctx)
        for key in before:
            if key in listeners:
                self.emit(key, p, ctx)
        if s.goods and not s.takes_goods:   # a space that offers 'take the goods' hands them out then
            items = tuple((g, k) for g, k in s.goods.items() if k)
            s.goods.clear()
            if items:
                ctx.goods = items
                P.gain(self, p, items, ctx, quiet=True, source=s)  # logged above as "(takes …)"
        if s.use is not None:
            s.use(self, p, ctx)
        if self.partners and self.rules.teams["exchange_tag"] in s.tags:
            P.partner_exchange(self, p, ctx)
        for key in use:
            if key in listeners:
                self.emit(key, p, ctx)
        for key in end:
            if key in listeners:
                self.emit(key, p, ctx)
        self.using = outer
        self.via = via
        self.check_latches()

    def returning_home(self):
        if "phase:work_phase_end" in self.listeners:   # every person placed, none home yet
            for p in self.turn_order():
                self.emit("phase:work_phase_end", p)
        for p in self.turn_order():
            self.emit("phase:returning_home", p)
        for s in self.spaces:
            if s.occupants:
                self.own_space(s).writable_occupants().clear()
        self.emit_round_end()

    def emit_round_end(self):
        key = f"phase:end_of_round:{self.round}"
        if key in self.listeners:
            for p in self.turn_order():
                self.emit(key, p)

    def harvest(self):
        if self.log is not None:
            self.log.append(f"  Harvest after round {self.round}")
        self.open_windows = HARVEST
        order = self.turn_order()
        self.harvest_no += 1
        self.turn_no += 1
        self.action_no += 1
        for p in order:
            for key in [k for k in p.used if k.startswith("x:")]:
                del p.used[key]
        skip = [p for p in order if p.card_state.get("skip_harvest")]
        if skip:   # 'skip the next harvest' (docs/language.md 4.14): no part in this one
            for p in skip:
                del p.card_state["skip_harvest"]
                self.say(f"{p.name} takes no part in this harvest")
            order = [p for p in order if p not in skip]
        for p in order:
            self.emit("phase:harvest_start", p)
        self.phase = "field_phase"
        for p in order:
            self.emit("phase:field_phase_start", p)
            P.harvest_fields(self, p)
            self.emit("phase:field_phase", p)
        self.phase = "feeding"
        if "phase:feeding_start" in self.listeners:   # before anyone feeds
            for p in order:
                self.emit("phase:feeding_start", p)
        last = [p for p in order if p.mods and p.mods.get("feed_last")]
        for p in ([p for p in order if p not in last] + last) if last else order:   # 'feed last' (4.14)
            self.emit("phase:feeding", p)
            self.feed(p)
        self.phase = "breeding"
        for p in order:
            self.emit("phase:breeding", p)
            P.breed(self, p)
        self.phase = None
        if self.round < self.last_round:  # after the last harvest, the window before scoring follows
            for p in order:
                if p.turn_abilities:
                    self.any_time(p, P.STOP)  # after breeding
        for p in order:
            self.emit("phase:harvest_end", p)
        self.open_windows = frozenset()

    def feeding_need(self, p: Player) -> int:
        per_person, per_newborn = self.rules.feeding
        adult = sum(k for g, k in per_person(self, p) if g == "food")
        baby = sum(k for g, k in per_newborn(self, p) if g == "food")
        grown = p.people - p.newborns + P.lodgers(p)   # people lodged on cards eat too
        if p.mods and "cost" in p.mods:   # 'cost of feeding', 'cost of newborn feeding' (docs/language.md 4.3)
            base = adult
            adult = _food_price(self, p, ("feeding",), base)
            baby = _food_price(self, p, ("feeding:newborn", "feeding"), baby)
            beyond = _feeding_beyond(p)
            if beyond:   # 'feeding beyond N': the grown people after the first N have those changes too
                need = adult * min(grown, beyond[0])
                for i, n in enumerate(beyond):
                    last = beyond[i + 1] if i + 1 < len(beyond) else grown
                    if grown > n:
                        names = ("feeding",) + tuple(f"feeding:beyond {k}" for k in beyond[:i + 1])
                        need += _food_price(self, p, names, base) * (min(grown, last) - n)
                need += baby * p.newborns
            else:
                need = adult * grown + baby * p.newborns
        else:
            need = adult * grown + baby * p.newborns
        group = self.rules.feeding_group
        if group is not None:
            # every `people` of the player's people who used a space tagged `tag` this round eat `food`
            # together instead of `people` times the food of one
            tag, people, food = group
            groups = min(p.stats.get("group_meal", 0), p.people) // people
            need -= groups * max(0, people * adult - food)
        return max(0, need)

    def feed(self, p: Player):
        """Feeding: the player may use exchanges and abilities first (primitives.feeding_options), then
        pays; each missing food is a begging card."""
        need = self.feeding_need(p)
        goods = p.goods
        windows, self.open_windows = self.open_windows, FEEDING
        opened = P.batch_open(self, p)   # what the player converts before paying: one time (4.1.5)
        while True:
            opts = P.feeding_options(self, p, fed=goods["food"] >= need)
            if not opts:
                break
            choice = self.decide(p, "feed", ["pay"] + opts)
            if choice == "pay":
                break
            if not isinstance(choice, int):
                self.action_no += 1   # an action window (an exchange is no action)
            P.use_window_option(self, p, choice)
        P.batch_close(self, p, opened)   # its rules run before the food is paid: food they give feeds too
        self.open_windows = windows
        paid = min(goods["food"], need)
        goods["food"] -= paid
        short = need - paid
        if short:
            p.begging += short
            self.say(f"{p.name} feeds the family with {paid} of {need} food and takes {plural(short, 'begging card')}")
        elif self.log is not None:
            self.say(f"{p.name} feeds the family ({gamelog.goods(self, ((self.rules.goods[0], need),))})")

    def finish(self):
        for p in self.turn_order():
            if p.turn_abilities:
                self.any_time(p, P.STOP)  # before scoring
        for p in self.turn_order():
            self.emit("phase:scoring", p)
        self.scores = [self.score(p) for p in self.players]
        self.finished = True
        return self.scores

    def score(self, p: Player) -> dict:
        cats = {}
        for cid, label, fn in self.rules.scoring:
            cats[cid] = fn(self, p)
        total = sum(cats.values())
        return {"player": p.name, "total": total, "categories": cats, "tie_break": self.rules.tie_break(self, p)}

    def partner_of(self, p: Player):
        """``p``'s partner in team play, or None."""
        i = self.partners.get(p.idx)
        return None if i is None else self.players[i]

    def team_scores(self, scores=None) -> list:
        """In team play, each team's score: its players, and per scoring category the lower of the
        partners' points (``score: lower``) or their sum; the total and tie-break alike. Empty without teams."""
        teams = self.rules.teams
        if not teams:
            return []
        scores = scores or self.scores or [self.score(p) for p in self.players]
        if len(scores) != len(self.partners):   # one farm scored alone (a farm file): no teams to show
            return []
        combine = min if teams["score"] == "lower" else sum
        out = []
        for pair in teams["pairs"]:
            mine = [scores[i] for i in pair]
            cats = {cid: combine(s["categories"][cid] for s in mine) for cid, _label, _fn in self.rules.scoring}
            out.append({"team": "+".join(s["player"] for s in mine), "seats": list(pair),
                        "categories": cats, "total": sum(cats.values()),
                        "tie_break": combine(s["tie_break"] for s in mine)})
        return out

    def ranking(self):
        scores = self.scores or [self.score(p) for p in self.players]
        teams = self.team_scores(scores) if self.rules.teams else None
        if teams:   # a player ranks with the team: the team's total, then its tie-break
            team = {i: t for t in teams for i in t["seats"]}
            return sorted(range(self.nplayers), key=lambda i: (-team[i]["total"], -team[i]["tie_break"],
                                                                 min(team[i]["seats"]), i))
        return sorted(range(self.nplayers), key=lambda i: (-scores[i]["total"], -scores[i]["tie_break"], i))


SpaceEvents = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]


def _space_events(s: Space) -> SpaceEvents:
    """The events of using space ``s``: before_use, use and turn_end, each for the space and its tags."""
    by_tags = _SPACE_EVENTS.get(s.id)
    if by_tags is None:
        by_tags = _SPACE_EVENTS[s.id] = {}
    found = by_tags.get(s.tags)
    if found is not None:
        events: SpaceEvents = found
        return events
    names = (s.id,) + tuple("#" + t for t in s.tags)
    before, use, end = (tuple(f"{when}:{n}" for n in names) for when in ("before_use", "use", "turn_end"))
    # 'use:*' (any space; first, so that history counters count the use before its rules run) has
    # listeners only in games with a card that counts uses (runtime/history.py)
    events = by_tags[s.tags] = (before, ("use:*",) + use, end)
    return events


def _feeding_beyond(p: Player) -> list:
    """The numbers N of the cost names 'feeding beyond N' the player's cards change, smallest first."""
    out = set()
    for _kind, targets, _data in p.mods["cost"]:
        for t in targets:
            if t.startswith("feeding:beyond "):
                out.add(int(t.split()[1]))
    return sorted(out)


def _food_price(g, p: Player, names, food: int) -> int:  # g: the Game (a Phases' self)
    """The food one person eats, with the cards' changes of the cost names ``names`` applied."""
    options = P.cost_options(g, p, names, ((g.rules.goods[0], food),) if food else ())
    return min(sum(n for _, n in price) for price in options)
