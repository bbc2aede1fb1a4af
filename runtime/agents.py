"""Agents answer decision requests: each request is a kind and a list of legal options."""
from __future__ import annotations

import random


class RandomAgent:
    """Picks uniformly among the legal options, from its own seeded generator."""

    trusted = True

    def __init__(self, seed=0):
        self.rng = random.Random(f"random-agent:{seed}")

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
