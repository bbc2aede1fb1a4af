"""Events and the cards in play: running an event's listeners in the defined order, cards coming into play
(lasting effects, 'once' rules) and leaving it.

A part of ``runtime.engine.Game``, chained on ``runtime.gamefields.GameFields`` (the fields)."""
from __future__ import annotations

from mypy_extensions import mypyc_attr

from . import primitives as P, gamelog, history
from .payments import price_cache_for
from .decisions import Decisions
from .state import Ctx, Exchange, Player


@mypyc_attr(allow_interpreted_subclasses=True)
class CardsInPlay(Decisions):
    def emit(self, key: str, actor: Player, ctx=None):
        """Run the listeners of an event in the defined order (docs/language.md, 4.1.4): by seat from
        the actor clockwise, and for one player in the order their cards came into play (a card's rules in
        line order). Listeners added while it runs (a card played by another listener) run after them. A
        listener that could do nothing (it returns None) gets one more chance after the others, so that
        goods one card gives can pay for what another card offers."""
        hooks = self.listeners.get(key)
        if hooks:   # (most events have no listener: this test alone, without setting up the run below)
            self._run_listeners(hooks, key, actor, ctx)

    def _run_listeners(self, hooks: list, key: str, actor: Player, ctx) -> None:
        """emit's run of the listeners ``hooks`` of the event ``key``."""
        c = ctx or Ctx(actor=actor)
        cards = P.via_cards(self.pack)
        outer = self.via
        outer_event = self.event_id   # '(once per event)': this event's number while its rules run
        self.event_seq += 1
        self.event_id = self.event_seq
        if self.counters:   # history counters count the event before any rule reacts to it (4.7)
            history.count(self, key, actor, c)
        retry = []
        fired = False
        n, first = self.nplayers, actor.idx
        done = 0
        while done < len(hooks):
            batch = hooks[done:]
            done = len(hooks)
            if len(batch) > 1 and n > 1:
                batch = sorted(batch, key=lambda h: (h[0] - first) % n)  # stable: play order within a seat
            for owner, handler, who in batch:
                if who == "you" and owner != actor.idx:
                    continue
                if who == "other" and owner == actor.idx:
                    continue
                self.via = cards.get(handler)   # the events its body makes were made by this card (event_via)
                if self.log is None:
                    result = handler(self, self.players[owner], c)
                else:
                    result = gamelog.run_card_effect(self, handler, self.players[owner], c)
                if result is None:
                    retry.append((owner, handler))
                else:
                    fired = True
        if retry and fired and len(retry) < len(hooks):
            for owner, handler in retry:
                self.via = cards.get(handler)
                if self.log is None:
                    handler(self, self.players[owner], c)
                else:
                    gamelog.run_card_effect(self, handler, self.players[owner], c)
        self.via = outer
        self.event_id = outer_event

    def exchanges_of(self, p: Player) -> list[Exchange]:
        """The exchanges of ``p`` open now: the rules' and the cards'; a card's exchange with a guard ('any
        time if has(#oven): …') only while the guard holds (docs/language.md 1.6)."""
        guards = p.mods.get("exchange_guards") if p.mods else None
        if not guards:
            out = self._base_exchanges + p.exchanges
        else:
            closed = frozenset(key for key, cond in guards if not cond(self, p))
            if closed != p.mods.get("exchanges_closed", frozenset()):
                p.mods["exchanges_closed"] = closed
                p.producible = None   # the goods the exchanges make changed (payments._index)
            out = self._base_exchanges + [e for e in p.exchanges if e[5] not in closed]
        if p.mods and p.mods.get("exchange_counts"):   # '(at most (<expr>) times)': worked out now
            out = [e if not callable(e[3]) else e[:3] + (max(0, e[3](self, p)),) + e[4:] for e in out]
        return out

    def acquire_card(self, p: Player, card):
        """Put a card's lasting effects into play for ``p`` and run its on-play effects."""
        if self.pack.records_rounds:   # round_played(…): the round the card came into play
            p.card_state.setdefault("played_round", {})[card.id] = self.round
        self.install_card(p, card)
        if card.modifiers and not P.animals_fit(self, p):
            P.settle_animals(self, p)   # a card that lowers a capacity ('capacity of house = 0'): some must go
        self.run_on_play(p, card)
        self.check_latches()

    def check_latches(self):
        """Fire every 'once <condition>' rule whose condition now holds (each fires at most once)."""
        if self.latches:   # (most often none: this test alone, without setting up the run below)
            self._fire_latches()

    def _fire_latches(self) -> None:
        """check_latches' run over the 'once' rules waiting."""
        n, first = self.nplayers, self.start_player
        for entry in sorted(self.latches, key=lambda e: (e[0] - first) % n):  # seat order (4.1.4)
            owner, cond, handler, cid = entry
            p = self.players[owner]
            if entry in self.latches and cond(self, p):
                self.latches.remove(entry)
                outer, self.via = self.via, self.card(cid)
                if self.log is None:
                    handler(self, p, Ctx(actor=p))
                else:
                    gamelog.run_card_effect(self, handler, p, Ctx(actor=p))
                self.via = outer

    def install_card(self, p: Player, card):
        """Put a card's lasting effects (exchanges, bake rates, listeners, modifiers) into play for ``p``."""
        guards = dict(card.exchange_guards) if card.exchange_guards else None
        for i, (give, get, window, at_most) in enumerate(card.exchanges):
            # the key of its limit: 'x:…' counts afresh at each harvest, 'xg:…' over the game (1.6)
            key = f"{'xg' if i in card.exchange_game_limits else 'x'}:{card.id}:{len(p.exchanges)}"
            p.exchanges.append((give, get, window, at_most, card.id, key))
            if i in card.exchange_offers:   # other players may buy what it takes (primitives.use_exchange)
                p.mods.setdefault("exchange_offers", []).append((key, card.exchange_offers[i]))
            if callable(at_most):
                p.mods["exchange_counts"] = True
            if guards and i in guards:
                p.mods.setdefault("exchange_guards", []).append((key, guards[i]))
        for give, get, at_most in card.bake:
            p.bake_rates.append((give, get, at_most, card.id))
        for key, handler, who in card.listeners:
            self.listeners.setdefault(key, []).append((p.idx, handler, who))
        if card.snapshots:
            self.snapshots.update(card.snapshots)
        if card.counters:
            history.register(self, card)
            history.started(self, p, card)
        for apply in card.modifiers:
            apply(self, p, card)
        if card.modifiers:  # p.mods changed: prices cached for the old ones are void (payments.cost_options)
            p.prices = price_cache_for(p)
        for cond, handler in card.latches:
            self.latches.append((p.idx, cond, handler, card.id))
        for window, can, do, label in card.actions:
            p.actions.append((window, can, do, label, card.id))
        p.turn_abilities = P.has_window_abilities(p, self)
        if card.exchanges:   # what payments keep about the exchanges is void (only this adds to them)
            p.producible = None

    def run_on_play(self, p: Player, card):
        outer, self.via = self.via, card
        for handler in card.on_play:
            if self.log is None:
                handler(self, p, Ctx(actor=p, card=card))
            else:
                gamelog.run_card_effect(self, handler, p, Ctx(actor=p, card=card))
        self.via = outer

    def release_card(self, p: Player, cid):
        """Take a returned card's lasting effects out of play (an upgraded improvement)."""
        p.exchanges = [e for e in p.exchanges if e[4] != cid]
        p.bake_rates = [b for b in p.bake_rates if b[3] != cid]
        p.actions = [a for a in p.actions if a[4] != cid]
        p.turn_abilities = P.has_window_abilities(p, self)
        p.producible = None
        card = self.card(cid)
        for key, handler, who in card.listeners:
            hooks = self.listeners.get(key, [])
            for i, h in enumerate(hooks):
                if h[0] == p.idx and h[1] is handler:
                    del hooks[i]
                    break
            if not hooks:  # self.listeners names only events someone listens to
                self.listeners.pop(key, None)

