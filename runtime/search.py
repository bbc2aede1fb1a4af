"""A search agent: it plays each promising placement on past the next harvests before it chooses.

At each placement it takes the most promising action spaces by the GreedyAgent's one-step estimate, and
for each one plays on, in a clone of the game (``Game.clone``), through the next ``harvests`` harvests
(or to the game's end): every player's later placements by GreedyAgents (its own too), follow-up
requests by the RuleAgent's rules, the other players' hidden hands sampled again from the cards it has
not seen (it never looks at another player's hand). It takes the space whose end position is best for it
against the best of the others (``heuristic``, or the score difference once the game is over). Every
other request is answered as the GreedyAgent does. ``harvests=0`` values the position at its own next
placement instead (the cheap look of the first version: about 5 times faster, and weaker).
"""
from __future__ import annotations

import random

from .agents import GreedyAgent, RuleAgent, heuristic


class SearchAgent:
    trusted = True
    sees_forced = False

    def __init__(self, seed=0, width: int = 4, samples: int = 1, harvests: int = 2):
        self.rng = random.Random(f"search-agent:{seed}")
        self.width = width          # action spaces looked at past the others' replies
        self.samples = samples      # deals of the hidden hands per action space
        self.harvests = harvests    # harvests played through before the position is valued (0: next placement)
        self.rules = RuleAgent()
        self.greedy = GreedyAgent(seed)
        self.spec = {"kind": "search", "seed": seed}  # how a save file names it

    def choose(self, game, player, kind, options, labels=None, prompt=None):
        if kind != "place" or len(options) == 1:
            return self.rules.choose(game, player, kind, options, labels, prompt)
        candidates = self._candidates(game, player, options)
        if len(candidates) == 1:
            return candidates[0]
        best, best_value = candidates[0], None
        for sid in candidates:
            value = sum(self._look(game, player.idx, options.index(sid)) for _ in range(self.samples))
            if best_value is None or value > best_value:
                best, best_value = sid, value
        return best

    def _candidates(self, game, player, options):
        """The ``width`` action spaces with the best one-step estimate (as the GreedyAgent values them)."""
        inner = [self.rules] * game.nplayers
        scored = []
        for i, sid in enumerate(options):
            trial = game.copy_state(agents=inner)
            me = trial.players[player.idx]
            me.home -= 1
            trial.use_space(me, trial.space_by_id[sid])
            scored.append((-heuristic(trial, me), i, sid))
        scored.sort()
        return [sid for _, _, sid in scored[:self.width]]

    def _look(self, game, seat, index) -> float:
        """Place on option ``index`` in a clone and play on through the next ``harvests`` harvests (with
        ``harvests=0``: to this seat's next placement); the value there."""
        others = [None if i == seat else GreedyAgent(0) for i in range(game.nplayers)]
        trial = game.clone(agents=others)
        self._deal_hidden(trial, seat)
        ahead = sorted(r for r in trial.rules.harvest_rounds if r >= trial.round)
        # the first placement of the round after the last harvest looked at (none left: the game's end)
        stop_round = ahead[self.harvests - 1] + 1 if 0 < self.harvests <= len(ahead) else None
        request = trial.answer(index)
        while request is not None:
            if request.kind == "place":
                if self.harvests == 0 or (stop_round is not None and trial.round >= stop_round):
                    break
                policy: GreedyAgent | RuleAgent = self.greedy
            else:
                policy = self.rules
            choice = policy.choose(trial, request.player, request.kind, request.options, request.given_labels,
                                   request.prompt)
            request = trial.answer(_index(request.options, choice))
        me = trial.players[seat]
        if trial.finished:
            totals = [s["total"] for s in trial.scores]
            return totals[seat] - max(t for i, t in enumerate(totals) if i != seat)
        mine = heuristic(trial, me)
        return mine - max(heuristic(trial, p) for p in trial.players if p.idx != seat)

    def _deal_hidden(self, trial, seat):
        """Give the other players hands drawn from the cards this seat has not seen."""
        others = [p for p in trial.players if p.idx != seat]
        if not any(p.hand_occupations or p.hand_minors for p in others):
            return
        me = trial.players[seat]
        seen = set(me.hand_occupations) | set(me.hand_minors)
        for p in trial.players:
            seen.update(p.occupations)
            seen.update(p.minors)
        occs = [c for c in trial.dealable("occupations") if c not in seen]
        minors = [c for c in trial.dealable("minors") if c not in seen]
        self.rng.shuffle(occs)
        self.rng.shuffle(minors)
        for p in others:
            k = len(p.hand_occupations)
            p.hand_occupations, occs = occs[:k], occs[k:]
            k = len(p.hand_minors)
            p.hand_minors, minors = minors[:k], minors[k:]


def _index(options, choice) -> int:
    for i, o in enumerate(options):
        if o == choice and type(o) is type(choice):
            return i
    raise ValueError(f"{choice!r} is not an option")
