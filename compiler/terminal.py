"""Playing and watching in the terminal: ``agricola play --agents human,…`` and ``agricola watch SAVE``.

A person's seat is held open (compiler/table.py); at each of their requests the terminal shows what the
agents did since, the board at a placement, the person's farmyard drawn as text, and the legal options
numbered. Commands at the prompt are listed by ``help``; the loop reads lines from a stream, so tests
drive it through a pseudo-terminal or a pipe alike.
"""
from __future__ import annotations

from runtime.gamelog import goods
from runtime.report import farmyard, score_table
from runtime.words import plural

from .table import Table, explain, readable_labels

PLAY_HELP = """\
  NUMBER     take that option (or type the option's label)
  u          take back your last decision
  ?          what this request asks
  b          the board: action spaces, their goods and people, the round cards
  f [P2]     your farmyard, or another player's (f all: every farm)
  h          your hand
  s          the scores so far
  l          the last lines of the log
  q          stop playing (a game saved with --save can be resumed)"""

WATCH_HELP = """\
  (enter), n   the next decision
  b            back one decision
  r N          jump to the start of round N
  e            the end of the game
  f [P2]       the farms (every farm, or one player's)
  s            the scores so far
  q            stop watching"""


def board_text(game) -> str:
    """The action spaces in play (goods on them, who is there) and the round cards, as text."""
    view = game.view()
    width = max(len(s["name"]) for s in view["board"]) + 2
    lines = [f"Round {view['round']} of {view['last_round']}"
             + (f", stage {view['stage']}" if view["stage"] else "")
             + (" (harvest at its end)" if view["round"] in view["harvest_rounds"] else "")]
    for s in view["board"]:
        mark = f"[round {s['round']}] " if s["round"] is not None else ""
        on = goods(game, list(s["goods"].items())) if s["goods"] else ""
        who = ", ".join(s["occupants"])
        lines.append(f"  {s['name'].ljust(width)}{mark}{on}{('   <- ' + who) if who else ''}".rstrip())
    lines.append(f"  {plural(view['hidden_round_cards'], 'round card')} still face down")
    supply = ", ".join(m["name"] for m in view["major_supply"])
    if supply:
        lines.append(f"  Major improvements: {supply}")
    return "\n".join(lines)


def hand_text(game, seat: int, texts=None) -> str:
    """The cards in the hand of the player at ``seat``, each with its text from ``texts`` (id -> text)."""
    p = game.players[seat]
    lines = []
    for title, ids in (("Occupations", p.hand_occupations), ("Minor improvements", p.hand_minors)):
        lines.append(f"{title} in hand: {len(ids) or 'none'}")
        for cid in ids:
            text = (texts or {}).get(cid)
            lines.append(f"  {game.card(cid).name}" + (f": {text}" if text else ""))
    return "\n".join(lines)


def scores_text(game) -> str:
    return "Scores so far: " + ", ".join(f"{p.name} {game.score(p)['total']}" for p in game.players)


def farm_text(game, seat: int) -> str:
    p = game.players[seat]
    return f"Farmyard of {p.name}\n{farmyard(game, p)}"


def _seats_named(game, text: str, default: int) -> list[int] | None:
    """The seats a 'f' command names: none -> ``default``, 'all', or P1 / 1 …"""
    word = text.strip().lower()
    if not word:
        return [default]
    if word == "all":
        return list(range(game.nplayers))
    if word.startswith("p"):
        word = word[1:]
    if word.isdigit() and 1 <= int(word) <= game.nplayers:
        return [int(word) - 1]
    return None


class TerminalPlay:
    """The read-answer loop of ``agricola play`` with people at some seats."""

    def __init__(self, table: Table, read, write, after=None, card_texts=None):
        self.table = table
        self.read = read      # returns the next line, or None at the end of the input
        self.write = write
        self.after = after    # called after each decision (saving)
        self.shown = 0        # log lines shown so far
        # returns the cards' texts (id -> text): called at the first 'h' only, as it checks the pack's sources
        self.card_texts = card_texts
        self._texts = None

    def run(self) -> bool:
        """Play until the game is over (True) or the person stops (False)."""
        request = self.table.game.run()
        while request is not None:
            self._news()
            self._show(request)
            request, stop = self._ask(request)
            if stop:
                return False
        self._news()
        return True

    def _news(self):
        log = self.table.game.log or []
        if self.shown < len(log):
            self.write("\n".join(log[self.shown:]))
        self.shown = len(log)

    def _show(self, request):
        game = self.table.game
        if request.kind == "place":
            self.write("")
            self.write(board_text(game))
            self.write(farm_text(game, request.seat))
        self._options(request)

    def _options(self, request):
        labels = readable_labels(request)
        self.write(f"\n{request.player.name}, decision {request.number} ({request.kind})"
                   + (f": {request.prompt}?" if request.prompt else ":"))
        for i, label in enumerate(labels):
            self.write(f"  {i + 1:>3}. {label}")

    def _ask(self, request):
        """Read commands until one answers the request; returns (next request, stopped)."""
        game = self.table.game
        seat = request.seat
        while True:
            line = self.read(f"{request.player.name}> ")
            if line is None:
                self.write("\nend of input: the game stops here")
                return request, True
            text = line.strip()
            word, _, rest = text.partition(" ")
            if not text:
                continue
            if text in ("q", "quit"):
                return request, True
            if text in ("?", "help"):
                self.write(explain(request))
                self.write("Commands:\n" + PLAY_HELP)
            elif text == "u":
                if self.table.undo(seat):
                    self.shown = len(self.table.game.log or [])
                    self.write(f"taken back: {request.player.name} is at that decision again")
                    if self.after is not None:
                        self.after()
                    new = self.table.game.pending
                    self._show(new)
                    return self._ask(new)
                self.write("nothing to take back: you have taken no decision yet")
            elif text == "b":
                self.write(board_text(game))
            elif word == "f":
                seats = _seats_named(game, rest, seat)
                if seats is None:
                    self.write(f"no player {rest.strip()!r}: give P1 … P{game.nplayers} or 'all'")
                else:
                    self.write("\n\n".join(farm_text(game, s) for s in seats))
            elif text == "h":
                if self._texts is None and self.card_texts is not None:
                    self._texts = self.card_texts()
                self.write(hand_text(game, seat, self._texts))
            elif text == "s":
                self.write(scores_text(game))
            elif text == "l":
                self.write("\n".join((game.log or [])[-30:]) or "(the log is empty)")
            elif text == "o":
                self._options(request)
            else:
                index = self._index(request, text)
                if index is None:
                    self.write(f"not an option: {text[:40]!r}; type 1 to {len(request.options)}, or ? for help")
                    continue
                nxt = self.table.answer(index)
                if self.after is not None:
                    self.after()
                return nxt, False

    @staticmethod
    def _index(request, text: str):
        if text.isdigit():
            n = int(text)
            return n - 1 if 1 <= n <= len(request.options) else None
        for labels in (request.labels, readable_labels(request)):
            if text in labels:
                return labels.index(text)
        return None


def ask_choice(read, write, who: str, prompt: str, labels) -> int | None:
    """Ask a person at the terminal to pick one of ``labels`` (by number or label) outside a game's
    requests (a campaign's occupation to keep); the index, or None when they stop (``q``, end of input)."""
    write(f"{who}: {prompt}")
    for i, label in enumerate(labels, 1):
        write(f"  {i}. {label}")
    while True:
        line = read(f"{who}> ")
        if line is None or line.strip() == "q":
            return None
        text = line.strip()
        if text.isdigit() and 1 <= int(text) <= len(labels):
            return int(text) - 1
        if text in labels:
            return list(labels).index(text)
        write(f"type a number from 1 to {len(labels)} (or q to stop)")


def finish_text(game) -> str:
    """The farms and the score table at the end of a game."""
    from runtime.report import farmyards
    return f"\n{farmyards(game)}\n\n{score_table(game)}"


class Watch:
    """Stepping through a saved game: decision by decision, back, to a round, to the end."""

    def __init__(self, doc: dict, pack, read, write):
        self.doc, self.pack = doc, pack
        self.decisions = doc["decisions"]
        self.read, self.write = read, write
        self.at = 0
        self.game = self._at(0)

    def _at(self, k: int):
        """The game after ``k`` logged decisions (stopped at the next one, or at the end)."""
        specs = [{"kind": "open"}] * self.doc["players"]
        table = Table(self.pack, self.doc["players"], self.doc["seed"], specs, self.decisions[:k],
                      decks=self.doc.get("decks"), setup=self.doc.get("setup"))
        self.at = k
        return table.game

    def run(self) -> None:
        self.write(f"{self.pack.rules.name}: a game of {plural(self.doc['players'], 'player')}, seed "
                   f"{self.doc['seed']}, {plural(len(self.decisions), 'decision')}; ? for the commands")
        self._show(self.game, 0)
        while True:
            line = self.read(f"watch {self.at}/{len(self.decisions)}> ")
            if line is None or line.strip() == "q":
                return
            text = line.strip()
            word, _, rest = text.partition(" ")
            before = len(self.game.log or [])
            if text in ("", "n"):
                if self.at >= len(self.decisions):
                    self.write("the end of the saved game" + (" (it is over)" if self.game.finished else ""))
                    continue
                self.game = self._at(self.at + 1)
                self._show(self.game, before)
            elif text == "b":
                if self.at == 0:
                    self.write("at the start of the game")
                    continue
                self.game = self._at(self.at - 1)
                self._show(self.game, len(self.game.log or []))
            elif word == "r" and rest.strip().isdigit():
                self._jump_to_round(int(rest))
            elif text == "e":
                self.game = self._at(len(self.decisions))
                self._show(self.game, before)
            elif word == "f":
                seats = _seats_named(self.game, rest or "all", 0)
                if seats is None:
                    self.write(f"no player {rest.strip()!r}")
                else:
                    self.write("\n\n".join(farm_text(self.game, s) for s in seats))
            elif text == "s":
                self.write(scores_text(self.game))
            elif text in ("?", "help"):
                self.write("Commands:\n" + WATCH_HELP)
            else:
                self.write(f"unknown command {text[:40]!r}; ? for the commands")

    def _jump_to_round(self, r: int):
        last = self.pack.rules.last_round
        if not 1 <= r <= last:
            self.write(f"no round {r}: rounds 1 to {last}")
            return
        # the first decision taken in round r: the round only grows with the decisions (a binary search)
        lo, hi = 0, len(self.decisions)
        while lo < hi:
            mid = (lo + hi) // 2
            if self._at(mid).round >= r:
                hi = mid
            else:
                lo = mid + 1
        self.game = self._at(lo)
        self.write(board_text(self.game))
        self._show(self.game, 0 if lo == 0 else len(self.game.log or []))
        if self.game.round < r:
            self.write(f"the saved game stops before round {r}")

    def _show(self, game, since: int):
        log = game.log or []
        if since < len(log):
            self.write("\n".join(log[since:]))
        if self.at:
            pi, kind, option = self.decisions[self.at - 1]
            self.write(f"-- decision {self.at}: P{pi + 1} {kind}")
            self.write(farm_text(game, pi))
        if game.finished:
            self.write(finish_text(game))
        elif game.pending is not None:
            self.write(f"next: decision {game.pending.number}, {game.pending.player.name} ({game.pending.kind}); "
                       f"round {game.round}")
