"""The game as a library: a game held open (pending request, one answer at a time), clone(), the JSON
state view, save and restore at any request (docs/api.md)."""
from __future__ import annotations

import gc
import json
import random
import weakref

import pytest

from runtime.agents import GreedyAgent, RandomAgent
from runtime.engine import Game, GameOver, IllegalDecision, NoAgent
from runtime.requests import Request
from runtime.savegame import read_save, restore, save_game, state_hash


class SamePicks:
    """Answers a held-open game as RandomAgent(seed) would (same generator, same formula)."""

    def __init__(self, seed):
        self.agent = RandomAgent(seed)

    def pick(self, request):
        return int(self.agent.rng.random() * len(request.options))


def _batch(pack, n, seed):
    g = Game(pack, n, seed=seed, agents=[RandomAgent(f"{seed}:{i}") for i in range(n)])
    g.play()
    return g


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_a_game_held_open_is_the_same_game_as_with_agents(revised, n):
    for seed in range(6):
        want = _batch(revised, n, seed)
        g = Game(revised, n, seed=seed)
        pickers = [SamePicks(f"{seed}:{i}") for i in range(n)]
        request = g.run()
        asked = 0
        while request is not None:
            assert isinstance(request, Request) and g.pending is request
            assert request.number == g.decisions + 1 and len(request.options) >= 2
            request = g.answer(pickers[request.seat].pick(request))
            asked += 1
        assert g.finished and g.pending is None
        assert asked == g.decisions == want.decisions
        assert g.record == want.record
        assert g.scores == want.scores and state_hash(g) == state_hash(want)


def test_seats_with_agents_answer_at_once_and_open_seats_wait(family):
    g = Game(family, 3, seed=5, agents=[None, RandomAgent("b"), RandomAgent("c")])
    request = g.run()
    rng = random.Random(1)
    while request is not None:
        assert request.seat == 0 and request.player is g.players[0]
        request = g.answer(rng.randrange(len(request.options)))
    assert g.finished
    assert {pi for pi, kind, option in g.record} == {0, 1, 2}


def test_an_answer_costs_one_decision_not_a_replay(family, monkeypatch):
    g = Game(family, 2, seed=2)
    request = g.run()
    engine = g._engine
    monkeypatch.setattr(Game, "replay", lambda *a, **k: pytest.fail("answer() replayed the log"))
    monkeypatch.setattr(Game, "_setup", lambda *a, **k: pytest.fail("answer() built a new game"))
    while request is not None:
        before = g.decisions
        request = g.answer(0)
        assert g.decisions == before + 1
        assert g._engine is engine
    assert g.finished


def test_a_wrong_answer_changes_nothing(family):
    g = Game(family, 2, seed=3)
    request = g.run()
    before = (g.decisions, state_hash(g), request.labels)
    for bad in (-1, len(request.options), "0", 1.0, True, None):
        with pytest.raises(IllegalDecision, match="is not an option number of this 'place' request"):
            g.answer(bad)
    with pytest.raises(IllegalDecision, match="'nowhere' is not an option of this 'place' request; options: "):
        g.answer_label("nowhere")
    assert g.pending is request
    assert (g.decisions, state_hash(g), request.labels) == before
    label = request.labels[1]
    assert g.answer_label(label) is g.pending
    assert g.record[-1] == (request.seat, "place", request.options[1])


def test_answers_after_the_end_and_before_the_start(family):
    g = Game(family, 1, seed=1)
    with pytest.raises(GameOver, match="no request is pending: call run\\(\\) first"):
        g.answer(0)
    request = g.run()
    while request is not None:
        request = g.answer(0)
    assert g.run() is None
    with pytest.raises(GameOver, match="the game is over: no request is pending"):
        g.answer(0)


def test_play_needs_an_agent_at_every_seat(family):
    g = Game(family, 2, seed=1, agents=[RandomAgent(1), None])
    with pytest.raises(NoAgent, match="P2 has no agent to answer a 'place' request"):
        g.play()
    assert g.pending is not None and g.pending.seat == 1  # held open there: answer() goes on
    g.answer(0)


def test_requests_read_as_json(revised):
    g = Game(revised, 2, seed=4)
    request = g.run()
    data = request.to_json()
    json.dumps(data)
    assert data["kind"] == "place" and data["player"] == g.players[data["seat"]].name
    assert [o["index"] for o in data["options"]] == list(range(len(request.options)))
    assert [o["label"] for o in data["options"]] == request.labels
    assert [o["value"] for o in data["options"]] == list(request.options)


def _play_to(g, decisions, rng):
    request = g.run()
    while request is not None and g.decisions < decisions:
        request = g.answer(rng.randrange(len(request.options)))
    return request


def _finish(g, rng):
    request = g.pending or g.run()
    while request is not None:
        request = g.answer(rng.randrange(len(request.options)))
    return g


def test_clone_is_an_independent_game_at_the_same_request(revised):
    for seed, at in ((1, 0), (2, 15), (3, 40), (4, 70)):
        g = Game(revised, 3, seed=seed)
        request = _play_to(g, at, random.Random(seed))
        c = g.clone()
        assert c.pending is not None and c.pending.number == request.number
        assert (c.pending.seat, c.pending.kind, c.pending.labels) == (request.seat, request.kind, request.labels)
        assert c.record == g.record and state_hash(c) == state_hash(g)
        other = _finish(c.clone(), random.Random(99))      # a clone of the clone goes elsewhere
        assert other.finished and g.pending is request and state_hash(c) == state_hash(g)
        _finish(g, random.Random(7))
        _finish(c, random.Random(7))
        assert c.record == g.record and c.scores == g.scores and state_hash(c) == state_hash(g)


def test_clone_copies_agents_in_their_current_state(family):
    g = Game(family, 2, seed=6, agents=[None, RandomAgent("x")])
    _play_to(g, 20, random.Random(0))
    c = g.clone()
    assert c.agents[1] is not g.agents[1]
    _finish(g, random.Random(3))
    _finish(c, random.Random(3))
    assert c.record == g.record and c.scores == g.scores


def test_clone_from_inside_an_agent_at_its_own_decision(family):
    """A search agent clones the game at its own request: the clone stops at that request, held open."""
    seen = []

    class Peeking(RandomAgent):
        def choose(self, game, player, kind, options, labels=None, prompt=None):
            if game.decisions in (5, 30):
                c = game.clone(agents=[None] * game.nplayers)
                seen.append((c.pending.seat, c.pending.kind, c.pending.options, player.idx, kind, tuple(options)))
                _finish(c, random.Random(0))
            return super().choose(game, player, kind, options, labels, prompt)

    g = Game(family, 2, seed=8, agents=[Peeking("a"), Peeking("b")])
    g.play()
    assert len(seen) == 2
    for seat, kind, options, want_seat, want_kind, want_options in seen:
        assert (seat, kind, options) == (want_seat, want_kind, want_options)
    want = Game(family, 2, seed=8, agents=[RandomAgent("a"), RandomAgent("b")])
    want.play()
    assert g.record == want.record and g.scores == want.scores  # cloning changed nothing in the game itself


def test_a_clone_of_a_game_with_agents_stops_at_the_same_point(revised):
    """Cloned from inside an agent with copies of the agents: the clone waits at that agent's request;
    run() lets the copied agents go on, and they play the game to the same end as the original."""
    clones = []

    class Cloning(RandomAgent):
        def choose(self, game, player, kind, options, labels=None, prompt=None):
            if game.decisions == 25 and not clones:
                clones.append(game.clone())
            return super().choose(game, player, kind, options, labels, prompt)

    g = Game(revised, 2, seed=12, agents=[Cloning("a"), Cloning("b")])
    g.play()
    c = clones[0]
    assert c.pending is not None and c.pending.number == 26 and c.agents[0] is not g.agents[0]
    assert c.run() is None and c.finished
    assert c.record == g.record and c.scores == g.scores


def test_greedy_agents_still_look_ahead_with_a_state_copy(family):
    g = Game(family, 2, seed=2, agents=[GreedyAgent(), RandomAgent("r")])
    g.play()
    assert g.finished and g.scores[0]["total"] > g.scores[1]["total"]


def test_save_and_restore_at_any_request(revised, tmp_path):
    rng = random.Random(5)
    for cut in (0, 1, 17, 60):
        g = Game(revised, 2, seed=11, agents=[None, RandomAgent("11:1")])
        request = _play_to(g, cut, rng)
        path = tmp_path / f"at{cut}.json"
        doc = save_game(g, path)
        assert doc["agents"] == [{"kind": "open"}, {"kind": "random", "seed": "11:1"}]
        back, recorder, pending = restore(read_save(path), revised)
        again = back.run()
        assert not pending
        assert (again.number, again.seat, again.kind, again.labels) == \
            (request.number, request.seat, request.kind, request.labels)
        assert state_hash(back) == state_hash(g)
        _finish(g, random.Random(cut))
        _finish(back, random.Random(cut))
        assert back.record == g.record and back.scores == g.scores


def test_the_state_view_is_json_and_hides_other_hands(revised):
    g = Game(revised, 3, seed=2)
    request = _play_to(g, 25, random.Random(2))
    me = request.seat
    view = g.view(seat=me)
    assert json.loads(json.dumps(view)) == view
    assert view["format"] == "agricola-view" and view["version"] == 1
    assert view["player_count"] == 3 and len(view["players"]) == 3
    for pv in view["players"]:
        p = g.players[pv["seat"]]
        if pv["seat"] == me:
            assert pv["hand"] == {"occupations": p.hand_occupations, "minors": p.hand_minors}
        else:
            assert pv["hand"] is None
        assert pv["hand_size"] == {"occupations": len(p.hand_occupations), "minors": len(p.hand_minors)}
        assert pv["score"]["total"] == g.score(p)["total"]
        assert len(pv["farmyard"]["cells"]) == 15
        assert sum(c["kind"] == "room" for c in pv["farmyard"]["cells"]) == p.room_count
        assert pv["animals"] == {a: p.goods[a] for a in g.rules.animals}
    assert view["pending"]["options"] == request.to_json()["options"]
    spectator = g.view()
    assert all(pv["hand"] is None for pv in spectator["players"])
    assert spectator["pending"]["options"] is None and spectator["pending"]["kind"] == request.kind
    assert all(pv["hand"] is not None for pv in g.view(everything=True)["players"])
    revealed = [b for b in view["board"] if b["round"] is not None]
    assert [(c["round"], c["id"]) for c in view["round_cards"]] == sorted((b["round"], b["id"]) for b in revealed)
    assert len(revealed) == g.round
    occupied = {p: [b["id"] for b in view["board"] if p in b["occupants"]] for p in ("P1", "P2", "P3")}
    assert occupied == {p.name: [s.id for s in g.spaces if p.idx in s.occupants] for p in g.players}


def test_the_state_view_counts_the_decisions_and_names_the_round_cards(revised):
    g = Game(revised, 2, seed=2)
    _play_to(g, 25, random.Random(2))
    view = g.view(seat=0)
    assert sorted(view) == ["board", "decisions", "finished", "format", "harvest_rounds", "hidden_round_cards",
                            "last_round", "major_supply", "pack", "pending", "player_count", "players", "round",
                            "round_cards", "scores", "seat", "stage", "start_player", "teams", "tile_supply",
                            "version", "work_phase"]
    assert view["decisions"] == 25 and view["round"] == 5
    assert view["round_cards"] == [
        {"round": 1, "id": "grain_utilization", "name": "Grain Utilization"},
        {"round": 2, "id": "major_improvement", "name": "Major Improvement"},
        {"round": 3, "id": "sheep_market", "name": "Sheep Market"},
        {"round": 4, "id": "fencing", "name": "Fencing"},
        {"round": 5, "id": "house_redevelopment", "name": "House Redevelopment"}]
    assert view["hidden_round_cards"] == 9


def test_the_state_view_shows_each_fenced_pasture_with_its_spaces_and_stables(revised):
    g = Game(revised, 2, seed=0)
    p = g.players[0]
    gr = p.grid
    large, small = gr.mask_from_names("A4+A5+B4+B5"), gr.mask_from_names("C5")
    p.pastures = tuple(sorted((large, small)))
    p.stables = gr.mask_from_names("A4+B5+C5")
    view = g.view(seat=0)["players"][0]
    assert sorted(view["pastures"], key=lambda t: len(t["cells"])) == [
        {"cells": ["C5"], "stables": 1}, {"cells": ["A4", "A5", "B4", "B5"], "stables": 2}]
    cells = {c["cell"]: c for c in view["farmyard"]["cells"]}
    assert {name: (cells[name]["kind"], cells[name]["stable"]) for name in ("A4", "A5", "C5", "C4")} == {
        "A4": ("pasture", True), "A5": ("pasture", False), "C5": ("pasture", True), "C4": ("empty", False)}
    assert [view["pastures"][cells[name]["pasture"]]["cells"][0] for name in ("A4", "B5", "C5")] == [
        "A4", "A4", "C5"]


def test_an_abandoned_game_held_open_is_freed(family):
    refs, loops = [], []
    for seed in range(1000, 1020):
        g = Game(family, 2, seed=seed)
        _play_to(g, 10, random.Random(seed))
        assert g.pending is not None
        refs.append(weakref.ref(g._holder))   # only the caller's game holds it (a compiled game has no weak refs)
        loops.append(g._engine)
        del g
    gc.collect()
    assert sum(r() is not None for r in refs) == 0
    assert all(loop.dead for loop in loops)   # each game loop was unwound
    left = [o for o in gc.get_objects() if isinstance(o, Game) and 1000 <= o.seed < 1020]
    assert left == []  # the game loop's own handle on the state is gone too


def test_a_game_held_open_is_answered_in_the_thread_that_started_it(family):
    import threading
    g = Game(family, 2, seed=1)
    g.run()
    errors = []
    worker = threading.Thread(target=lambda: _catch(errors, g.answer, 0))
    worker.start()
    worker.join()
    assert [str(e) for e in errors] == ["a game held open is answered in the thread that started it; to move it, "
                                        "save it and restore it there (runtime.savegame)"]
    assert g.answer(0) is g.pending  # still fine in its own thread


def test_a_game_held_open_in_another_thread_is_freed_quietly(family):
    """A game started (and left waiting) in a worker thread and freed in this one: its game loop cannot be
    unwound from here (greenlet unwinds it in its own thread); freeing it raises nothing."""
    import threading
    box = []
    worker = threading.Thread(target=lambda: box.append(Game(family, 2, seed=1)) or box[0].run())
    worker.start()
    worker.join()
    assert box[0].pending is not None
    assert _freed_quietly(box) == (True, [])


def _freed_quietly(box):
    """Drop the game held in ``box`` and collect it: (whether it was freed, what its finaliser raised)."""
    import sys
    ref = weakref.ref(box[0]._holder)   # freed with the game, which alone holds it
    errors = []
    old, sys.unraisablehook = sys.unraisablehook, lambda u: errors.append(u.exc_value)
    try:
        box.clear()
        gc.collect()
    finally:
        sys.unraisablehook = old
    return ref() is None, errors


def _catch(errors, fn, *args):
    try:
        fn(*args)
    except Exception as exc:  # noqa: BLE001 - the test looks at it
        errors.append(exc)


def test_a_request_reads_in_its_repr(family):
    g = Game(family, 2, seed=3)
    request = g.run()
    assert repr(request) == f"<Request 1: {request.player.name} place ({len(request.options)} options)>"
    assert request.player.name in ("P1", "P2")


def test_answering_by_label_before_the_start(family):
    g = Game(family, 1, seed=1)
    with pytest.raises(GameOver, match=r"^no request is pending: call run\(\) first$"):
        g.answer_label("forest")


def test_a_decision_without_any_option_is_an_error(family):
    g = Game(family, 1, seed=1)
    with pytest.raises(RuntimeError, match=r"^no legal option for a 'plow' decision$"):
        g.decide(g.players[0], "plow", [])


def test_a_copied_agent_is_asked_the_waiting_request_with_its_labels_and_prompt(family):
    """run() on a clone that waits at a request of a seat with an agent asks that agent the request as it
    stands: its options with the labels and the prompt the game gave them."""
    g = Game(family, 2, seed=3, agents=[None, None])
    request, rng = g.run(), random.Random(5)
    while request.given_labels is None:
        request = g.answer(rng.randrange(len(request.options)))
    asked = []

    class Recording(RandomAgent):
        def choose(self, game, player, kind, options, labels=None, prompt=None):
            asked.append((player.idx, kind, list(options), labels, prompt))
            return super().choose(game, player, kind, options, labels, prompt)

    c = g.clone(agents=[Recording("a"), Recording("b")])
    assert c.run() is None and asked
    assert asked[0] == (request.seat, request.kind, list(request.options), request.given_labels, request.prompt)
    assert request.given_labels and all(isinstance(label, str) for label in request.given_labels)


def test_a_copied_agent_answering_a_clone_with_what_is_no_option(family):
    """Cloned from inside an agent with other agents: run() asks them the waiting request, and an answer
    that is none of its options is refused."""
    clones = []

    class Wrong:
        def choose(self, game, player, kind, options, labels=None, prompt=None):
            return "nowhere"

    class Cloning(RandomAgent):
        def choose(self, game, player, kind, options, labels=None, prompt=None):
            if not clones:
                clones.append(game.clone(agents=[Wrong(), Wrong()]))
            return super().choose(game, player, kind, options, labels, prompt)

    Game(family, 2, seed=2, agents=[Cloning("a"), Cloning("b")]).play()
    with pytest.raises(IllegalDecision, match=r"^'nowhere' is not a legal option for 'place'$"):
        clones[0].run()


def test_a_script_that_runs_out_falls_back_or_says_what_was_asked(family):
    from runtime.agents import ScriptedAgent, ScriptError
    g = Game(family, 1, seed=1)
    p = g.players[0]
    fallback = ScriptedAgent(["B1"])
    agent = ScriptedAgent(["A2"], fallback=fallback)
    assert agent.choose(g, p, "plow", [5, 1]) == 1 and agent.used == 1
    assert agent.choose(g, p, "plow", [5, 1]) == 5 and fallback.used == 1
    with pytest.raises(ScriptError, match=r"^no answer left for the 'plow' request; legal: A2, B1$"):
        ScriptedAgent([]).choose(g, p, "plow", [1, 5])


def test_a_one_answer_trial_with_an_option_no_longer_offered_asks_its_rules(family):
    from runtime.agents import _OneAnswer
    g = Game(family, 1, seed=1)
    asked = []

    class Rules:
        def choose(self, game, player, kind, options, labels=None, prompt=None):
            asked.append(tuple(options))
            return options[-1]

    agent = _OneAnswer(Rules(), 0, "major", "well")
    assert agent.choose(g, g.players[0], "major", ["fireplace_2", "cooking_hearth_4"]) == "cooking_hearth_4"
    assert agent.option is None and asked == [("fireplace_2", "cooking_hearth_4")]
    agent = _OneAnswer(Rules(), 0, "major", "well")
    assert agent.choose(g, g.players[0], "major", ["fireplace_2", "well"]) == "well" and len(asked) == 1


def test_a_one_answer_trial_hands_every_other_request_to_its_rules_unchanged(family):
    from runtime.agents import _OneAnswer
    g = Game(family, 1, seed=1)
    asked = []

    class Rules:
        def choose(self, game, player, kind, options, labels=None, prompt=None):
            asked.append((kind, tuple(options), labels, prompt))
            return options[0]

    agent = _OneAnswer(Rules(), 0, "major", "well")
    assert agent.choose(g, g.players[0], "breed", [3, 5], ["sheep", "sheep,boar"], "breed now") == 3
    assert agent.choose(g, g.players[0], "may", ("yes", "no"), None, "use the oven now") == "yes"
    assert asked == [("breed", (3, 5), ["sheep", "sheep,boar"], "breed now"),
                     ("may", ("yes", "no"), None, "use the oven now")]
    assert agent.option == "well"   # not its request: the answer it holds is still unused


def test_a_game_held_open_by_a_thread_still_running_is_freed_quietly_from_another(family):
    """The worker that started the game is still alive when this thread frees it: the game loop cannot be
    given a parent here, and freeing it raises nothing."""
    import threading
    box, freed = [], threading.Event()

    def work():
        box.append(Game(family, 2, seed=1))
        box[0].run()
        freed.wait(30)
    worker = threading.Thread(target=work)
    worker.start()
    while not box or box[0].pending is None:
        worker.join(0.01)
    try:
        assert _freed_quietly(box) == (True, [])
    finally:
        freed.set()
        worker.join()


def test_a_log_for_another_seat_or_another_request_does_not_fit(family):
    from runtime.engine import LogMismatch
    for entry, has in (((1, "place", "forest"), "'place' for P2"), ((0, "fence", "forest"), "'fence' for P1")):
        g = Game(family, 2, seed=1)
        g.replay([entry])
        with pytest.raises(LogMismatch) as info:
            g.run()
        assert str(info.value) == ("the log does not fit this game: decision 1 is a 'place' request for P1, "
                                   f"the log has {has}")


def test_a_decision_asked_outside_the_game_loop_without_an_agent_is_refused(revised):
    from runtime import primitives as P
    g = Game(revised, 2, seed=1)
    p = g.players[0]
    p.goods["wood"] = 10
    with pytest.raises(NoAgent) as info:
        P.build_stable(g, p)
    assert str(info.value) == ("P1 has no agent to answer a 'stable' request; hold the game open with run() and "
                               "answer() (docs/api.md), or give every seat an agent")
    assert g.pending is None and p.goods["wood"] == 10
