"""Agents answer decision requests: each request is a kind and a list of legal options."""
from __future__ import annotations

import random


class RandomAgent:
    """Picks uniformly among the legal options, from its own seeded generator."""

    trusted = True

    def __init__(self, seed=0):
        self.rng = random.Random(f"random-agent:{seed}")
        self.spec = {"kind": "random", "seed": seed}  # how a save file names it

    def choose(self, game, player, kind, options, labels=None, prompt=None):
        return options[int(self.rng.random() * len(options))]


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

def heuristic(game, player) -> float:
    """How good ``player``'s position is (the GreedyAgent maximises it one placement ahead).

    The pack's own score of the farm as if the game ended now, plus small values for goods that will
    become points or food later and for cards in play (more while many rounds are left), minus 2 per
    food the family would lack at the next harvest.
    """
    total = 0
    for cid, label, fn in game.rules.scoring:
        total += fn(game, player)
    goods = player.goods
    value = total + 0.4 * goods["food"] + 0.3 * (goods["grain"] + goods["vegetable"])
    value += 0.15 * sum(goods[g] for g in game.rules.building)
    # cards in play keep paying off; worth more the more rounds are left
    value += (len(player.occupations) + len(player.minors)) * 0.15 * (game.last_round - game.round)
    upcoming = [r for r in sorted(game.rules.harvest_rounds) if r >= game.round]
    if upcoming:
        need = game.feeding_need(player)
        reserve = goods["food"] + goods["grain"] + goods["vegetable"]
        for give, get, window, at_most, source, key in game.exchanges_of(player):
            if window == "any_time" and len(give) == 1 and give[0][0] in game.rules.animals and get[0][0] == "food":
                reserve += min(goods[give[0][0]], 2) * get[0][1]
        value -= 2.0 * max(0, need - reserve)
    return value


class RuleAgent:
    """Answers every request by a fixed rule of thumb (used inside the GreedyAgent's lookahead).

    Rules: build and do as much as possible (never 'stop' while something is left to do), take the
    biggest sow/bake/keep options, feed with the exchange that yields most food, say yes to optional
    effects, buy the improvement worth most points (a cooking improvement first when the player has none).
    """

    trusted = True

    def choose(self, game, player, kind, options, labels=None, prompt=None):
        if kind == "may":
            return "yes"
        if kind in ("next", "room", "stable", "plow", "choose", "minor", "occupation", "renovate", "breed", "pay",
                    "move_crop"):
            real = [o for o in options if o != "stop"]
            return real[0] if real else options[0]
        if kind == "fence":
            real = [o for o in options if o != "stop"]
            if not real:
                return "stop"
            if "stop" in options and player.goods.get("wood", 0) < 4:
                return "stop"
            return max(real, key=lambda o: (o[1].bit_count() * 2 - o[0], -o[1]))
        if kind == "sow":
            return max(options, key=lambda o: (o[0] * 3 + o[1] * 2, o[1]))
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
    RuleAgent answering the follow-up requests) and take the space that raises ``heuristic`` most.
    Every other request is answered by the RuleAgent's rules."""

    trusted = True

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
