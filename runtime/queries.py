"""Quantities and functions the effect language can ask about a player or the game.

The compiler reads ``QUANTITIES``, ``ALIASES`` and ``FUNCTIONS`` to check names and arity; generated
code calls these functions directly. Nothing here names an action space, a card or an edition.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (a cycle at run time: the engine imports this module)
    from .engine import Game

from .state import Player

from . import scoring
from . import history
from .farm import popcount

GOODS_IN_SUPPLY = ("food", "grain", "vegetable", "wood", "clay", "reed", "stone", "sheep", "boar", "cattle")


def _good(name):
    def q(g: Game, p: Player):
        return p.goods[name]
    q.__name__ = name
    q.__doc__ = f"{name} the player has"
    return q


def rooms(g: Game, p: Player):
    """rooms in the house"""
    return p.room_count


def people(g: Game, p: Player):
    """family members, newborns included"""
    return p.people


def newborns(g: Game, p: Player):
    """family members born this round"""
    return p.newborns


def occupations(g: Game, p: Player):
    """occupations in front of the player"""
    return len(p.occupations)


def minors(g: Game, p: Player):
    """minor improvements in front of the player"""
    return len(p.minors)


def hand_occupations(g: Game, p: Player):
    """occupations in the player's hand (hidden from the others)"""
    return len(p.hand_occupations)


def hand_minors(g: Game, p: Player):
    """minor improvements in the player's hand (hidden from the others)"""
    return len(p.hand_minors)


def majors(g: Game, p: Player):
    """major improvements in front of the player"""
    return len(p.majors)


def improvements(g: Game, p: Player):
    """major and minor improvements in front of the player"""
    return len(p.majors) + len(p.minors)


def fields(g: Game, p: Player):
    """field tiles in the farmyard (cards that are fields do not count)"""
    return popcount(p.field_mask)


def all_fields(g: Game, p: Player):
    """fields: field tiles and cards that are fields"""
    return len(p.fields)


def grain_fields(g: Game, p: Player):
    """fields with grain on them"""
    return sum(1 for f in p.fields.values() if f[0] == "grain" and f[1] > 0)


def vegetable_fields(g: Game, p: Player):
    """fields with vegetables on them"""
    return sum(1 for f in p.fields.values() if f[0] == "vegetable" and f[1] > 0)


def empty_fields(g: Game, p: Player):
    """fields with nothing on them (a card that is fields for a good that is no crop: not counted)"""
    kinds = p.card_state.get("field_crops")
    if not kinds:
        return sum(1 for f in p.fields.values() if f[1] == 0)
    crops = g.rules.crops
    return sum(1 for k, f in p.fields.items() if f[1] == 0 and (kinds.get(k) is None or any(c in crops for c in kinds[k])))


def planted_fields(g: Game, p: Player):
    """fields with crops on them"""
    crops = g.rules.crops
    return sum(1 for f in p.fields.values() if f[1] > 0 and f[0] in crops)


def grain_total(g: Game, p: Player):
    """grain in the supply and on fields"""
    return p.goods["grain"] + sum(f[1] for f in p.fields.values() if f[0] == "grain")


def vegetable_total(g: Game, p: Player):
    """vegetables in the supply and on fields"""
    return p.goods.get("vegetable", 0) + sum(f[1] for f in p.fields.values() if f[0] == "vegetable")


def pastures(g: Game, p: Player):
    """fenced pastures"""
    return len(p.pastures)


def pasture_spaces(g: Game, p: Player):
    """farmyard spaces inside pastures"""
    m = 0
    for pm in p.pastures:
        m |= pm
    return popcount(m)


def pasture_tiles(g: Game, p: Player):
    """pasture tiles laid"""
    return len(p.tile_pastures)


def stables(g: Game, p: Player):
    """stables built"""
    return popcount(p.stables)


def fenced_stables(g: Game, p: Player):
    """stables inside pastures (fenced ones or pasture tiles)"""
    return popcount(p.stables & p.pasture_mask())


def unfenced_stables(g: Game, p: Player):
    """stables outside pastures"""
    return popcount(p.stables & ~p.pasture_mask())


def empty_stables(g: Game, p: Player):
    """unfenced stables left empty when the animals are kept so as to leave the most of them empty"""
    loose = p.stables & ~p.pasture_mask()
    n = popcount(loose)
    if not n:
        return 0
    from .primitives.animals import animals_fit
    cells = [i for i in range(loose.bit_length()) if loose >> i & 1]
    stables = p.stables
    try:
        for k in range(n, 0, -1):   # stables are alike: empty the last k and see whether the animals fit
            p.stables = stables & ~sum(1 << i for i in cells[n - k:])
            if animals_fit(g, p):
                return k
    finally:
        p.stables = stables
    return 0


def fences(g: Game, p: Player):
    """fences built"""
    return popcount(p.fences)


def unused_spaces(g: Game, p: Player):
    """farmyard spaces with no room, field, stable and outside every pasture"""
    return p.grid.n - popcount(p.used_mask())


def animals(g: Game, p: Player):
    """sheep, wild boar and cattle together"""
    gd = p.goods
    return gd["sheep"] + gd["boar"] + gd["cattle"]


def building_resources(g: Game, p: Player):
    """wood, clay, reed and stone in the supply"""
    gd = p.goods
    return gd["wood"] + gd["clay"] + gd["reed"] + gd.get("stone", 0)


def begging(g: Game, p: Player):
    """begging cards"""
    return p.begging


def card_points(g: Game, p: Player):
    """points printed on the player's improvements"""
    return sum(g.card(cid).points for cid in p.majors + p.minors)


def bonus_points(g: Game, p: Player):
    """bonus points earned from cards"""
    return p.bonus


def bonus_lost(g: Game, p: Player):
    """bonus points lost to cards (the negative bonus points, counted apart from the positive ones)"""
    return p.stats.get("bonus_lost", 0)


def score_negative(g: Game, p: Player):
    """scoring categories in which the player scores negative points now (a begging card makes its category negative)"""
    return scoring.negative_categories(g, p)


def round(g: Game, p: Player):  # noqa: A001 - the language's word
    """the current round number"""
    return g.round


def rounds_left(g: Game, p: Player):
    """complete rounds still to play after this one"""
    return g.last_round - g.round


def players(g: Game, p: Player):
    """the number of players"""
    return g.nplayers


def rooms_built(g: Game, p: Player):
    """rooms built onto the starting house"""
    return max(0, p.room_count - g.rules.start_rooms)


def building_gained(g: Game, p: Player):
    """building resources gained in this round's work phase (spent ones included)"""
    return p.stats.get("building_gained", 0)


def after_harvest(g: Game, p: Player):
    """1 in a round that follows a harvest, else 0"""
    return 1 if (g.round - 1) in g.rules.harvest_rounds else 0


def harvest_round(g: Game, p: Player):
    """1 in a round that ends with a harvest, else 0"""
    return 1 if g.round in g.rules.harvest_rounds else 0


def people_home(g: Game, p: Player):
    """people at home not placed yet in this work phase (0 once the last one is placed); outside the work
    phase, the people the player places in a round"""
    if g.in_work_phase:
        return p.home
    from .primitives.placements import people_to_place
    return people_to_place(g, p)


def start_player(g: Game, p: Player):
    """1 when the player holds the starting player token, else 0"""
    return 1 if g.start_player == p.idx else 0


def house_level(g: Game, p: Player):
    """0 for the first house material, 1 for the next, …"""
    return g.rules.materials.index(p.house)


QUANTITIES = {f.__name__: f for f in (
    rooms, people, newborns, occupations, minors, majors, improvements, fields, all_fields, grain_fields,
    vegetable_fields, empty_fields, planted_fields, grain_total, vegetable_total, pastures, pasture_spaces,
    pasture_tiles, stables, fenced_stables, unfenced_stables, empty_stables, fences, unused_spaces, animals, building_resources, begging,
    card_points, bonus_points, bonus_lost, score_negative, round, rounds_left, players, rooms_built, house_level, building_gained,
    after_harvest, harvest_round, hand_occupations, hand_minors, people_home, start_player,
)}

# Quantities read from the event a rule reacts to (generated code passes the context).
def event_size(c):
    """the size of what the event made: rooms built, stables built, spaces of a new pasture, grain baked"""
    data = getattr(c, "data", None)
    return data if isinstance(data, int) else 0


CONTEXT_QUANTITIES = {"event_size": event_size}


def is_owner(g: Game, p: Player, c):
    """1 when the player running the body owns the card (the owner uses their own card without a fee)"""
    return c is None or c.owner is None or c.owner is p


# Quantities about who runs a body for another player: generated code passes the player and the context.
OWNER_QUANTITIES = {"is_owner": is_owner}

# The events of the language and the payload each carries to its rules (docs/language.md, 4.1.1):
# 'size' (``event_size``, ``Ctx.data`` as a whole number), 'goods' (``event_goods``, ``Ctx.goods``) and
# 'card' (``event_card``, ``Ctx.card``); every event also has its actor (``actor(…)``) and the state
# before it (``before(…)``). The compiler refuses a payload field an event does not carry (E300), and
# the generated reference (docs/language.md, section 5) is written from this table.
EVENTS = {
    "use": {"what": "a person is placed on an action space and its action carried out",
            "goods": "goods taken from the space (on arrival, or when its effect takes them)"},
    "gain": {"what": "goods are gained, from any source",
             "goods": "the goods gained"},
    "build_rooms": {"what": "rooms are built", "size": "rooms built"},
    "renovate": {"what": "the house is renovated"},
    "build_stables": {"what": "stables are built", "size": "stables built"},
    "build_fences": {"what": "fences are built (one action)", "size": "pastures fenced (new ones and divisions)"},
    "fence_pasture": {"what": "a new pasture is fenced", "size": "farmyard spaces of the new pasture"},
    "plow": {"what": "fields are plowed", "size": "fields plowed"},
    "sow": {"what": "fields are sown", "size": "fields sown", "goods": "the crops sown (one per field)"},
    "bake": {"what": "bread is baked", "size": "grain baked", "goods": "the food made"},
    "family_growth": {"what": "a child is born", "size": "children born (one a growth)"},
    "build_major": {"what": "a major improvement is built", "card": "the major built",
                    "paid": "its price as paid"},
    "play_minor": {"what": "a minor improvement is played", "card": "the minor played",
                   "paid": "its price as paid"},
    "build_improvement": {"what": "a major or minor improvement is built", "card": "the improvement",
                          "paid": "its price as paid"},
    "play_occupation": {"what": "an occupation is played", "card": "the occupation played",
                        "paid": "its price as paid (the action's fee included)"},
    "take_start_player": {"what": "the start player token is taken"},
    "convert": {"what": "goods are converted by an exchange (cooking, a card's rate), also inside a payment",
                "goods": "the goods made", "paid": "the goods given up", "via": "the card of the exchange"},
    "convert_batch": {"what": "goods are converted at one time: every conversion of one window, one feeding, one bake "
                              "action, one payment or one settling of animals (4.1.5); with 'with <card or #tag>' only those made with such "
                              "cards, and the rule fires when there is one",
                      "size": "goods given up", "goods": "the goods made", "paid": "the goods given up",
                      "via": "the cards of its conversions (1 when one of them is that card)"},
    "harvest": {"what": "a player's fields are harvested (the field phase, or 'harvest fields')",
                "size": "fields (stacks) that gave a good", "goods": "the goods taken from the fields",
                "via": "a card that is a field among them"},
}
# Every event but a use carries the card whose rule made it (``event_via``, ``Ctx.via``): an event made by
# an action space's own action or by the rules carries none (``event_via(space)`` tells the first apart).
for _fields in EVENTS.values():
    if _fields is not EVENTS["use"]:
        _fields.setdefault("via", "the card whose rule made it")
# The events whose listeners get a size, and what it counts (the compiler refuses ``event_size`` after
# any other event).
EVENT_SIZES = {name: fields["size"] for name, fields in EVENTS.items() if "size" in fields}
# Names that stand for several goods wherever a trigger or a payload function names a good.
GOOD_GROUPS = {
    "building": ("wood", "clay", "reed", "stone"),
    "animals": ("sheep", "boar", "cattle"),
    "crops": ("grain", "vegetable"),
    "goods": ("grain", "vegetable", "wood", "clay", "reed", "stone", "sheep", "boar", "cattle"),
}
for _name in GOODS_IN_SUPPLY:
    QUANTITIES[_name] = _good(_name)
    globals()[_name] = QUANTITIES[_name]

# Singular forms a designer writes after 'per' ("1 food per room").
ALIASES = {
    "room": "rooms", "person": "people", "newborn": "newborns", "occupation": "occupations",
    "minor": "minors", "major": "majors", "improvement": "improvements", "field": "fields",
    "grain_field": "grain_fields", "vegetable_field": "vegetable_fields", "empty_field": "empty_fields",
    "pasture": "pastures", "stable": "stables", "fenced_stable": "fenced_stables",
    "unfenced_stable": "unfenced_stables", "empty_stable": "empty_stables", "fence": "fences", "unused_space": "unused_spaces",
    "animal": "animals", "begging_card": "begging", "complete_round_left": "rounds_left",
    "round_left": "rounds_left", "building_resource": "building_resources", "vegetables": "vegetable",
}


# ---------------- functions: name -> (callable, argument kinds) ----------------

def occupied(g: Game, p: Player, space_id):
    """whether the action space is occupied this round"""
    s = g.space_by_id.get(space_id)
    return bool(s and s.occupants)


def has(g: Game, p: Player, card_or_tag):
    """whether the player has the card (or a card with the #tag) in front of them"""
    for cid in p.majors + p.minors + p.occupations:
        if cid == card_or_tag or card_or_tag in g.card(cid).tags:
            return True
    return False


def cards_of(g: Game, p: Player, card_or_tag):
    """how many cards in front of the player are the card or have the #tag (has() is 0 or 1)"""
    n = 0
    for cid in p.majors + p.minors + p.occupations:
        if cid == card_or_tag or card_or_tag in g.card(cid).tags:
            n += 1
    return n


def fn_min(g: Game, p: Player, a, b):
    """the smaller of two numbers"""
    return a if a < b else b


def fn_max(g: Game, p: Player, a, b):
    """the larger of two numbers"""
    return a if a > b else b


def most(g: Game, p: Player, quantity_fn):
    """whether no other player has more of the quantity"""
    mine = quantity_fn(g, p)
    return all(quantity_fn(g, o) <= mine for o in g.players)


def yours(g: Game, p: Player, space_id):
    """whether one of the player's people is on the action space"""
    s = g.space_by_id.get(space_id)
    return bool(s and p.idx in s.occupants)


def others_min(g: Game, p: Player, quantity_fn):
    """the smallest value of the quantity among the other players (0 when alone)"""
    vals = [quantity_fn(g, o) for o in g.players if o is not p]
    return min(vals) if vals else 0


def others_max(g: Game, p: Player, quantity_fn):
    """the largest value of the quantity among the other players (0 when alone)"""
    vals = [quantity_fn(g, o) for o in g.players if o is not p]
    return max(vals) if vals else 0


def others_sum(g: Game, p: Player, fn):
    """the total of the value over the other players"""
    return sum(fn(g, o) for o in g.players if o is not p)


def all_min(g: Game, p: Player, fn):
    """the smallest value over every player"""
    return min(fn(g, o) for o in g.players)


def all_max(g: Game, p: Player, fn):
    """the largest value over every player"""
    return max(fn(g, o) for o in g.players)


def all_sum(g: Game, p: Player, fn):
    """the total over every player"""
    return sum(fn(g, o) for o in g.players)


def count_others(g: Game, p: Player, fn):
    """how many other players the condition holds for"""
    return sum(1 for o in g.players if o is not p and fn(g, o))


def count_players(g: Game, p: Player, fn):
    """how many players (the owner included) the condition holds for"""
    return sum(1 for o in g.players if fn(g, o))


def fewest(g: Game, p: Player, fn):
    """whether no other player has less of the value"""
    mine = fn(g, p)
    return all(fn(g, o) >= mine for o in g.players)


def only_most(g: Game, p: Player, fn):
    """whether every other player has less of the value"""
    mine = fn(g, p)
    return all(fn(g, o) < mine for o in g.players if o is not p)


def only_fewest(g: Game, p: Player, fn):
    """whether every other player has more of the value"""
    mine = fn(g, p)
    return all(fn(g, o) > mine for o in g.players if o is not p)


def rank(g: Game, p: Player, fn):
    """1 + the number of players with more of the value"""
    mine = fn(g, p)
    return 1 + sum(1 for o in g.players if fn(g, o) > mine)


def left(g: Game, p: Player, fn):
    """the value for the neighbour on the left (the player a passing card goes to)"""
    return fn(g, g.players[(p.idx + 1) % g.nplayers])


def right(g: Game, p: Player, fn):
    """the value for the neighbour on the right"""
    return fn(g, g.players[(p.idx - 1) % g.nplayers])


# Functions that read the event a rule reacts to (generated code passes the context ``c``).
def actor(g: Game, p: Player, c, fn):
    """the value for the player who carried out the event"""
    who = c.actor if c is not None and c.actor is not None else p
    return fn(g, who)


def owner(g: Game, p: Player, c, fn):
    """the value for the card's owner (inside 'for actor (…)' or 'for each … player (…)')"""
    who = c.owner if c is not None and c.owner is not None else p
    return fn(g, who)


def before(g: Game, p: Player, c, fn):
    """the value for the actor as it was just before the event"""
    if c is not None and c.before is not None:
        return fn(g, c.before)
    return fn(g, c.actor if c is not None and c.actor is not None else p)


def event_goods(g: Game, p: Player, c, goods):
    """how many of the goods the event carries (gained, taken, sown, made)"""
    items = c.goods if c is not None else None
    if not items:
        return 0
    return sum(n for good, n in items if good in goods)


def event_paid(g: Game, p: Player, c, goods):
    """how many of the goods the event took from the actor (given up in a conversion)"""
    items = c.paid if c is not None else None
    if not items:
        return 0
    return sum(n for good, n in items if good in goods)


def event_via(g: Game, p: Player, c, source):
    """whether the event was made with that card (or a card with that #tag, or of that kind; `space`: by an action space's own action)"""
    card = c.via if c is not None else None
    if isinstance(card, tuple):   # a harvest: the cards that are fields it took goods from
        return any(k.id == source or source in k.tags for k in card)
    if card is None:
        return source == "space" and c is not None and c.space is not None
    kind = VIA_KINDS.get(source)
    if kind is not None:
        return card.kind in kind
    return card.id == source or source in card.tags


# What made an event, besides a card id or a #tag (event_via): its kind of card, or an action space itself.
VIA_KINDS = {"occupation": ("occupation",), "minor": ("minor",), "major": ("major",),
             "improvement": ("minor", "major"), "card": ("occupation", "minor", "major"), "space": ()}


def event_card(g: Game, p: Player, c, card_or_tag):
    """whether the card the event played or built is that card or has that #tag"""
    card = c.card if c is not None else None
    return card is not None and (card.id == card_or_tag or card_or_tag in card.tags)


def event_space(g: Game, p: Player, c, space_or_tag):
    """whether the event happened on that action space (or one with that #tag)"""
    # ``c`` is never None: the checker allows event_space() only in rules that react to an event (E212),
    # and those run with its context (CardsInPlay.emit, 'instead of' rules, history counters)
    s = c.space
    return s is not None and (s.id == space_or_tag or space_or_tag in s.tags)


def space_goods(g: Game, p: Player, space_or_tag, goods):
    """goods lying on the action space (or on every space with that #tag) now: collected there and not yet taken"""
    s = g.space_by_id.get(space_or_tag)
    if s is not None:
        return sum(n for good, n in s.goods.items() if good in goods)
    return sum(n for s in g.space_by_id.values() if space_or_tag in s.tags
               for good, n in s.goods.items() if good in goods)


def drawn(g: Game, p: Player, c, card_id, goods):
    """goods the last draw from this card drew (they lie on it again), of the good or group"""
    who = c.owner if c is not None and c.owner is not None else p
    last = who.card_state.get("drawn", {}).get(card_id)
    return sum(n for good, n in last if good in goods) if last else 0


def pile_top(g: Game, p: Player, c, card_id, goods):
    """1 when the top good of the pile on this card is of the good or group (0 when the pile is empty)"""
    who = c.owner if c is not None and c.owner is not None else p
    stack = who.card_state.get("piles", {}).get(card_id)
    return int(bool(stack) and stack[0] in goods)


def stored(g: Game, p: Player, c, card_id, goods):
    """goods lying on this card (put, moved or kept there), of the good or group"""
    who = c.owner if c is not None and c.owner is not None else p
    s = g.space_by_id.get(card_id)
    if s is not None and s.defn.card_owner == who.idx:  # a card that is an action space
        return sum(n for good, n in s.goods.items() if good in goods)
    on_card = who.card_state.get("stored")
    if not on_card:
        return 0
    kept = on_card.get(card_id)
    return sum(n for good, n in kept.items() if good in goods) if kept else 0


def set_aside(g: Game, p: Player, c, piece):
    """the pieces (fences) that lay set aside on this round's space for the scheduled action that reads it (in
    'schedule action (…) on … with N fences set aside' only; back in the supply as the action starts)"""
    aside = c.aside if c is not None else ()
    return sum(n for what, n in aside if what == piece)


PHASES = ("work_phase", "harvest", "field_phase", "feeding", "breeding")


def during(g: Game, p: Player, phase):
    """1 while the game is in that phase: work_phase, harvest (its start to its end), field_phase, feeding, breeding"""
    if phase == "harvest":
        return int("harvest" in g.open_windows)
    return int(g.phase == phase)


def score(g: Game, p: Player, category):
    """the points the player scores now in a scoring category of the game"""
    return scoring.score(g, p, category)


def occupations_after(g: Game, p: Player, card_id):
    """occupations the player played after the given card"""
    occ = p.occupations
    return len(occ) - occ.index(card_id) - 1 if card_id in occ else 0


def room_for(g: Game, p: Player, animal):
    """1 when one more animal of that kind would fit on the farm with the animals the player has"""
    from .primitives.animals import animal_counts, animals_fit
    counts = list(animal_counts(g, p))
    counts[g.rules.animals.index(animal)] += 1
    return int(animals_fit(g, p, tuple(counts)))


def round_played(g: Game, p: Player, card_id):
    """the round in which the player played the card (0 while it is not in play)"""
    return p.card_state.get("played_round", {}).get(card_id, 0)


# The card counts where prerequisites and scoring read them (docs/language.md 4.8): an occupation that
# 'counts as N occupations' is N there, a minor that 'counts as a major improvement too' is also a major.
# The compiler writes these for 'occupations', 'majors' and 'occupations_after(this)' in a card's
# 'requires' and in its 'at scoring' rules; everywhere else (prices of spaces, other rules) each card is one.
def counted_occupations(g: Game, p: Player):
    """occupations, each counted as often as it counts"""
    cards = g.pack.all_cards
    return sum(cards[cid].occupation_count for cid in p.occupations)


def counted_majors(g: Game, p: Player):
    """major improvements, with the minors that count as a major too"""
    cards = g.pack.all_cards
    return len(p.majors) + sum(1 for cid in p.minors if cards[cid].counts_as_major)


def counted_occupations_after(g: Game, p: Player, card_id):
    """occupations_after(…) with each occupation counted as often as it counts"""
    occ = p.occupations
    if card_id not in occ:
        return 0
    cards = g.pack.all_cards
    return sum(cards[cid].occupation_count for cid in occ[occ.index(card_id) + 1:])


COUNTED = {"occupations": counted_occupations, "majors": counted_majors}


def roomy_pastures(g: Game, p: Player, free):
    """pastures holding at least one animal with room for ``free`` more, in the best arrangement"""
    from .primitives import roomy_pasture_count
    return roomy_pasture_count(g, p, free)


# History counters (docs/language.md 4.7; runtime/history.py keeps them). The compiler passes the id
# of the counter the expression names and the period.
def done(g: Game, p: Player, counter, period):
    """how often you carried out the event in the period (game, round, harvest, turn, action)"""
    return history.value(g, p, counter, period)


def done_by_any(g: Game, p: Player, counter, period):
    """how often any player (you included) carried out the event in the period"""
    return sum(history.value(g, o, counter, period) for o in g.players)


def done_since(g: Game, p: Player, c, counter, card_id):
    """how often you carried out the event since this card came into play"""
    who = c.owner if c is not None and c.owner is not None else p
    base = (who.card_state.get("since") or {}).get((card_id, counter))  # set when the card came into play
    return history.value(g, who, counter, "game") - base if base is not None else 0


def gained(g: Game, p: Player, counter, period):
    """how many of the goods you gained in the period, from any source"""
    return history.value(g, p, counter, period)


def first(g: Game, p: Player, counter, period):
    """1 when the event has happened exactly once in the period, by any player (in a rule reacting to it: the first)"""
    return int(done_by_any(g, p, counter, period) == 1)


# name -> (function, its arguments); the reference (docs/language.md 5.6) is written from it
HISTORY = {
    "done": (done, "<event>, <period>"),
    "done_by_any": (done_by_any, "<event>, <period>"),
    "done_since": (done_since, "<event>, this"),
    "gained": (gained, "<good or group>, <period>"),
    "first": (first, "<event> [, <period>]"),
}
HISTORY_PERIODS = ("game", "round", "harvest", "turn", "action")


FUNCTIONS = {
    "yours": (yours, ("space",)),
    "others_min": (others_min, ("player_value",)),
    "others_max": (others_max, ("player_value",)),
    "others_sum": (others_sum, ("player_value",)),
    "all_min": (all_min, ("player_value",)),
    "all_max": (all_max, ("player_value",)),
    "all_sum": (all_sum, ("player_value",)),
    "count_others": (count_others, ("player_value",)),
    "count_players": (count_players, ("player_value",)),
    "fewest": (fewest, ("player_value",)),
    "only_most": (only_most, ("player_value",)),
    "only_fewest": (only_fewest, ("player_value",)),
    "rank": (rank, ("player_value",)),
    "left": (left, ("player_value",)),
    "right": (right, ("player_value",)),
    "actor": (actor, ("player_value",)),
    "owner": (owner, ("player_value",)),
    "before": (before, ("player_value",)),
    "event_goods": (event_goods, ("goods",)),
    "event_card": (event_card, ("card",)),
    "event_paid": (event_paid, ("goods",)),
    "event_via": (event_via, ("source",)),
    "event_space": (event_space, ("space_or_tag",)),
    "occupations_after": (occupations_after, ("card",)),
    "round_played": (round_played, ("card",)),
    "room_for": (room_for, ("animal",)),
    "score": (score, ("category",)),
    "stored": (stored, ("goods",)),
    "drawn": (drawn, ("goods",)),
    "pile_top": (pile_top, ("goods",)),
    "set_aside": (set_aside, ("piece",)),
    "roomy_pastures": (roomy_pastures, ("number",)),
    "occupied": (occupied, ("space",)),
    "space_goods": (space_goods, ("space_or_tag", "goods")),
    "has": (has, ("card",)),
    "during": (during, ("phase",)),
    "cards": (cards_of, ("card",)),
    "min": (fn_min, ("number", "number")),
    "max": (fn_max, ("number", "number")),
    "most": (most, ("player_value",)),
}
# Functions that read the event a rule reacts to: they take the context and are refused outside such rules.
EVENT_FUNCTIONS = {"actor", "before", "event_goods", "event_card", "event_space", "event_paid", "event_via"}
# Functions that take the context but have a value anywhere (the owner is the rule's player outside 'for …').
CONTEXT_FUNCTIONS = EVENT_FUNCTIONS | {"owner", "stored", "drawn", "pile_top", "set_aside"}
# The pieces of a player's supply that may be set aside on round spaces (docs/language.md 4.3).
SET_ASIDE_PIECES = ("fences",)


def tier(value, table):
    """The result of the highest threshold that ``value`` reaches (0 below the first)."""
    out = 0
    for threshold, result in table:
        if value >= threshold:
            out = result
        else:
            break
    return out


def div(a, b):
    return a // b if b else 0
