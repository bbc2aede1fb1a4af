"""Readable labels for decision options (used by logs, scenario files, saved games and humans)."""
from __future__ import annotations



def _goods(items):
    return ", ".join(f"{n} {g}" for g, n in items)


def label_of(game, player, kind, option, given=None) -> str:
    """The label of ``option`` in a ``kind`` request, as a scenario file writes it."""
    if given is not None:
        return str(given)
    if option == "stop":
        return "stop"
    gr = player.grid
    if kind in ("room", "stable", "plow"):
        if isinstance(option, tuple):   # ("partner", space): on the partner's farm, in team play
            return f"partner {gr.name(option[1])}"
        return gr.name(option)
    if kind == "partner_goods":
        return f"{option[0]} 1 {option[1]}"
    if kind == "move_stable":
        return gr.name(option) if isinstance(option, int) else str(option)
    if kind == "pasture_tile":
        tid, mask = option
        return f"{tid} {gr.mask_names(mask)}"
    if kind == "fence":
        if option[0] == "fence":   # one unfinished fence, on an edge
            return f"fence {gr.edge_name(option[1])}"
        if option[0] == "partner":   # a step on the partner's farm, in team play
            return "partner " + label_of(game, player, kind, option[1])
        cost, region, split = option
        if split:
            return f"divide {gr.mask_names(split)}: {gr.mask_names(region)}"
        return gr.mask_names(region)
    if kind == "sow":
        a, b = option[0], option[1]
        parts = []
        if a:
            parts.append(f"{a} grain")
        if b:
            parts.append(f"{b} vegetable")
        parts += [f"{n} {good}" for good, n in (option[2] if len(option) > 2 else ())]   # a good that is no crop
        return ", ".join(parts)
    if kind == "bake":
        from .primitives import _bake_rates
        rates = _bake_rates(player)
        parts = [f"{k} grain with {game.card(r[3]).id}" for r, k in zip(rates, option) if k]
        return ", ".join(parts)
    if kind == "keep_animals":
        return ", ".join(f"{n} {a}" for a, n in zip(game.rules.animals, option))
    if kind == "feed" and option == "pay":
        return "pay"
    if kind in ("feed", "any_time"):
        if option == "place":
            return "place"
        what, i = ("x", option) if isinstance(option, int) else option
        if what == "x":
            give, get, window, at_most, source, key = game.exchanges_of(player)[i]
            out = "top of pile" if get == "pile" else _goods(get)
            via = f" ({source})" if source else ""
            return f"{_goods(give)} -> {out}{via}"
        return f"{player.actions[i][3]} ({player.actions[i][4]})"
    if kind in ("major", "improvement"):
        text = str(option)
        if text.startswith("minor:"):
            return text[6:]
        if "<" in text:
            a, b = text.split("<", 1)
            return f"{a} (return {b})"
        return text
    return str(option)


def describe_request(game, player, kind, options, labels=None):
    return [label_of(game, player, kind, o, labels[i] if labels else None) for i, o in enumerate(options)]
