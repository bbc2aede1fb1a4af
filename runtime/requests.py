"""A pending decision of a game held open: who must answer, what kind of request, which options.

A game whose seat has no agent stops at that seat's requests (``Game.run``); the caller reads
``game.pending`` and answers it with ``game.answer(index)``. See docs/api.md.
"""
from __future__ import annotations

from .labels import label_of


# Every kind of request the runtime asks, in the order of docs/api.md's table (tests/test_rl.py checks
# that every request the runtime makes is one of them, and that the table lists the same).
KINDS = ("place", "any_time", "may", "next", "choose", "pay", "room", "stable", "plow", "fence",
         "pasture_tile", "move_stable", "renovate", "sow", "bake", "feed", "keep_animals", "breed", "major",
         "minor", "improvement", "occupation", "return", "move_crop", "round_card", "draft", "redraw", "swap", "draw",
         "display", "partner_goods", "amount", "space")


def norm(option):
    """An option as JSON holds it (tuples become lists)."""
    if isinstance(option, (tuple, list)):
        return [norm(x) for x in option]
    return option


class Request:
    """One decision a player must take: ``options`` are the legal answers, in a fixed order."""

    __slots__ = ("game", "player", "kind", "options", "given_labels", "prompt", "number")

    def __init__(self, game, player, kind, options, given_labels=None, prompt=None):
        self.game = game
        self.player = player            # the runtime's Player object
        self.kind = kind                # 'place', 'plow', 'fence', 'may', … (docs/api.md lists them)
        self.options = tuple(options)
        self.given_labels = given_labels
        self.prompt = prompt            # the question of a 'may' request ("use the oven now")
        self.number = game.decisions + 1  # this is the game's n-th decision

    @property
    def seat(self) -> int:
        """The answering player's seat: 0 for P1, 1 for P2, …"""
        return self.player.idx

    @property
    def labels(self) -> list[str]:
        """Readable labels of the options, as scenario files and saved logs spell them."""
        g, p, kind, given = self.game, self.player, self.kind, self.given_labels
        return [label_of(g, p, kind, o, given[i] if given else None) for i, o in enumerate(self.options)]

    def index_of_label(self, label: str) -> int:
        """The index of the option labelled ``label`` (ValueError when no option has it)."""
        labels = self.labels
        want = str(label).strip()
        if want in labels:
            return labels.index(want)
        raise ValueError(f"'{want}' is not an option of this '{self.kind}' request; options: {', '.join(labels)}")

    def to_json(self) -> dict:
        """The request as plain JSON data (keys documented in docs/api.md)."""
        return {"decision": self.number, "seat": self.seat, "player": self.player.name, "kind": self.kind,
                "prompt": self.prompt,
                "options": [{"index": i, "label": lab, "value": norm(o)}
                            for i, (o, lab) in enumerate(zip(self.options, self.labels))]}

    def __repr__(self) -> str:
        return f"<Request {self.number}: {self.player.name} {self.kind} ({len(self.options)} options)>"
