"""A game at the table: seats that are people (held open) and seats played by agents.

The terminal (compiler/terminal.py) and the web playtest server (compiler/web/) both drive a game
through a ``Table``: it holds a game open at each person's request, takes a person's answer, takes back
a person's last decision by replaying the log without it, and saves and restores itself as a save
file (docs/save-format.md). It also says what a request asks, in words (``explain``), and labels the
options for people (``readable_labels``: a space's name with its goods, a card's name).
"""
from __future__ import annotations

from runtime.engine import Game
from runtime.requests import norm
from runtime.savegame import Recorder, make_agent, restore
from runtime.words import goods_words

HUMAN = "human"

# What each kind of request asks (docs/api.md, "Requests"), for the '?' of the terminal and the web page.
EXPLANATIONS = {
    "place": "Place one of your people on an action space: its effect happens now. A space holds one "
             "person per round; the goods on it are what you take.",
    "any_time": "Before you go on, you may use an exchange (cook, bake, convert goods) or a card's action; "
                "'place' goes on to placing a person, 'stop' ends this window.",
    "may": "An optional effect: answer yes to take it, no to leave it.",
    "next": "The parts of an 'and/or' effect: take them one after the other in any order, or stop.",
    "choose": "An 'or' effect: take one of its parts.",
    "pay": "How to pay the price: some ways use exchanges first (for instance cooking goods into food).",
    "room": "Where to build the new room: a farmyard space next to your house.",
    "stable": "Where to build the stable: an empty farmyard space or a space of a pasture.",
    "plow": "Which farmyard space to plow into a field (next to your fields, when you have some).",
    "fence": "A pasture to fence in (the fences it costs are paid in wood), the division of a pasture, or "
             "'stop' to end fencing.",
    "pasture_tile": "A pasture tile to lay (its printed cost is paid; it goes next to a tile of your farm), "
                    "or 'stop' to end laying tiles.",
    "move_stable": "A stable of yours stands on no pasture: move it onto the new pasture tile, or 'no'.",
    "renovate": "The material to renovate your house to.",
    "sow": "How many grain and vegetable fields to sow (a sown field holds its crop until the harvests take it).",
    "bake": "How much grain to bake into food with each baking improvement.",
    "feed": "Feeding your family at the harvest: 'pay' feeds now (food you lack becomes begging cards); "
            "an exchange first turns goods into food.",
    "keep_animals": "Not all your animals fit on your farm: which animals to keep (the others are cooked "
                    "if you can, or lost).",
    "breed": "Which newborn animals to keep, when not all of them fit.",
    "major": "A major improvement to take (an upgrade returns the improvement named after it).",
    "minor": "A minor improvement from your hand to play.",
    "improvement": "An improvement to take: a major one, or a minor one from your hand.",
    "occupation": "An occupation from your hand to play.",
    "move_crop": "Which field's crop to move, and where.",
    "round_card": "Before the game: the round card to lay on the next round space of its stage.",
    "draft": "Before the game: the card to keep from the packet in front of you; the rest is passed on.",
    "redraw": "Before the game: keep your hand, or give back every card of one kind and draw one card fewer.",
    "swap": "Before the game: keep your hand, or give back one card and draw a new one of its kind.",
    "draw": "You played a card from your hand: the kind of card to draw.",
    "display": "Place a person, or take a card of the open display into your hand instead (one player a round).",
}
CARD_KINDS = ("major", "minor", "improvement", "occupation")


def explain(request) -> str:
    """What the request asks, in words: the kind's explanation, the prompt and how many options."""
    text = EXPLANATIONS.get(request.kind, f"A '{request.kind}' decision: pick one of the options.")
    ask = f" The question: {request.prompt}." if request.prompt else ""
    return (f"Decision {request.number}, {request.player.name}: a '{request.kind}' request. {text}{ask} "
            f"{len(request.options)} options.")


def readable_labels(request) -> list[str]:
    """The options of a request as a person reads them: an action space by its name and the goods on
    it, a card by its name; the other kinds keep their labels (cells A1 … C5, '2 grain', …)."""
    game, kind = request.game, request.kind
    out = []
    for option, label in zip(request.options, request.labels):
        if kind == "place" and option in game.space_by_id:
            space = game.space_by_id[option]
            on = [(g, n) for g, n in space.goods.items() if n]
            out.append(space.name + (f" ({goods_words(on, game.rules.good_words)})" if on else ""))
        elif (kind in CARD_KINDS or kind in ("draft", "swap", "display")) and isinstance(option, str) \
                and option not in ("keep", "place"):
            out.append(_card_label(game, option))
        elif kind == "round_card" and option in game.pack.space_defs:
            out.append(game.pack.space_defs[option].name)
        elif kind in CARD_KINDS and isinstance(option, str):
            out.append(_card_label(game, option))
        else:
            out.append(label)
    return out


def _card_label(game, option: str) -> str:
    text = option[6:] if option.startswith("minor:") else option
    new, _, returned = text.partition("<")
    name = _card_name(game, new)
    return f"{name} (return {_card_name(game, returned)})" if returned else name


def _card_name(game, cid: str) -> str:
    card = game.pack.all_cards.get(cid)
    return card.name if card is not None else cid


def agent_specs(kinds, seed) -> list:
    """The save-file spec of each seat: {'kind': 'open'} for a person, else the agent and its seed."""
    return [{"kind": "open"} if k == HUMAN else {"kind": k, "seed": f"{seed}:{i}"} for i, k in enumerate(kinds)]


class Table:
    """A game with people at some seats (specs 'open') and agents at the others."""

    def __init__(self, pack, players: int, seed: int, specs: list, decisions=(), log: bool = True, decks=None,
                 setup=None):
        self.pack = pack
        self.players = players
        self.seed = seed
        self.decks = tuple(decks) if decks is not None else None   # the decks dealt from; None: every deck
        self.setup = setup   # a set-up given from outside the pack (runtime/given_setup.py), e.g. a campaign's
        self.specs = [dict(s) for s in specs]
        self.log = log
        self.game = self._replayed(list(decisions))

    @classmethod
    def from_save(cls, doc: dict, pack, log: bool = True) -> "Table":
        """The table of a save document, checked as ``resume`` checks it (SaveError, LogMismatch)."""
        game, _, pending = restore(doc, pack, log=log)
        game.run()
        if pending:
            from runtime.savegame import SaveError
            raise SaveError(f"the save has {len(pending)} decisions after the end of the game")
        table = cls.__new__(cls)
        table.pack, table.players, table.seed = pack, doc["players"], doc["seed"]
        table.decks = game.chosen_decks
        table.setup = doc.get("setup")
        table.specs, table.log, table.game = [dict(s) for s in doc["agents"]], log, game
        return table

    def _replayed(self, decisions: list) -> Game:
        game = Game(self.pack, self.players, seed=self.seed, agents=[make_agent(s) for s in self.specs],
                    log=self.log, decks=self.decks, setup=self.setup)
        game.replay(decisions, ask_agents=True)
        game.run()
        return game

    @property
    def pending(self):
        return self.game.pending

    @property
    def people(self) -> list[int]:
        """The seats played by people."""
        return [i for i, s in enumerate(self.specs) if s.get("kind") == "open"]

    def answer(self, index: int):
        """Answer the pending request with option ``index`` (IllegalDecision for another number)."""
        return self.game.answer(index)

    def undo(self, seat: int) -> bool:
        """Take back the last decision of the person at ``seat`` (and everything after it): the log
        without it is replayed into a fresh game, which stops at that request again. False when that
        person has taken no decision yet."""
        record = self.game.record
        taken = [k for k, (pi, kind, option) in enumerate(record) if pi == seat]
        if not taken:
            return False
        self.game = self._replayed(list(record[:taken[-1]]))
        return True

    def document(self) -> dict:
        """The game as a save document (docs/save-format.md)."""
        return Recorder(self.game, None, self.specs).document()

    def decisions_json(self) -> list:
        return [[pi, kind, norm(o)] for pi, kind, o in self.game.record]
