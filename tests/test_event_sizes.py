"""runtime/queries.EVENT_SIZES says which events hand their listeners a size (``event_size``); the
compiler accepts ``event_size`` only after those. Here random games check the table against what the
runtime really emits: every event in the table carries a whole number, every other event none. The verbs
hand their payload to ``primitives.after_event``, which emits only when a card listens, so the test
records there (in every module of runtime/primitives/ that calls it)."""
from __future__ import annotations

import sys

import pytest

from runtime import queries as Q
from runtime.agents import RandomAgent
from runtime.engine import Game


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.python_sources  # replaces primitives.after_event
def test_events_carry_a_size_exactly_when_the_table_says(revised, seed, monkeypatch):
    from runtime import primitives as P
    n = 2 + seed % 3
    g = Game(revised, n, seed=seed, agents=[RandomAgent(f"sizes:{seed}:{i}") for i in range(n)])
    seen: dict = {}
    after = P.after_event

    def recording(g, p, event, data=None, **payload):
        seen.setdefault(event, set()).add(isinstance(data, int) and not isinstance(data, bool))
        return after(g, p, event, data, **payload)

    # every module of runtime/primitives/ that calls it holds its own name for it (and generated code calls P.after_event)
    for module in [P] + [m for name, m in sorted(sys.modules.items()) if name.startswith("runtime.primitives.")]:
        if getattr(module, "after_event", None) is after:
            monkeypatch.setattr(module, "after_event", recording)
    g.play()
    assert len(seen) >= 8, sorted(seen)  # random games reach most events
    wrong = {event: kinds for event, kinds in seen.items() if kinds != {event in Q.EVENT_SIZES}}
    assert not wrong, wrong
