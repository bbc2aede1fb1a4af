"""A compiled pack's contents as objects: its rules (``Rules``), action spaces and round cards
(``SpaceDef``, one ``Variant`` per number of players) and cards (``CardDef``), built by ``Pack`` from the
tables of the pack's generated module (runtime/pack.py finds and imports it).

Apart from the loader so that it can be compiled with the rest of the runtime (make native): the engine
reads these objects' fields on every placement, and a compiled class has them as fixed fields.
"""
from __future__ import annotations

from typing import Any


class Variant:
    __slots__ = ("use", "can", "accumulate")

    def __init__(self, use, can, accumulate):
        self.use, self.can, self.accumulate = use, can, accumulate


class SpaceDef:
    """An action space of the pack (board space, extra space for some player counts, or round card)."""

    def __init__(self, d: Any):   # (a table of the generated module: its values are as the compiler wrote them)
        self.id = d["id"]
        self.name = d["name"]
        self.players = tuple(d["players"])
        self.stage = d.get("stage")
        self.tags = tuple(d.get("tags", ()))
        self.text = d.get("text", "")
        self.src = d.get("src")
        self.variants = {n: Variant(*v) for n, v in d["variants"].items()}
        self.takes_goods = d.get("takes_goods", False)   # its effect says "take the goods"
        self.group = d.get("group")   # spaces of one group take one person a round between them
        self.card_owner = d.get("card_owner")   # a card that is an action space: its owner's seat

    def for_players(self, n: int) -> Variant:
        return self.variants[n]


class CardDef:
    """A major improvement, minor improvement or occupation."""

    def __init__(self, d: Any):   # (a table of the generated module: its values are as the compiler wrote them)
        self.id = d["id"]
        self.name = d["name"]
        self.kind = d["kind"]  # major / minor / occupation
        self.cost = tuple(d.get("cost", ()))
        self.cost_fn = d.get("cost_fn")
        # alternative prices ('1 wood or 1 clay', docs/language.md 4.3): every way to pay, or None for one
        self.cost_ways = tuple(tuple(way) for way in d["cost_ways"]) if d.get("cost_ways") else None
        self.points = d.get("points", 0)
        self.tags = tuple(d.get("tags", ()))
        self.upgrade_of = tuple(d.get("upgrade_of", ()))
        self.returns = d.get("returns", 1)   # how many cards of upgrade_of a minor's price returns
        self.returned_lose_claims = d.get("returned_lose_claims", False)   # their scheduled goods are lost
        # 'this card counts as N occupations' / 'as a major improvement too' (docs/language.md 4.8)
        self.occupation_count = d.get("occupation_count", 1)
        self.counts_as_major = d.get("counts_as_major", False)
        # the cost names of its price (docs/language.md 4.3): its kind, its id and each of its tags
        kinds = ("improvement", self.kind) if self.kind in ("major", "minor") else (self.kind,)
        self.price_names = kinds + (self.id,) + tuple("#" + t for t in self.tags)
        # the same for a major that is a minor for its player ('<major> is a minor for you')
        self.minor_price_names = ("improvement", "minor", self.id) + tuple("#" + t for t in self.tags)
        self.requires = d.get("requires")
        self.requires_text = d.get("requires_text")
        self.on_play = tuple(d.get("on_play", ()))
        self.listeners = tuple(d.get("listeners", ()))
        self.counters = tuple(d.get("counters", ()))  # history counters it reads (runtime/history.py)
        self.hand_listeners = tuple(d.get("hand_listeners", ()))  # its rules while in a hand ('play this card')
        self.snapshots = frozenset(d.get("snapshots", ()))  # events whose rules read 'before(…)'
        self.exchanges = tuple(d.get("exchanges", ()))
        # (index in exchanges, guard): an exchange open only while its guard holds ('any time if …: …')
        self.exchange_guards = tuple(d.get("exchange_guards", ()))
        # indices in exchanges whose '(at most N times per game)' is never counted afresh (docs/language.md 1.6)
        self.exchange_game_limits = frozenset(d.get("exchange_game_limits", ()))
        # (index in exchanges, price): each use, the other players may buy what it takes for the price (4.9)
        self.exchange_offers = dict(d.get("exchange_offers", ()))
        self.bake = tuple(d.get("bake", ()))
        self.modifiers = tuple(d.get("modifiers", ()))
        self.latches = tuple(d.get("latches", ()))
        self.actions = tuple(d.get("actions", ()))
        self.passing = d.get("passing", False)
        self.round_played = d.get("round_played", False)  # a rule of it reads round_played(…)
        self.deck = d.get("deck")
        self.number = d.get("number")
        self.players = d.get("players")
        self.src = d.get("src")


class Rules:
    """The game settings of a pack (game.yaml, compiled)."""

    def __init__(self, d: Any):   # (a table of the generated module: its values are as the compiler wrote them)
        self.id = d["id"]
        self.name = d["name"]
        self.min_players, self.max_players = d["players"]
        self.last_round = d["rounds"]
        self.stages = tuple(tuple(s) for s in d["stages"])
        self.harvest_rounds = frozenset(d["harvest_rounds"])
        self.rows, self.cols = d["farmyard"]
        self.start_rooms_cells = tuple(d["start_rooms"])
        self.start_rooms = len(self.start_rooms_cells)
        self.materials = tuple(d["materials"])
        self.start_people = d["start_people"]
        self.max_people = d["max_people"]
        self.max_fences = d["max_fences"]
        self.max_stables = d["max_stables"]
        self.goods = tuple(d["goods"])
        self.animals = tuple(d["animals"])
        self.building = tuple(d["building"])
        self.crops = tuple(d["crops"])
        self.start_goods = d["start_goods"]        # (start player fn, others fn)
        self.feeding = d["feeding"]                # (per person fn, per newborn fn)
        self.room_cost = tuple(d["room_cost"])
        self.renovation_per_room = tuple(d["renovation_per_room"])
        self.renovation_fixed = tuple(d["renovation_fixed"])
        self.stable_cost = tuple(d["stable_cost"])
        self.fence_cost = tuple(d["fence_cost"])
        self.sowing = dict(d["sowing"])
        self.housing = dict(d["housing"])
        self.exchanges = tuple(d["exchanges"])
        self.scoring = tuple(d["scoring"])
        # every category's points added up (None: add them one by one), for a player without a card
        # that changes scoring
        self.score_total = d.get("score_total")
        # category id -> the points a category loses that count as negative even when its total is not
        # (begging cards scored with the card points): runtime/scoring.py
        self.score_penalties = dict(d.get("score_penalties") or {})
        self.tie_break = d["tie_break"]
        self.has_tie_break = d.get("has_tie_break", True)   # without one, equal totals share the win
        self.hand = d.get("hand")
        self.decks = tuple(d.get("decks") or ())           # decks named in game.yaml (some may have no cards yet)
        self.pass_minors_solo = d.get("solo_removes_passing", True)
        self.good_words = dict(d.get("good_words") or {})   # good -> (one, many), for logs
        self.solo_target = d.get("solo_target")             # points a solo player aims for, or None
        self.reverse_passes = frozenset(tuple(x) for x in d.get("reverse_passes", ()))  # (round, pass) against the turn order
        arriving = d.get("arriving_animals") or {}
        self.cook_arriving = arriving.get("cook", True)     # animals without room are cooked when possible
        self.leftovers_stay = arriving.get("leftovers", "supply") == "space"  # …or stay on their space
        self.pastures_per_kind = d.get("pastures_per_animal_kind")  # None: no limit
        # team play (docs/variants.md): pairs of seats, the partner acts' prices, how a team scores; None: no teams
        self.teams = d.get("teams")
        if self.teams:   # team play is for its number of players only
            self.min_players = self.max_players = self.teams["players"]
        fence_rules = d.get("fence_rules") or {}
        self.pastures_touch = fence_rules.get("adjacent_pastures", True)   # a new pasture touches the fenced ones
        self.unfinished_fences = fence_rules.get("unfinished_fences", False)  # fences built one by one, left open
        self.draft = tuple(d.get("draft", ()))            # pre-game drafts (runtime/pregame.py)
        self.redraw = d.get("redraw", False)
        self.swaps = d.get("swaps", 0)
        self.draw_after_play = d.get("draw_after_play", False)
        self.round_order = d.get("round_order", "shuffled")
        self.campaign = d.get("campaign")   # campaign rules for the toolchain's campaign driver, or None
        # hand cards dealt by class: kind -> ({"players": n} or {"passing": bool}, with "count"), in order
        self.deal_by_class = {k: tuple(v) for k, v in (d.get("deal_by_class") or {}).items()}
        self.display = dict(d.get("open_display") or {})   # cards of each kind laid open, "refill"
        self.pregame = bool(self.draft or self.redraw or self.swaps or self.round_order == "chosen"
                            or self.deal_by_class or self.display)
        # A farm of tiles (all optional; without them the farmyard is a grid fenced into pastures): pasture
        # tiles with a printed cost and capacity, shared by all players in a supply
        self.pasture_tiles = tuple(d.get("pasture_tiles", ()))   # dicts: id, name, spaces, cost, capacity, supply
        self.pasture_tile = {t["id"]: t for t in self.pasture_tiles}
        self.fields_next_to_farm = d.get("fields_next_to") == "farm"  # else: next to a field (the first anywhere)
        self.stables_near_pastures = d.get("stables_on") == "pastures"  # on a pasture (one each) or next to one
        self.field_tile = d.get("field_tile")                    # the tile a plowed field takes from the supply
        self.room_cost_by_material = dict(d.get("room_cost_by_material") or {})  # material -> price of a room
        self.sow_at_most = d.get("sow_at_most")                  # fields sown in one action, or None
        self.feeding_group = d.get("feeding_group")              # (space tag, people, food) or None
        # pieces of the whole table shared by all players (rooms beyond the starting house, stables)
        self.shared_rooms: int | None = (d.get("shared_supply") or {}).get("rooms")      # None: no shared limit
        self.shared_stables: int | None = (d.get("shared_supply") or {}).get("stables")


class Pack:
    """A compiled pack: its rules, action spaces, round cards and cards."""

    def __init__(self, module):
        self.module = module
        self.id = module.PACK_ID
        self.content_hash = module.CONTENT_HASH
        self.rules = Rules(module.GAME)
        self.spaces = [SpaceDef(d) for d in module.SPACES]
        self.round_cards = [SpaceDef(d) for d in module.ROUND_CARDS]
        self.majors = {d["id"]: CardDef(d) for d in module.MAJORS}
        self.cards = {d["id"]: CardDef(d) for d in module.CARDS}
        self.all_cards: dict[str, CardDef] = dict(self.majors)
        self.all_cards.update(self.cards)
        # the cards that read history counters (runtime/history.py): a pack without any skips their set-up
        self.counting_cards = frozenset(cid for cid, c in self.all_cards.items() if c.counters or c.hand_listeners)
        # whether the game records the round each card is played in (a card reads round_played(…))
        self.records_rounds = any(c.round_played for c in self.all_cards.values())
        # the decks players may choose to deal from: those game.yaml names and those of the hand cards
        self.decks = tuple(sorted(set(self.rules.decks) | {str(c.deck) for c in self.cards.values() if c.deck}))
        self.space_defs = {s.id: s for s in self.spaces + self.round_cards}
        self.dealable_cache: dict = {}   # (kind, players, decks, cards a set-up gives) -> sorted card ids
        # tables built on first use: runtime/primitives/goods_events.py, runtime/gamelog.py
        self.via_cards: dict | None = None
        self.handler_cards: dict | None = None
