"""Text reports of a game: its header, the final score table by category, where bonus points came
from, and each farmyard drawn as text."""
from __future__ import annotations

from .farm import popcount
from .gamelog import bonus_from, goods, source_name
from .words import plural


def header(game, agent_kinds) -> str:
    """Pack, seed, players (with their agents) and the start player, as the first lines of a log."""
    n = game.nplayers
    seats = ", ".join(f"{p.name} {kind}" for p, kind in zip(game.players, agent_kinds))
    start = "; ".join(f"{p.name} {goods(game, list(p.goods.items()))}" for p in game.players)
    decks = game.chosen_decks
    return "\n".join([
        f"{game.rules.name} (pack {game.pack.id})",
        f"Seed {game.seed}; {plural(n, 'player')}: {seats}; start player {game.players[game.start_player].name}",
        *([f"Hand cards from {'deck' if len(decks) == 1 else 'decks'} {', '.join(decks)}"] if decks else []),
        f"Start goods: {start}",
    ])


KIND_WORDS = {"occupations": "occupations", "minors": "minor improvements"}


def deal_note(game) -> str | None:
    """One line saying that the decks hold too few hand cards for every player's full hand and what each
    player is dealt instead (None when the hands are full): 'note: decks E, I hold too few cards for full
    hands of 3 players: each player is dealt 4 of 7 occupations (12 in the decks) and 0 of 7 minor
    improvements (none in the decks)'."""
    short = game.short_hands
    if not short:
        return None
    decks = game.chosen_decks if game.chosen_decks is not None else game.pack.decks
    where = (f"deck {decks[0]} holds" if len(decks) == 1 else f"decks {', '.join(decks)} hold" if decks
             else f"pack '{game.pack.id}' holds")
    parts = []
    for kind in ("occupations", "minors"):
        if kind in short:
            dealt, full, cards = short[kind]
            parts.append(f"{dealt} of {full} {KIND_WORDS[kind]} ({cards or 'none'} in the decks)")
    return (f"note: {where} too few cards for full hands of {plural(game.nplayers, 'player')}: each player is "
            f"dealt {' and '.join(parts)}")


def score_table(game) -> str:
    scores = game.scores or [game.score(p) for p in game.players]
    names = [s["player"] for s in scores]
    labels = {cid: label for cid, label, fn in game.rules.scoring}
    width = max([len(v) for v in labels.values()] + [len("Total"), len("Tie-break (resources)")]) + 2
    col = max(6, max(len(n) for n in names) + 2)
    lines = ["Final scores"] + score_rows(game, labels, width, col, names, scores)
    lines.extend(bonus_lines(game))
    lines.extend(team_lines(game, scores, labels, width))
    lines.append("")
    lines.append(outcome(game, scores))
    return "\n".join(lines)


def team_lines(game, scores, labels, width) -> list:
    """In team play, the teams' scores by category (the lower of the partners', or as the pack says)."""
    teams = game.team_scores(scores)
    if not teams:
        return []
    col = max(8, max(len(t["team"]) for t in teams) + 2)
    how = "the lower of the partners' points" if game.rules.teams["score"] == "lower" else "the partners' points added"
    return ["", f"Team scores ({how} in each category)"] + score_rows(game, labels, width, col,
                                                                      [t["team"] for t in teams], teams)


def score_rows(game, labels, width, col, heads, scores) -> list:
    """A score table: the column heads, a row per category, the total and the tie-break (if the pack has
    one), one column per score (a player's or a team's)."""
    rows = ["".ljust(width) + "".join(h.rjust(col) for h in heads)]
    for cid, label in labels.items():
        rows.append(label.ljust(width) + "".join(str(s["categories"][cid]).rjust(col) for s in scores))
    rows.append("-" * (width + col * len(scores)))
    rows.append("Total".ljust(width) + "".join(str(s["total"]).rjust(col) for s in scores))
    if game.rules.has_tie_break:
        rows.append("Tie-break (resources)".ljust(width) + "".join(str(s["tie_break"]).rjust(col) for s in scores))
    return rows


def outcome(game, scores) -> str:
    """'Winner: P2' (or 'Shared win: …'); a solo game has no winner: it reaches its target or not."""
    if game.nplayers == 1:
        total = scores[0]["total"]
        target = game.rules.solo_target
        if target is None:
            return f"Solo game: {plural(total, 'point')}"
        if total >= target:
            return f"Target {plural(target, 'point')}: reached with {total}"
        return f"Target {plural(target, 'point')}: not reached ({total}, {target - total} short)"
    teams = game.team_scores(scores)
    if teams:
        top = max((t["total"], t["tie_break"]) for t in teams)
        won = [t["team"] for t in teams if (t["total"], t["tie_break"]) == top]
        return ("Winning team: " if len(won) == 1 else "Shared win: teams ") + ", ".join(won)
    order = game.ranking()
    best = scores[order[0]]
    winners = [game.players[i].name for i in order
               if scores[i]["total"] == best["total"] and scores[i]["tie_break"] == best["tie_break"]]
    return ("Winner: " if len(winners) == 1 else "Shared win: ") + ", ".join(winners)


def bonus_lines(game) -> list:
    """'Bonus points of P1: 3 from <card>, 1 from the rules' for each player who has any."""
    out = []
    for p in game.players:
        found = bonus_from(p)
        parts = [f"{n} from {source_name(game, src) if src else 'the rules'}"
                 for src, n in sorted(found.items(), key=lambda kv: (-kv[1], kv[0])) if n]
        rest = p.bonus - sum(found.values())
        if rest:
            parts.append(f"{rest} from elsewhere")
        if parts:
            out.append(f"Bonus points of {p.name}: " + ", ".join(parts))
    return out


# ---------------------------------------------------------------- farmyards

def farmyard(game, p) -> str:
    """``p``'s farm as text: rooms (by material), fields and their crops, stables, pastures inside their
    fences, unused spaces; then the family, animals, goods and cards."""
    gr = p.grid
    rows, cols = gr.rows, gr.cols
    h_count = (rows + 1) * cols
    fences = p.fences
    fenced = p.fenced_mask()
    tiles = p.tile_mask()

    def h(r, c):  # the fence above row r, column c
        return 0 <= c < cols and fences >> (r * cols + c) & 1

    def v(r, c):  # the fence left of row r, column c
        return 0 <= r < rows and fences >> (h_count + r * (cols + 1) + c) & 1

    def corner(r, c):
        return "+" if h(r, c - 1) or h(r, c) or v(r - 1, c) or v(r, c) else " "

    def content(i):
        bit = 1 << i
        if p.rooms & bit:
            return p.house
        if i in p.fields:
            crop, n = p.fields[i]
            return goods(game, ((crop, n),)) if crop and n else "field"
        if p.stables & bit:
            return "stable"
        if fenced & bit:
            return ""
        if tiles & bit:
            return "pasture"
        return "."

    cells = [content(i) for i in range(rows * cols)]
    width = max(7, max(len(t) for t in cells) + 2)
    lines = [("   " + "".join(" " + str(c + 1).center(width) for c in range(cols))).rstrip()]
    for r in range(rows + 1):
        edge = "   " + "".join(corner(r, c) + ("-" * width if h(r, c) else " " * width) for c in range(cols))
        lines.append((edge + corner(r, cols)).rstrip())
        if r == rows:
            break
        row = f" {gr.name(r * cols)[0]} " + "".join(("|" if v(r, c) else " ") + cells[r * cols + c].center(width)
                                                    for c in range(cols))
        lines.append((row + ("|" if v(r, cols) else "")).rstrip())
    animals = [(a, p.goods[a]) for a in game.rules.animals if p.goods[a]]
    others = [(good, n) for good, n in p.goods.items() if n and good not in game.rules.animals]
    about = [f"{p.house} house with {plural(p.room_count, 'room')}", f"family of {p.people}",
             f"{plural(len(p.pastures), 'pasture')}, {plural(popcount(p.stables), 'stable')}"]
    if p.tile_pastures:
        about[-1] = f"{plural(len(p.tile_pastures), 'pasture tile')}, {plural(popcount(p.stables), 'stable')}"
    lines.append("   " + "; ".join(about))
    lines.append(f"   animals: {goods(game, animals)}; supply: {goods(game, others)}")
    card_fields = [(k, f) for k, f in sorted(p.fields.items()) if k < 0]
    if card_fields:
        names = p.card_state.get("field_cards", {})
        lines.append("   fields on cards: " + ", ".join(
            f"{source_name(game, names.get(k)) or 'card'} ({f[1]} {f[0]})" if f[1] else
            f"{source_name(game, names.get(k)) or 'card'} (empty)" for k, f in card_fields))
    cards = [game.card(c).name for c in p.majors + p.minors + p.occupations]
    if cards:
        lines.append("   cards: " + ", ".join(cards))
    if p.begging:
        lines.append(f"   {plural(p.begging, 'begging card')}")
    return "\n".join(lines)


def farmyards(game) -> str:
    """Every player's farmyard, one after the other."""
    return "\n\n".join(f"Farmyard of {p.name}\n{farmyard(game, p)}" for p in game.players)

