"""The agent of random games (runtime.agents.RandomAgent): in its own module so that make native compiles it
with the runtime (agents.py stays Python); a random game asks it about a hundred times."""
from __future__ import annotations

import random

from mypy_extensions import mypyc_attr


@mypyc_attr(native_class=False)  # (tests and tools derive their own agents from it, with attributes of their own)
class RandomAgent:
    """Picks uniformly among the legal options, from its own seeded generator."""

    trusted = True
    sees_forced = False   # (an attribute the engine finds at once: getattr's default costs an exception)

    def __init__(self, seed=0):
        self.rng = random.Random(f"random-agent:{seed}")
        self.spec = {"kind": "random", "seed": seed}  # how a save file names it

    def choose(self, game, player, kind, options, labels=None, prompt=None):
        return options[int(self.rng.random() * len(options))]
