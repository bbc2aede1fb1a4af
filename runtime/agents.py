"""Agents answer decision requests: each request is a kind and a list of legal options."""
from __future__ import annotations

from .random_agent import RandomAgent  # noqa: F401  (compiled with the runtime: see there)


class ScriptedAgent:
    """Answers from a list of option labels (as scenario files write them), in order.

    When the script runs out, or a request has only options the script does not mention, it falls back
    to ``fallback`` (an agent) or fails with a message naming the request.
    """

    trusted = False

    def __init__(self, answers, fallback=None):
        self.answers = list(answers)
        self.fallback = fallback
        self.used = 0

    def choose(self, game, player, kind, options, labels=None, prompt=None):
        from .labels import label_of
        shown = [label_of(game, player, kind, o, labels[i] if labels else None) for i, o in enumerate(options)]
        if self.used < len(self.answers):
            want = str(self.answers[self.used]).strip()
            for o, lab in zip(options, shown):
                if lab == want:
                    self.used += 1
                    return o
            raise ScriptError(f"answer '{want}' is not a legal option for the '{kind}' request; "
                              f"legal: {', '.join(shown)}")
        if self.fallback is not None:
            return self.fallback.choose(game, player, kind, options, labels, prompt)
        raise ScriptError(f"no answer left for the '{kind}' request; legal: {', '.join(shown)}")


class ScriptError(Exception):
    pass


# ---------------------------------------------------------------- greedy play

# How much the GreedyAgent's heuristic values each thing besides the points the farm would score now.
WEIGHTS = {
    "food": 0.25,            # per food in the supply
    "crop": 0.3,             # per grain or vegetable in the supply
    "material": 0.2,         # per building resource (fading out in the last rounds)
    "fade_rounds": 3,        # materials lose their value over the last this-many rounds
    "card": 0.15,            # per card in play and round left
    "person": 0.8,           # per person beyond the start family and round left (one more action each round)
    "free_room": 4.0,        # per empty room while the family may still grow ...
    "free_room_round": 0.2,  # ... and per round left
    "room_material": 1.5,    # for the goods of the next room, in proportion to its price
    "hunger": 3.0,           # per food the family would lack at the next harvest (a begging card is -3)
}


def heuristic(game, player) -> float:
    """How good ``player``'s position is (the GreedyAgent maximises it one placement ahead).

    The pack's own score of the farm as if the game ended now, plus values (WEIGHTS) for what will become
    points, food or actions later: goods, cards in play, people beyond the start family and empty rooms
    (both more while many rounds are left), the goods of the next room; minus a penalty for each food
    the family would lack at the next harvest.
    """
    w = WEIGHTS
    rules = game.rules
    if rules.score_total is not None and not player.mods.get("score"):
        total = rules.score_total(game, player)   # the categories below, added up in one call
    else:
        total = 0
        for cid, label, fn in rules.scoring:
            total += fn(game, player)
    goods = player.goods
    left = game.last_round - game.round
    fade = min(1.0, left / w["fade_rounds"])
    value = total + w["food"] * goods["food"] + w["crop"] * (goods["grain"] + goods.get("vegetable", 0))
    held = 0
    for good in rules.building:
        held += goods[good]
    value += w["material"] * fade * held
    value += (len(player.occupations) + len(player.minors)) * w["card"] * left
    value += (player.people - rules.start_people) * w["person"] * left
    if player.people < rules.max_people:
        free = player.room_count + player.card_rooms - player.people
        if player.mods.get("card_rooms_while"):   # people housed on cards while a condition holds
            from .primitives import card_rooms
            free = player.room_count + card_rooms(game, player) - player.people
        if free > 0:
            value += min(free, rules.max_people - player.people) * (w["free_room"] + w["free_room_round"] * left)
        price: dict[str, int] = {}
        for good, k in rules.room_cost_by_material.get(player.house, rules.room_cost):
            good = player.house if good == "material" else good
            price[good] = price.get(good, 0) + k
        for good, k in price.items():
            value += w["room_material"] * fade * min(goods[good], k) / k
    if rules.harvest_rounds and max(rules.harvest_rounds) >= game.round:   # a harvest is to come
        need = game.feeding_need(player)
        reserve = goods["food"] + goods["grain"] + goods.get("vegetable", 0)
        for give, get, window, at_most, source, key in game.exchanges_of(player):
            if window == "any_time" and len(give) == 1 and give[0][0] in rules.animals and get[0][0] == "food":
                reserve += min(goods[give[0][0]], 2) * get[0][1]
        value -= w["hunger"] * max(0, need - reserve)
    return value


CARD_KINDS = ("occupation", "minor", "improvement", "major")


class RuleAgent:
    """Answers every request by a fixed rule of thumb (used inside the GreedyAgent's lookahead).

    Rules: build and do as much as possible (never 'stop' while something is left to do), take the
    biggest sow/bake/keep options, feed with the exchange that yields most food, say yes to optional
    effects. Which card or improvement to play (``try_cards``): each is played on a copy of the game
    state and the one that raises ``heuristic`` most is taken; without ``try_cards``, the improvement
    worth most points (a cooking improvement first when the player has none) and the first card.
    The answers depend only on the game, never on what the agent saw before.
    """

    trusted = True
    sees_forced = False

    def __init__(self, try_cards=True):
        self.try_cards = try_cards

    def choose(self, game, player, kind, options, labels=None, prompt=None):
        if self.try_cards and kind in CARD_KINDS and len(options) > 1:
            return _best_card(game, player, kind, options)
        if kind == "may":
            return "yes"
        if kind in ("next", "room", "stable", "plow", "choose", "minor", "occupation", "renovate", "breed", "pay",
                    "move_crop"):
            real = [o for o in options if o != "stop"]
            return real[0] if real else options[0]
        if kind == "fence":
            # pastures only: an unfinished fence (where the rules allow them) holds no animals yet
            real = [o for o in options if o != "stop" and o[0] not in ("fence", "partner")]
            if not real:
                return "stop" if "stop" in options else options[0]
            if "stop" in options and player.goods.get("wood", 0) < 4:
                return "stop"
            return max(real, key=lambda o: (o[1].bit_count() * 2 - o[0], -o[1]))
        if kind == "pasture_tile":
            real = [o for o in options if o != "stop"]
            tiles = game.rules.pasture_tile
            return max(real, key=lambda o: (tiles[o[0]]["capacity"], -o[1])) if real else options[0]
        if kind == "sow":
            return max(options, key=lambda o: (o[0] * 3 + o[1] * 2 + (sum(n for _, n in o[2]) if len(o) > 2 else 0), o[1]))
        if kind == "bake":
            from .primitives import _bake_rates
            rates = _bake_rates(player)
            return max(options, key=lambda o: sum(r[1][0][1] * k for r, k in zip(rates, o)))
        if kind == "keep_animals":
            return max(options, key=lambda o: (sum(o), o))
        if kind == "feed":
            # the exchange that yields most food while the family is not fed; once it is, only those
            # that lapse with the harvest
            exchanges = game.exchanges_of(player)
            short = player.goods["food"] < game.feeding_need(player)

            def food_of(o):
                if not isinstance(o, int) or exchanges[o][1] == "pile":
                    return 0
                return sum(n for g, n in exchanges[o][1] if g == "food")
            best = [o for o in options if food_of(o) > 0 and (short or exchanges[o][2] != "any_time")]
            if not best:
                return "pay"
            return max(best, key=food_of)
        if kind in ("major", "improvement"):
            return max(options, key=lambda o: _improvement_value(game, player, o))
        if kind == "any_time":
            return options[0]  # go on ("place" or "stop")
        return options[0]


class _OneAnswer:
    """Answers the first ``kind`` request of ``me`` with ``option`` (if it is legal), the rest by ``rules``."""

    trusted = True
    sees_forced = False

    def __init__(self, rules, me, kind, option):
        self.rules, self.me, self.kind, self.option = rules, me, kind, option

    def choose(self, game, player, kind, options, labels=None, prompt=None):
        if self.option is not None and player.idx == self.me and kind == self.kind:
            pick, self.option = self.option, None
            if any(pick == o and type(pick) is type(o) for o in options):
                return pick
        return self.rules.choose(game, player, kind, options, labels, prompt)


def _best_card(game, player, kind, options):
    """The card or improvement whose playing raises ``heuristic`` most, tried on copies of the state."""
    from . import primitives as P
    plain = RuleAgent(try_cards=False)
    play = {"occupation": lambda g, p: P.play_occupation(g, p, None, ()), "minor": P.play_minor,
            "major": P.build_major, "improvement": P.build_improvement}[kind]
    best, best_value = options[0], None
    for option in options:
        trial = game.copy_state(agents=[_OneAnswer(plain, player.idx, kind, option)] * game.nplayers)
        me = trial.players[player.idx]
        play(trial, me)
        value = heuristic(trial, me)
        if best_value is None or value > best_value:
            best, best_value = option, value
    return best


def _improvement_value(game, player, option) -> float:
    text = str(option)
    if text.startswith("minor:"):
        card = game.card(text[6:])
        return card.points + 0.5
    cid = text.split("<", 1)[0]
    card = game.card(cid)
    animals = game.rules.animals

    def cooks(exchanges):
        return any(window == "any_time" and give and give[0][0] in animals for give, get, window, *_ in exchanges)

    value = card.points
    if cooks(card.exchanges) and not cooks(player.exchanges):
        value += 5  # the first improvement that turns animals into food
    if "<" in text:
        value += 1  # an upgrade costs no clay
    return value


class GreedyAgent:
    """One-step lookahead: for each legal action space, play it out on a copy of the game (with the
    RuleAgent answering the follow-up requests, trying each card a space offers) and take the space that
    raises ``heuristic`` most. Every other request is answered by the RuleAgent's rules."""

    trusted = True
    sees_forced = False

    def __init__(self, seed=0):
        self.rules = RuleAgent()
        self.spec = {"kind": "greedy", "seed": seed}  # how a save file names it

    def choose(self, game, player, kind, options, labels=None, prompt=None):
        if kind != "place":
            return self.rules.choose(game, player, kind, options, labels, prompt)
        before = heuristic(game, player)
        best, best_value = options[0], None
        inner = [self.rules] * game.nplayers
        for sid in options:
            trial = game.copy_state(agents=inner)
            me = trial.players[player.idx]
            me.home -= 1
            trial.use_space(me, trial.space_by_id[sid])
            value = heuristic(trial, me) - before
            if best_value is None or value > best_value:
                best, best_value = sid, value
        return best
