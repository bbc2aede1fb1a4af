"""The verbs of the effect language: gain, pay, plow, sow, bake, build rooms, fence pastures, …

Generated handler code calls these functions. Each verb that the language lets a designer write has a
``can_<verb>`` (is it possible now?) and a ``<verb>`` (do it, asking the player where a choice exists).
Every choice goes through ``g.decide`` as a request with an enumerable list of legal options.
No action space, card or edition is named here.

The verbs live in these modules, by concern; this package re-exports every name of them (and the
runtime names the verbs are written with), so that generated code and the engine call ``P.<name>``:

- ``goods_events``: Goods moving in and out of a player's supply, and the events the verbs run (docs/language.md 4.1).
- ``choices``: Choices inside an effect: 'may', 'and/or', 'then', 'choose', optional parts.
- ``rooms``: The house: rooms and renovation.
- ``stables``: Stables.
- ``sowing``: Fields: plowing, sowing, fields that are cards, harvesting more, moving crops.
- ``fences``: Fences, pastures and pasture tiles.
- ``animals``: Animals: where they live (housing, capacities), settling them, breeding, roomy pastures.
- ``family``: Family growth, newborns, taking goods from a space and the starting player.
- ``exchanges``: Baking and exchanges, and the windows in which abilities are used (docs/architecture.md, "Exchange windows").
- ``cards``: Cards: building majors, playing minors and occupations (with the can_… tests of the hot path).
- ``scheduling``: Goods and actions on future rounds, bonus points, and goods returned to a space.
- ``players``: Effects run for other players, and goods moved between players.
- ``on_cards``: Piles, goods and animals on cards, and cards that are action spaces.
- ``hands``: Hand cards: drawing from the cards not dealt, discarding a hand (docs/language.md 4.10).
- ``board``: Goods and markers on action spaces (docs/language.md 4.4).
- ``placements``: Placements of the round: people placed more or less, placing first (docs/language.md 4.4).
"""
from __future__ import annotations

# the names the verbs are written with, for callers of P.<name> (P.cost_options, P.fire, …)
from ..farm import (best_keeps, capacity_frontier, fencing_options, fits_housing, iter_bits, min_fencing_cost,
                    open_fence_edges, popcount,
                    shapes)
from ..payments import (can_after_paying, can_afford, can_afford_any, can_pay_with_exchanges, cheapest, cost_options,
                        has_price_mods, pay_cost, pay_one_of, producible, resolve_material, usable_exchanges, window_open)
from ..state import Ctx
from .. import gamelog
from ..words import plural
from ..firing import could_fire, fire, limit_ok

from .goods_events import (
    _space_in_use, after_event, before_event, can_pay, gain, give_others, NO, pay, replaced, scaled, snapshot, STOP,
    switch_on, via_cards, YES)
from .choices import and_or, can_spend_up_to, choose, may, optional, spend_up_to, then
from .rooms import (
    _blocked_for_tiles, _RENOVATION_PRICES, _tiles_of_farm, build_room, build_rooms, can_build_room, can_build_rooms,
    can_renovate, PARTNER, partner_for, partner_room_cells, partner_room_options, renovate, renovation_options,
    renovation_targets, room_cells, room_options, shared_rooms_left, shared_stables_left)
from .stables import (
    _fits_one_more, _put_stable, _stable_cells_near_pastures, build_stable, build_stables, can_build_stable,
    can_build_stables, partner_exchange, partner_goods_options, partner_stable_cells, partner_stable_options,
    stable_cells, stable_options)
from .sowing import (
    _empty_fields, _field_allows, _field_name, _sow_options, add_card_field, add_to_fields, can_add_to_fields,
    can_harvest_fields, can_harvest_more, can_move_crop, can_plow, can_sow, can_take_from_field, harvest_fields,
    harvest_more, move_crop, partner_plow_cells, plow, plow_cells, skip_harvest, sow, take_from_field)
from .fences import (
    _add_pasture, _apply_fence_step, _apply_partner_fence_step, _apply_unfinished_fence, _fence_budget,
    _fence_payments, _fence_price_options, _fences_from_supply, _fences_with_exchanges, _groups, _made_for,
    _offer_stable_move, _pay_fences, build_fences, build_pastures, can_build_fences, can_build_pastures,
    can_fence_for_partner, can_fence_new_stable, can_fence_spaces, fence_new_stable, fence_price_per, fence_spaces, fences_left,
    fencing_steps, partner_fence_prices, set_aside_count,
    partner_fence_steps, pasture_tile_options, tile_cost_options, unfinished_fence_steps)
from .animals import (
    _card_places, _housing_with_capacities, _PASTURE, _PASTURE_WITH_STABLE, animal_counts, animals_fit,
    best_food_exchange, breed, breeding_blocked, capacity_of, housing, limit_of, roomy_pasture_count,
    settle_animals)
from .family import (
    can_family_growth, can_family_growth_without_room, card_rooms, can_take_goods, family_growth, family_growth_without_room,
    newborn_acts, take_goods, take_start_player)
from .exchanges import (
    BATCH, _bake_rates, announce_conversions, bake, batch_close, batch_open, batch_wanted, batch_with, can_bake, converted,
    exchange, exchange_ready, exchanges_make,
    feeding_options, has_window_abilities, makes_only_food, use_exchange, use_window_option, window_options)
from .cards import (
    _AcceptingAgent, _affordable_after_before_rules, _before_rules, _card_affordable, _majors_as_minors,
    _paid_or_kept, _play_minor, _take_major, build_improvement, build_major, can_build_improvement, can_build_major,
    can_play_minor, can_play_occupation, card_cost_options, fee_and_cost, FREE, is_minor_for, major_options, minor_options,
    occupation_cost_options, occupation_options, play_minor, play_occupation, return_card, returnable_cards,
    can_play_occupation_random, play_occupation_random)
from .scheduling import (
    always, bonus, convert_bonus, never, return_to_space, rounds_listed, rounds_next, rounds_offsets,
    rounds_remaining, release_set_aside, schedule, schedule_action, ScheduledAction)
from .players import (
    _for, actor_of, can_pay_others, can_pay_space_fees, can_pay_to, can_pay_to_then, for_actor, for_each_other, for_each_player,
    give_to, owed_to_others, owner_of, pay_others,
    pay_space_fees, pay_to, take_from)
from .on_cards import (
    _store, add_card_capacity, add_card_capacity_fn, add_card_space, can_move_up_to_card, can_take_from_card, card_space_of, move_to_card,
    move_up_to_card, pile, pile_stack, pile_top, put_on_card, stored_on, take_from_card, take_pile_top, can_draw_from_card,
    draw_from_card)
from .board import (
    can_put_on_named_space, can_reveal_round_cards, can_spread_goods, mark_space, marked_by, put_on_named_space,
    put_on_space, reveal_round_cards, spread_goods)
from .placements import (
    can_place_first, lodge_people, lodgers, people_to_place, place_first, place_less, place_more, start_player_of)
from .hands import can_draw_cards, can_play_from_hand, discard_hand, draw_cards, play_from_hand
