"""Text reports: the final score table by category."""
from __future__ import annotations


def score_table(game) -> str:
    scores = game.scores or [game.score(p) for p in game.players]
    names = [s["player"] for s in scores]
    labels = {cid: label for cid, label, fn in game.rules.scoring}
    width = max([len(v) for v in labels.values()] + [len("Total"), len("Tie-break (resources)")]) + 2
    col = max(6, max(len(n) for n in names) + 2)
    lines = ["Final scores", "".ljust(width) + "".join(n.rjust(col) for n in names)]
    for cid, label in labels.items():
        lines.append(label.ljust(width) + "".join(str(s["categories"][cid]).rjust(col) for s in scores))
    lines.append("-" * (width + col * len(names)))
    lines.append("Total".ljust(width) + "".join(str(s["total"]).rjust(col) for s in scores))
    lines.append("Tie-break (resources)".ljust(width) + "".join(str(s["tie_break"]).rjust(col) for s in scores))
    order = game.ranking()
    best = scores[order[0]]
    winners = [game.players[i].name for i in order
               if scores[i]["total"] == best["total"] and scores[i]["tie_break"] == best["tie_break"]]
    lines.append("")
    lines.append(("Winner: " if len(winners) == 1 else "Shared win: ") + ", ".join(winners))
    return "\n".join(lines)
