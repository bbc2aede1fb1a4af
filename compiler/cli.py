"""The ``agricola`` command line: validate, compile, play, score, schema.

Every failure a user can cause prints a located message and exits with status 2; no Python
traceback reaches the user.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path

from runtime.fileio import no_space
from runtime.firing import RuleLoop
from runtime.pack import REPO_ROOT
from runtime.words import plural

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 2, 2


def _root(args) -> Path:
    return Path(getattr(args, "root", None) or os.environ.get("AGRICOLA_HOME") or REPO_ROOT)


def _build_root(args) -> Path:
    from runtime.pack import default_build_root
    b = getattr(args, "build", None)
    return Path(b) if b else default_build_root(_root(args))


def _compiler(args):
    from .build import Compiler
    return Compiler(_root(args), _build_root(args), extra_pack_dirs=getattr(args, "packs", None) or ())


def _packs_option(p, what="packs"):
    """The option ``--packs DIR`` (repeatable) of every command that names a pack, as for 'agricola test'."""
    p.add_argument("--packs", action="append", default=[], metavar="DIR",
                   help=f"another folder of {what} (DIR/<pack>/game.yaml, cards in DIR/../cards/<pack>/), "
                        "or a folder holding one in rules/, e.g. tests/packs; the packs under <root>/rules are "
                        "still found, also for 'extends' (default: only those)")


def _workspace_with_project(ws_root: Path, args):
    """The workspace a path was found in, with the project's packs behind its own: a pack of a test or
    modder's folder may extend a built-in pack (its own packs of the same name come first)."""
    from . import packs
    root = _root(args)
    extra = list(getattr(args, "packs", None) or ())
    if ws_root.resolve() != root.resolve():
        extra.append(root / "rules")
    return packs.Workspace(ws_root, extra)


def _print_warnings(report, stream=None):
    """The warnings of a run that succeeded (printed before its result, to stderr)."""
    if report.warnings:
        from .diagnostics import Report
        only = Report(diagnostics=report.warnings, sources=report.sources)
        print(only.render(), file=stream or sys.stderr)
        print(only.summary(), file=stream or sys.stderr)


def _print_report(report, stream=None):
    """Every problem of the report, then '1 problem found' / 'N problems found'."""
    stream = stream or sys.stderr
    text = report.render()
    if text:
        print(text, file=stream)
        print(report.summary(), file=stream)


# ---------------------------------------------------------------- validate

def cmd_validate(args) -> int:
    """Check YAML files (rule-pack files, card files, packs by folder) and report every problem.

    A path inside a pack (``<workspace>/rules/<pack>/…``, ``<workspace>/cards/<pack>/…``, or a folder with a
    game.yaml) checks that whole pack, found where the path is. A card file outside any pack is checked
    with a pack (``--pack``, default: 'validate' in rules/defaults.yaml) as if it were one of its cards."""
    from . import checker, packs
    from .diagnostics import Report
    from .loader import load_yaml_file
    from . import schema

    report = Report()
    root = _root(args)
    checked_packs, loose_cards, shaped = [], [], []
    scenario_files = []
    for raw in args.paths:
        path = Path(raw)
        if not raw or (not path.exists() and not path.is_symlink()):
            report.error("E100", "no such file or folder", _span(raw or "''"))
            continue
        whole = path.resolve().parent if path.is_dir() and path.resolve().name in ("rules", "cards") else path
        if whole.is_dir() and (whole / "rules").is_dir() and not (whole / "game.yaml").exists():
            # a workspace (the project's folder, a copy of it, or its rules/ or cards/): every pack in it
            ws = _workspace_with_project(whole.resolve(), args)
            own = packs.Workspace(whole.resolve()).pack_ids()
            for pack_id in own:
                _validate_pack(ws, pack_id, checked_packs, report)
            if not own:
                report.error("E100", "no pack in this folder's rules/", _span(raw))
            continue
        if path.is_file() and _is_scenario_file(path):
            scenario_files.append(path)
            continue
        found = _pack_of(path, root, args)
        if found is not None:
            _validate_pack(*found, checked_packs, report)
            continue
        # A file outside any pack: a card is checked within a pack, other files by their shape.
        files = sorted(path.rglob("*.yaml")) if path.is_dir() else [path]
        if not files:
            report.error("E100", "no YAML file in this folder", _span(raw))
        for f in files:
            before = len(report.diagnostics)
            data = load_yaml_file(f, report, str(f))
            if data is None:
                if len(report.diagnostics) == before:
                    from .diagnostics import Span
                    report.error("E112", "the file is empty: a card or rule file holds a mapping or a list",
                                 Span(str(f), 1, 1))
                continue
            if isinstance(data, dict) and "kind" in data:
                data.schema_ok = schema.validate(data, "card", report)
                loose_cards.append(data)
                continue
            kind = "game" if isinstance(data, dict) else "spaces"
            schema.validate(data, kind, report)
            shaped.append(str(f))
    against = None
    if loose_cards:
        against = args.pack or _default(args, "validate", "score")
        ws = packs.Workspace(root, args.packs)
        local = Report()
        local.sources = report.sources
        src = packs.load_pack(ws, against, local)
        if src is not None:
            ids = {str(c.get("id")) for c in loose_cards}
            src.cards = [c for c in src.cards if str(c.get("id")) not in ids] + loose_cards
            packs.check_ids(src, local)
            checker.check_pack(src, local)
        report.diagnostics.extend(local.diagnostics)
    counted = _validate_scenarios(args, scenario_files, report) if scenario_files and not report else ""
    if report:
        _print_report(report)
        return EXIT_FAIL
    _print_warnings(report)
    done = []
    if checked_packs:
        done.append(f"{', '.join(i for _, i in checked_packs)} valid")
    if loose_cards:
        done.append(f"{', '.join(report.sources.shown(str(c.span.file)) for c in loose_cards)} valid "
                    f"(checked as cards of pack '{against}')")
    if shaped:
        done.append(f"{', '.join(shaped)} valid (checked on their own, by their shape)")
    if scenario_files:
        done.append(f"{', '.join(map(str, scenario_files))} valid{counted}")
    print(f"ok: {'; '.join(done)}")
    return EXIT_OK


def _validate_pack(ws, pack_id, checked_packs, report):
    """Check one pack of a workspace (once per run) into ``report``."""
    from . import checker, packs
    from .diagnostics import Report
    if (ws.root, pack_id) in [(w.root, i) for w, i in checked_packs]:
        return
    checked_packs.append((ws, pack_id))
    local = Report()
    local.sources = report.sources
    src = packs.load_pack(ws, pack_id, local)
    if src is not None:
        checker.check_pack(src, local)
    report.diagnostics.extend(local.diagnostics)


def _is_scenario_file(path: Path) -> bool:
    """A card test (``*.test.yaml``) or any YAML file whose top level has a 'scenarios' key."""
    if path.name.endswith(".test.yaml"):
        return True
    try:
        with open(path, "rb") as f:   # a regular file (the caller checked): only its start is read
            head = f.read(65536).decode("utf-8", errors="replace")
    except OSError:
        return False
    return any(line.startswith("scenarios:") for line in head.splitlines())


def _validate_scenarios(args, files, report) -> str:
    """Check scenario files (shape, names against their packs, steps, set-up) without playing them."""
    from runtime.pack import load_pack
    from .build import Compiler
    from .scenario import check_file
    comp = Compiler(_root(args), _build_root(args), extra_pack_dirs=args.packs)
    pack_ids = comp.ws.pack_ids()
    loaded: dict = {}

    def loader(name):
        if name not in loaded:
            result = comp.compile(name)
            if not result.ok:
                raise _PackBroken(name, result.report)
            loaded[name] = load_pack(name, _build_root(args))
        return loaded[name]

    n = 0
    for f in files:
        try:
            plans = check_file(f, loader, report, _scenario_pack(args), pack_ids=pack_ids)
        except _PackBroken as exc:
            report.diagnostics.extend(exc.args[1].diagnostics)
            return ""
        n += len(plans or [])
    return f" ({plural(n, 'scenario')} checked)"


def _span(text):
    from .diagnostics import Span
    return Span(str(text))


def _pack_of(path: Path, root: Path, args):
    """(workspace, pack id) of the pack a path belongs to, or None for a file outside any pack.

    The workspace is the one the path is in: the nearest folder W above it with the path under
    W/rules/<pack>/ or W/cards/<pack>/ and a W/rules/<pack>/game.yaml. A folder holding a game.yaml of its
    own (a pack outside any workspace) is that pack, its base packs read from the project."""
    from . import packs
    # the folders are resolved, not the file: a link out of a pack is the pack's (and is refused there)
    p = path.parent.resolve() / path.name if path.name not in ("", ".", "..") else path.resolve()
    for folder in [p] + list(p.parents):
        if folder.parent.name in ("rules", "cards"):
            ws_root = folder.parent.parent
            if (ws_root / "rules" / folder.name / "game.yaml").is_file():
                return _workspace_with_project(ws_root, args), folder.name
    pack_dir = p if p.is_dir() else p.parent
    if (pack_dir / "game.yaml").is_file() and (p.is_dir() or p.name in ("game.yaml", "actions.yaml",
                                                                        "rounds.yaml", "majors.yaml")):
        ws = packs.Workspace(root, [pack_dir.parent] + list(args.packs))
        ws.pinned[pack_dir.name] = pack_dir
        return ws, pack_dir.name
    return None


# ---------------------------------------------------------------- compile

def cmd_compile(args) -> int:
    comp = _compiler(args)
    packs_to_build = [args.pack] if args.pack else comp.ws.pack_ids()
    status = EXIT_OK
    for pack_id in packs_to_build:
        result = comp.compile(pack_id)
        if not result.ok:
            _print_report(result.report)
            print(f"compile failed: pack '{pack_id}'", file=sys.stderr)
            status = EXIT_FAIL
            continue
        _print_warnings(result.report)
        rel = os.path.relpath(result.out_dir, Path.cwd()) if result.out_dir else "?"
        print(f"compiled pack '{pack_id}' into {rel} ({plural(len(result.written), 'module')} written, "
              f"{len(result.unchanged)} unchanged, {result.seconds * 1000:.0f} ms)")
    return status


# ---------------------------------------------------------------- packs

def pack_summaries(root: Path):
    """Every pack under ``root`` as ``{id, name, extends, min_players, max_players, description}`` (an
    overlay's players come from its base when it does not change them; its description is its own),
    and the report of the packs that cannot be read."""
    from . import packs
    from .diagnostics import Report
    ws = packs.Workspace(root)
    report = Report()
    out = []
    for pack_id in ws.pack_ids():
        local = Report()
        local.sources = report.sources
        src = packs.load_pack(ws, pack_id, local)
        report.diagnostics.extend(local.diagnostics)
        if src is None or local:
            continue
        own = src.own_game
        players = src.game.get("players") or {}
        teams = src.game.get("teams")
        if isinstance(teams, dict) and isinstance(teams.get("players"), int):   # team play is for its count only
            players = {"min": teams["players"], "max": teams["players"]}
        out.append({"id": pack_id, "name": str(src.game.get("name", pack_id)),
                    "extends": str(own["extends"]) if own.get("extends") is not None else None,
                    "min_players": players.get("min"), "max_players": players.get("max"),
                    "description": str(own.get("description") or "")})
    return out, report


def cmd_packs(args) -> int:
    """List every pack: id, name, the pack it extends, player counts and its one-line description."""
    summaries, report = pack_summaries(_root(args))
    if args.json:
        print(json.dumps(summaries, indent=2))
    else:
        for s in summaries:
            based = f", extends {s['extends']}" if s["extends"] else ""
            players = (f"{s['min_players']} player" if s["min_players"] == s["max_players"] == 1 else
                       f"{s['min_players']}–{s['max_players']} players" if s["min_players"] != s["max_players"] else
                       f"{s['max_players']} players")
            print(f"{s['id']}: {s['name']} ({players}{based})")
            if s["description"]:
                print(f"    {s['description']}")
    if report:
        _print_report(report)
        return EXIT_FAIL
    return EXIT_OK


def _default(args, what: str, fallback: str | None = None) -> str:
    from runtime.pack import defaults
    found = defaults(_root(args))
    name = found.get(what) or (found.get(fallback) if fallback else None)
    if not name:
        print(f"error: no pack named; give --pack ({_root(args) / 'rules' / 'defaults.yaml'} has no '{what}')",
              file=sys.stderr)
        raise SystemExit(EXIT_USAGE)
    return str(name)


def _load(args, pack_id):
    """Compile if needed and load the pack; returns (pack, None) or (None, exit code). A build that is
    current (its manifest's content hash matches the sources' bytes) is loaded without importing the
    compiler's pipeline."""
    from runtime.pack import build_dir_for, load_pack
    from .stamp import is_current
    if is_current(_root(args), build_dir_for(pack_id, _build_root(args))):
        return load_pack(pack_id, _build_root(args)), None
    comp = _compiler(args)
    result = comp.compile(pack_id)
    if not result.ok:
        _print_report(result.report)
        print(f"compile failed: pack '{pack_id}'", file=sys.stderr)
        return None, EXIT_FAIL
    _print_warnings(result.report)
    from runtime.pack import load_pack
    return load_pack(pack_id, _build_root(args)), None


# ---------------------------------------------------------------- play

def _agent_kinds(text: str, players: int):
    """The agent kind of each seat from ``--agents`` (one kind per player, or one for all; 'human' for a
    person at the terminal), or a problem."""
    from .table import HUMAN
    known = _playing_agent_kinds() + [HUMAN]
    kinds = [k.strip() for k in str(text).split(",")]
    for k in kinds:
        if k not in known:
            from .diagnostics import did_you_mean  # only here: it imports difflib and dataclasses
            return None, (f"--agents: unknown agent kind {_shown(k)}{did_you_mean(k, known)}; "
                          f"the kinds are {', '.join(known)}")
    if len(kinds) == 1:
        kinds = kinds * players
    if len(kinds) != players:
        return None, (f"--agents names {plural(len(kinds), 'agent')} for {plural(players, 'player')}: "
                      "give one kind per player, or one kind for all")
    return kinds, None


def _playing_agent_kinds() -> list:
    """The agent kinds that play on their own (a seat held open is for the library, docs/api.md)."""
    from runtime.savegame import AGENT_KINDS
    return [k for k, cls in AGENT_KINDS.items() if cls is not None]


def _seat_kinds(args, pack):
    """The agent kind of each seat for ``--players`` and ``--agents``, or None after printing why not."""
    rules = pack.rules
    if not rules.min_players <= args.players <= rules.max_players:
        print(f"error: pack '{pack.id}' is for {rules.min_players} to {rules.max_players} players, "
              f"not {args.players}", file=sys.stderr)
        return None
    kinds, problem = _agent_kinds(args.agents, args.players)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return None
    return kinds


def _chosen_decks(args, pack):
    """The decks of ``--decks`` (sorted, or None for every deck of the pack) and whether they are the
    pack's; an unknown deck is reported on stderr, naming the pack's decks."""
    if args.decks is None:
        return None, True
    decks = tuple(sorted({d.strip() for d in args.decks.split(",") if d.strip()}))
    unknown = [d for d in decks if d not in pack.decks]
    if unknown or not decks:
        print(f"error: --decks: pack '{pack.id}' has no deck {_shown(','.join(unknown) or args.decks)}; "
              f"its decks are {', '.join(pack.decks) or 'none'}", file=sys.stderr)
        return None, False
    return decks, True


def cmd_play(args) -> int:
    from runtime.engine import Game
    from runtime.savegame import make_agent

    pack, err = _load(args, args.pack or _default(args, "play"))
    if pack is None:
        return err
    kinds = _seat_kinds(args, pack)
    if kinds is None:
        return EXIT_USAGE
    decks, ok = _chosen_decks(args, pack)
    if not ok:
        return EXIT_USAGE
    from .table import HUMAN
    if HUMAN in kinds:
        return _play_at_the_terminal(args, pack, kinds, decks)
    specs = [{"kind": kind, "seed": f"{args.seed}:{i}"} for i, kind in enumerate(kinds)]
    agents = [make_agent(spec) for spec in specs]
    game = Game(pack, args.players, seed=args.seed, agents=agents, log=not args.json, decks=decks)
    _print_deal_note(game)
    top = _header(game, kinds)
    recorder = None
    from runtime.savegame import Recorder, SaveError, check_save_target
    try:
        if args.save:
            check_save_target(Path(args.save))
            recorder = Recorder(game, Path(args.save), specs)
            recorder.save()
        game.play()
        if recorder is not None:
            recorder.save()
    except SaveError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_FAIL
    return _print_game(game, args.json, top)


def _play_at_the_terminal(args, pack, kinds, decks) -> int:
    """``play`` with people at some seats: the terminal asks them (compiler/terminal.py)."""
    from runtime.engine import Game
    from runtime.savegame import SaveError, check_save_target, write_atomic
    from .table import Table, agent_specs
    first = Game(pack, args.players, seed=args.seed, decks=decks)
    _print_deal_note(first)
    top = _header(first, kinds)
    save = Path(args.save) if args.save else None
    try:
        if save is not None:
            check_save_target(save)
        table = Table(pack, args.players, args.seed, agent_specs(kinds, args.seed), decks=decks)

        def after():
            if save is not None:
                write_atomic(save, table.document())
        after()
    except SaveError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_FAIL
    print(top)
    print("Type ? at a prompt for what the request asks and the commands.")
    return _terminal_loop(args, table, after, args.save)


def _resume_at_the_terminal(args, doc, pack) -> int:
    """``resume`` of a save with people's seats ('open'): the terminal asks them, the save is kept up to date."""
    from runtime.savegame import LogMismatch, SaveError, write_atomic
    from .table import Table
    path = Path(args.file).resolve()  # a symbolic link to a save stays a link
    try:
        table = Table.from_save(doc, pack)
    except (SaveError, LogMismatch) as exc:
        print(f"error: {args.file}: {exc}", file=sys.stderr)
        return EXIT_FAIL
    return _terminal_loop(args, table, lambda: write_atomic(path, table.document()), args.file)


def _card_texts(args, pack_id) -> dict:
    """The generated text of the pack's cards, by id (for the terminal's 'h')."""
    from .docs import pack_card_texts
    return pack_card_texts(_compiler(args), pack_id)


def _terminal_loop(args, table, after, saved_in) -> int:
    from .terminal import TerminalPlay, finish_text

    read, write = _read_line, _write_line
    done = TerminalPlay(table, read, write, after=after, card_texts=lambda: _card_texts(args, table.game.pack.id)).run()
    after()
    if not done:
        where = f"; saved in {saved_in} (agricola resume {saved_in} goes on from there)" if saved_in else ""
        print(f"stopped at decision {table.game.decisions + 1}{where}")
        return EXIT_OK
    if args.json:
        print(json.dumps(game_result(table.game), sort_keys=True))
    else:
        print(finish_text(table.game))
    return EXIT_OK


def cmd_watch(args) -> int:
    """Step through a saved game: the next decision, back, to a round, to the end; farms drawn."""
    from runtime.savegame import LogMismatch, SaveError, read_save, restore
    from .terminal import Watch
    try:
        doc = read_save(Path(args.file))
        pack, err = _load(args, doc["pack"])
        if pack is None:
            return err
        game, _, pending = restore(doc, pack, continue_with_agents=False)  # checks that the log fits
        game.run()
        if pending:
            raise SaveError(f"{args.file}: the save has {plural(len(pending), 'decision')} after the end of the game")
    except (SaveError, LogMismatch) as exc:
        print(_save_error(exc) if isinstance(exc, SaveError) else f"error: {args.file}: {exc}", file=sys.stderr)
        return EXIT_FAIL

    Watch(doc, pack, _read_line, _write_line).run()
    return EXIT_OK


def _read_line(prompt):
    """A line typed at the terminal, or None when the input has ended (a person's seat)."""
    try:
        return input(prompt)
    except EOFError:
        return None


def _write_line(text) -> None:
    print(text, flush=True)


def _print_deal_note(game) -> None:
    """When the decks hold too few cards for full hands, say once (on stderr) what each player is dealt."""
    from runtime.report import deal_note
    note = deal_note(game)
    if note:
        print(note, file=sys.stderr)


def _header(game, agent_kinds) -> str:
    """The log's first lines, taken before the game is played (the start player changes hands)."""
    from runtime.report import header
    return header(game, agent_kinds)


def _print_game(game, as_json: bool, top: str) -> int:
    """The game's header, log, farmyards and scores (or, with --json, one JSON object)."""
    from runtime.report import farmyards, score_table
    if as_json:
        print(json.dumps(game_result(game), sort_keys=True))
        return EXIT_OK
    print(top)
    for line in game.log:
        print(line)
    print()
    print(farmyards(game))
    print()
    print(score_table(game))
    return EXIT_OK


def cmd_resume(args) -> int:
    """Continue a saved game; it ends exactly as the uninterrupted game would have."""
    from runtime.savegame import LogMismatch, SaveError, SaveWriteError, read_save, restore
    try:
        doc = read_save(Path(args.file))
    except SaveError as exc:
        print(_save_error(exc), file=sys.stderr)
        return EXIT_FAIL
    pack, err = _load(args, doc["pack"])
    if pack is None:
        return err
    if any(spec.get("kind") == "open" for spec in doc["agents"]):
        return _resume_at_the_terminal(args, doc, pack)
    try:
        # a symbolic link to a save stays a link: the file it points to is updated
        game, recorder, pending = restore(doc, pack, log=not args.json, path=Path(args.file).resolve())
        top = _header(game, [str(spec.get("kind")) for spec in doc["agents"]])
        request = game.run()
        if request is not None:
            raise SaveError(f"{request.player.name} is an open seat (answered through the library, docs/api.md); "
                            "the command line cannot go on for it")
        if pending:
            raise SaveError(f"the save has {plural(len(pending), 'decision')} after the "
                            "end of the game; it is left as it was")
        recorder.save()
    except SaveWriteError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_FAIL
    except (SaveError, LogMismatch) as exc:
        print(f"error: {args.file}: {exc}", file=sys.stderr)
        return EXIT_FAIL
    return _print_game(game, args.json, top)


def cmd_replay(args) -> int:
    """Play a finished game's log again and check that it reaches the identical final state."""
    from runtime.savegame import LogMismatch, SaveError, read_save, restore, state_hash
    try:
        doc = read_save(Path(args.log))
        if not doc.get("finished") or not isinstance(doc.get("final"), dict):
            raise SaveError(f"{args.log}: the game in this log is not finished; use 'agricola resume'")
        pack, err = _load(args, doc["pack"])
        if pack is None:
            return err
        game, recorder, pending = restore(doc, pack, continue_with_agents=False)
        if game.run() is not None:
            raise SaveError(f"{args.log}: the log ends before the game does")
        if pending:
            raise SaveError(f"{args.log}: the log has {plural(len(pending), 'decision')} after the end of the game")
    except (SaveError, LogMismatch) as exc:
        print(_save_error(exc), file=sys.stderr)
        return EXIT_FAIL
    want = doc["final"].get("state_hash")
    got = state_hash(game)
    if got != want or doc["final"].get("scores") != game.scores:
        print(f"error: {args.log}: the replay ends in a different state (state hash {got[:12]}, "
              f"the log says {str(want)[:12]})", file=sys.stderr)
        return EXIT_FAIL
    totals = ", ".join(f"{s['player']} {s['total']}" for s in game.scores)
    print(f"replay ok: {len(doc['decisions'])} decisions, identical final state ({got[:12]}); scores: {totals}")
    return EXIT_OK


def _save_error(exc) -> str:
    """A save-file error as printed: located messages as they are, others after 'error: '."""
    return str(exc) if getattr(exc, "located", False) else f"error: {exc}"


def game_result(game) -> dict:
    order = game.ranking()
    out = {
        "pack": game.pack.id, "players": game.nplayers, "seed": game.seed, "decisions": game.decisions,
        "scores": [{"player": s["player"], "total": s["total"], "categories": s["categories"],
                    "tie_break": s["tie_break"]} for s in game.scores],
        "ranking": [game.players[i].name for i in order],
    }
    if game.rules.teams:   # team play: each team's score (the ranking is by team)
        out["teams"] = [{"team": t["team"], "total": t["total"], "categories": t["categories"],
                         "tie_break": t["tie_break"]} for t in game.team_scores()]
    return out


# ---------------------------------------------------------------- simulate

def cmd_simulate(args) -> int:
    """Play many seeded games between agents into a run folder (docs/simulation.md); resumable."""
    try:
        import pyarrow  # noqa: F401
        import tqdm  # noqa: F401
    except ImportError:
        print("error: agricola simulate needs the 'sim' extra: pip install 'agricola-compiler[sim]'",
              file=sys.stderr)
        return EXIT_USAGE
    from .simulate import DEFAULT_BATCH, Settings, SimulationError, simulate
    pack, err = _load(args, args.pack or _default(args, "simulate", "score"))
    if pack is None:
        return err
    kinds = _seat_kinds(args, pack)
    if kinds is None:
        return EXIT_USAGE
    from .table import HUMAN
    if HUMAN in kinds:
        print(f"error: --agents: '{HUMAN}' plays at a terminal; simulated games need agents that play on their own "
              f"({', '.join(_playing_agent_kinds())})", file=sys.stderr)
        return EXIT_USAGE
    for option in ("games", "workers", "batch"):
        value = getattr(args, option)
        if value is not None and value < 1:
            print(f"error: --{option} {value}: give a whole number of at least 1", file=sys.stderr)
            return EXIT_USAGE
    decks, ok = _chosen_decks(args, pack)
    if not ok:
        return EXIT_USAGE
    if args.ray is not None and args.workers is not None:
        print("error: give --workers (a local process pool) or --ray (a Ray cluster), not both", file=sys.stderr)
        return EXIT_USAGE
    from runtime.engine import Game
    _print_deal_note(Game(pack, args.players, decks=decks))   # the same for every seed
    settings = Settings(pack=pack.id, content_hash=pack.content_hash, players=args.players, agents=tuple(kinds),
                        decks=decks, seed=args.seed, games=args.games, batch=args.batch or DEFAULT_BATCH)
    workers = args.workers or (os.cpu_count() or 1)
    try:
        result = simulate(Path(args.out), settings, _build_root(args), workers=workers, ray_address=args.ray,
                          progress=not args.quiet)
    except SimulationError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_FAIL
    if args.json:
        print(json.dumps(result, sort_keys=True))
    else:
        means = ", ".join(f"P{i + 1} {m}" for i, m in enumerate(result["mean_score_per_seat"]))
        print(f"{result['games']} games in {args.out} (results hash {result['results_hash'][:16]}); "
              f"mean score per seat: {means}")
    return EXIT_OK


def cmd_balance(args) -> int:
    """The balance report of the runs in a folder: a static HTML page (docs/simulation.md)."""
    try:
        import duckdb  # noqa: F401
        import matplotlib  # noqa: F401
    except ImportError:
        print("error: agricola balance needs the 'sim' extra: pip install 'agricola-compiler[sim]'",
              file=sys.stderr)
        return EXIT_USAGE
    from .balance import BalanceError, build_report, find_runs
    folder = Path(args.dir)
    if not folder.is_dir():
        print(f"error: {_shown(args.dir)}: no such folder", file=sys.stderr)
        return EXIT_USAGE
    if args.min_games < 1:
        print(f"error: --min-games {args.min_games}: give a whole number of at least 1", file=sys.stderr)
        return EXIT_USAGE
    out = Path(args.out) if args.out else folder / "balance.html"
    if out.is_dir():
        out = out / "index.html"
    try:
        runs = find_runs(folder)
        pack, err = _load(args, runs[0].settings["pack"])
        if pack is None:
            return err
        texts = None
        if args.card is not None and args.card in pack.cards:
            texts = {args.card: _card_text(args, pack.id, args.card)}
        report = build_report(folder, out, pack, card=args.card, card_text=texts, min_games=args.min_games)
    except BalanceError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_FAIL
    print(f"wrote {out}: {report.games:,} games, {report.cards} card figures")
    return EXIT_OK


def _card_text(args, pack_id: str, card: str) -> str | None:
    """A card's text, generated from its effects as 'agricola cards show' prints it."""
    from . import english
    src, checked, report = _compiler(args).check(pack_id)
    if checked is None or report:
        return None
    unit = next((u for u in checked.cards if u.id == card), None)
    return "\n".join(english.card_lines(english.for_pack(checked), unit)) if unit is not None else None


# ---------------------------------------------------------------- score

def cmd_score(args) -> int:
    from .farmfile import FarmFileError, score_farm_file
    pack, err = _load(args, args.pack or _default(args, "score"))
    if pack is None:
        return err
    try:
        result, table = score_farm_file(Path(args.farm), pack)
    except FarmFileError as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_FAIL
    if args.svg:
        from runtime.fileio import write_text_atomic
        from .farmfile import load_farm
        from .web.svg import farm_svg
        game, p = load_farm(Path(args.farm), pack)
        write_text_atomic(Path(args.svg), farm_svg(game, p, title=f"Farm of {Path(args.farm).name}") + "\n")
    if args.json:
        print(json.dumps(result, sort_keys=True))
    else:
        print(table)
    return EXIT_OK


# ---------------------------------------------------------------- serve

def cmd_serve(args) -> int:
    """The web playtest server (compiler/web/, docs/web.md)."""
    try:
        import uvicorn
        from .web.app import create_app
    except ImportError as exc:
        print(f"error: agricola serve needs the web extra ({exc.name} is not installed): "
              "pip install 'agricola-compiler[web]'", file=sys.stderr)
        return EXIT_FAIL
    if not 0 < args.port < 65536:
        print(f"error: --port {args.port}: a port is a number from 1 to 65535", file=sys.stderr)
        return EXIT_USAGE
    import socket
    try:
        with socket.create_server((args.host, args.port)):
            pass
    except OSError as exc:
        why = os.strerror(exc.errno) if exc.errno else str(exc)
        print(f"error: cannot listen on {args.host}:{args.port}: {why}", file=sys.stderr)
        return EXIT_FAIL
    build = _build_root(args)
    db = Path(args.db) if args.db else build / "playtest.sqlite3"
    if db.exists() and not db.is_file():
        print(f"error: --db {_shown(str(db))} is not a file", file=sys.stderr)
        return EXIT_USAGE
    db.parent.mkdir(parents=True, exist_ok=True)
    app = create_app(_root(args), build, db, hot_reload=not args.no_reload)
    print(f"agricola playtest server on http://{args.host}:{args.port}/ (games in {db})", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return EXIT_OK


# ---------------------------------------------------------------- test

def cmd_test(args) -> int:
    """Run scenario files (``*.test.yaml`` beside cards, or any scenario file) and report failures."""
    from runtime.pack import load_pack
    from .build import Compiler
    from .scenario import run_file
    comp = Compiler(_root(args), _build_root(args), extra_pack_dirs=args.packs)
    packs: dict = {}
    failures_seen = []

    def loader(name):
        if name not in packs:
            result = comp.compile(name)
            if not result.ok:
                failures_seen.append(result.report.render() + "\n" + result.report.summary())
                raise _PackBroken(name)
            packs[name] = load_pack(name, _build_root(args))
        return packs[name]

    files = []
    for raw in args.paths:
        path = Path(raw)
        if path.is_dir():
            found = sorted(path.rglob("*.test.yaml")) or sorted(path.rglob("*.yaml"))
            if not found:
                print(f"{raw}: error[E100]: no scenario file (*.yaml) in this folder\n1 problem found", file=sys.stderr)
                return EXIT_FAIL
            files.extend(found)
        elif path.exists():
            files.append(path)
        else:
            print(f"{raw}: error[E100]: no such file or folder\n1 problem found", file=sys.stderr)
            return EXIT_FAIL
    total = failed = 0
    pack_ids = comp.ws.pack_ids()
    for f in files:
        try:
            outcomes = run_file(f, loader, _scenario_pack(args), pack_ids=pack_ids)
        except _PackBroken as exc:
            print("\n".join(failures_seen), file=sys.stderr)
            print(f"compile failed: pack '{exc.args[0]}'", file=sys.stderr)
            return EXIT_FAIL
        for o in outcomes:
            total += 1
            if o.ok:
                if args.verbose:
                    print(f"{o.where()}: ok: {o.name}", flush=True)
            else:  # one line a failure, located, so that editors can jump to it
                failed += 1
                what = o.message if o.name == "(file)" else f"FAIL: {o.name}: {o.message}"
                print(f"{o.where()}: {what.replace(chr(10), ' ')}", file=sys.stderr, flush=True)
    print(f"{total - failed} passed, {failed} failed")
    return EXIT_OK if failed == 0 and total else EXIT_FAIL


def _scenario_pack(args) -> str:
    """The pack of scenario files that name none ('scenario' in rules/defaults.yaml)."""
    from runtime.pack import defaults
    return str(defaults(_root(args)).get("scenario", ""))


class _PackBroken(Exception):
    pass


# ---------------------------------------------------------------- cards

def cmd_cards(args) -> int:
    """``agricola cards show ID`` prints a card's text (generated from its effects); ``list`` lists them."""
    from . import english
    comp = _compiler(args)
    pack_id = args.pack or _default(args, "score")
    src, checked, report = comp.check(pack_id)
    if checked is None or report:
        _print_report(report)
        print(f"the pack '{pack_id}' has problems; fix them first", file=sys.stderr)
        return EXIT_FAIL
    eng = english.for_pack(checked)
    units = {u.id: u for u in checked.majors + checked.cards}
    if args.action == "list":
        for u in checked.majors + checked.cards:
            d = u.data
            print(f"{u.id:28} {d['kind']:10} {d.get('deck') or '':3} {d['name']}")
        return EXIT_OK
    if args.action == "tags":
        from .docs import card_tags
        wanted = {i.lstrip("#") for i in args.ids}
        tags = [t for t in card_tags(checked) if not wanted or t["tag"] in wanted]
        unknown = sorted(wanted - {t["tag"] for t in tags})
        if unknown:
            from .diagnostics import did_you_mean
            known = ["#" + t["tag"] for t in card_tags(checked)]
            print(f"error: no card of pack '{pack_id}' has the tag '#{unknown[0]}'"
                  f"{did_you_mean('#' + unknown[0], known)}", file=sys.stderr)
            return EXIT_FAIL
        for t in tags:
            print(f"#{t['tag']} ({plural(len(t['cards']), 'card')})")
            for c in t["cards"]:
                print(f"  {c['id']:28} {c['kind']:10} {c['deck'] or '':3} {c['name']}"
                      + ("  (counts as one)" if c["counts_as"] else ""))
        return EXIT_OK
    if not args.ids:
        print("error: name at least one card id (agricola cards show ID)", file=sys.stderr)
        return EXIT_USAGE
    status = EXIT_OK
    from .docs import card_tags
    tags_of: dict = {}
    for t in card_tags(checked):
        for c in t["cards"]:
            tags_of.setdefault(c["id"], []).append(f"#{t['tag']}" + (" (counts as one)" if c["counts_as"] else ""))
    for cid in args.ids:
        unit = units.get(cid)
        if unit is None:
            from .diagnostics import did_you_mean
            print(f"error: no card '{cid}' in pack '{pack_id}'{did_you_mean(cid, units)}", file=sys.stderr)
            status = EXIT_FAIL
            continue
        print("\n".join(english.card_lines(eng, unit)))
        if tags_of.get(cid):   # what other cards' '#tag' finds it by ('agricola cards tags' lists them all)
            print("Tags: " + ", ".join(tags_of[cid]))
        print()
    return status


def cmd_docs(args) -> int:
    """Write the pack's reference as a static HTML site (and a PDF with --pdf)."""
    from . import docs
    comp = _compiler(args)
    pack_id = args.pack or _default(args, "score")
    out = Path(args.out) if args.out else _build_root(args) / "docs" / pack_id
    if out.exists() and not out.is_dir():
        print(f"error: {out}: is not a folder; the docs are a folder of pages (give --out a folder)", file=sys.stderr)
        return EXIT_USAGE
    try:
        result = docs.build_site(comp, pack_id, out, pdf=args.pdf, chromium=args.chromium)
    except docs.DocsError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_FAIL
    except OSError as exc:
        why = "no space left on the device" if no_space(exc) else (exc.strerror or str(exc))
        print(f"error: {_cut(exc.filename or out, 200)}: cannot write the docs there: {why}", file=sys.stderr)
        return EXIT_FAIL
    print(f"docs of '{pack_id}' written to {result.out_dir}/index.html "
          f"({len(result.pages)} files, {result.cards} hand cards on {result.sheet_pages} sheets, "
          f"{result.seconds:.2f} s)")
    if result.pdf:
        print(f"PDF: {result.pdf} ({result.pdf_pages} pages: {result.rules_pages} of rules and reference, "
              f"{result.sheet_pages} card sheets; {result.pdf_seconds:.1f} s)")
    return EXIT_OK


# ---------------------------------------------------------------- campaign

def cmd_campaign_new(args) -> int:
    """Start a campaign file of a pack with campaign rules (compiler/campaign.py)."""
    from .campaign import CampaignError, new_campaign, write_campaign
    path = Path(args.file)
    if os.path.lexists(path):
        print(f"error: {path}: the file exists; 'campaign new' never replaces a file (give the path of a new "
              "file, or go on with 'agricola campaign next')", file=sys.stderr)
        return EXIT_USAGE
    pack, err = _load(args, args.pack)
    if pack is None:
        return err
    c = pack.rules.campaign
    players = args.players
    if players is None and c is not None:
        if len(c["players"]) != 1:
            print(f"error: the campaign of pack '{pack.id}' is for several numbers of players; give --players",
                  file=sys.stderr)
            return EXIT_USAGE
        players = c["players"][0]
    try:
        doc = new_campaign(pack, players, args.seed)
    except CampaignError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    write_campaign(path, doc)
    print(f"campaign of pack '{pack.id}' for {plural(players, 'player')} written to {path}; "
          f"play its first game with: agricola campaign next {path}")
    return EXIT_OK


def _read_campaign_and_pack(args):
    """(campaign, pack) of ``args.file``, or (None, exit code) after printing why not."""
    from .campaign import CampaignError, read_campaign
    try:
        doc = read_campaign(Path(args.file))
    except CampaignError as exc:
        print(str(exc) if str(exc).startswith(str(args.file)) else f"error: {exc}", file=sys.stderr)
        return None, EXIT_FAIL
    pack, err = _load(args, doc["pack"])
    if pack is None:
        return None, err
    try:
        read_campaign(Path(args.file), pack)
    except CampaignError as exc:
        print(str(exc), file=sys.stderr)
        return None, EXIT_FAIL
    if pack.rules.campaign is None:
        print(f"error: {args.file}: pack '{pack.id}' has no campaign rules any more ('campaign' in its game.yaml)",
              file=sys.stderr)
        return None, EXIT_FAIL
    return doc, pack


def cmd_campaign_next(args) -> int:
    """Play the next game of a campaign (agents, or people at the terminal) and write what carries over
    (compiler/campaign.py)."""
    from .campaign import CampaignError, play_next, standings, write_campaign
    doc, pack = _read_campaign_and_pack(args)
    if doc is None:
        return pack
    from .table import HUMAN
    kinds, problem = _agent_kinds(args.agents, doc["players"])
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return EXIT_USAGE
    from .campaign import game_seed
    seed = args.seed if args.seed is not None else game_seed(doc)
    if HUMAN in kinds:
        return _campaign_game_at_the_terminal(args, pack, doc, kinds, seed)
    specs = [{"kind": kind, "seed": f"{seed}:{i}"} for i, kind in enumerate(kinds)]
    try:
        after, game = play_next(pack, doc, specs, seed)
    except CampaignError as exc:
        print(f"error: {args.file}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    write_campaign(Path(args.file), after)
    if args.json:
        print(json.dumps(standings(pack, after), sort_keys=True))
    else:
        print(_campaign_text(pack, after))
    return EXIT_OK


def _campaign_game_at_the_terminal(args, pack, doc, kinds, seed) -> int:
    """``campaign next`` with people at some seats: the game is played at the terminal as ``play --agents
    human,…`` plays it, then each person chooses what to keep. The campaign file is written once, after
    the game and the choices; a person who stops (``q``) or whose input ends leaves it as it was."""
    from runtime.engine import Game
    from .campaign import CampaignError, after_game, check_playable, standings, write_campaign
    from .table import Table, agent_specs
    from .terminal import TerminalPlay, ask_choice, finish_text
    try:
        check_playable(pack, doc)
    except CampaignError as exc:
        print(f"error: {args.file}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    setup = doc["next"]["setup"]
    first = Game(pack, doc["players"], seed=seed, setup=setup)
    _print_deal_note(first)
    top = _header(first, kinds)
    specs = agent_specs(kinds, seed)
    table = Table(pack, doc["players"], seed, specs, setup=setup)

    read, write = _read_line, _write_line
    print(f"Campaign {args.file}, game {doc['next']['game']}" +
          (f" (target {doc['next']['target']})" if doc["next"]["target"] is not None else ""))
    print(top)
    print("Type ? at a prompt for what the request asks and the commands.")
    stopped = (f"; the campaign file {args.file} is as it was before this game ('agricola campaign next "
               f"{args.file}' plays this game again from its start)")
    if not TerminalPlay(table, read, write, card_texts=lambda: _card_texts(args, pack.id)).run():
        print(f"stopped at decision {table.game.decisions + 1}{stopped}")
        return EXIT_OK
    print(finish_text(table.game))

    class Stopped(Exception):
        pass

    def choose(player, options, labels, prompt):
        index = ask_choice(read, write, player.name, prompt, labels)
        if index is None:
            raise Stopped
        return options[index]
    try:
        after = after_game(pack, doc, table.game, seed, specs, choose=choose)
    except Stopped:
        print(f"stopped before the occupations to keep were chosen{stopped}")
        return EXIT_OK
    write_campaign(Path(args.file), after)
    if args.json:
        print(json.dumps(standings(pack, after), sort_keys=True))
    else:
        print(_campaign_text(pack, after))
    return EXIT_OK


def cmd_campaign_status(args) -> int:
    """Print the campaign so far: each game's scores, campaign points, what carries over, the next game."""
    from .campaign import standings
    doc, pack = _read_campaign_and_pack(args)
    if doc is None:
        return pack
    if args.json:
        print(json.dumps(standings(pack, doc), sort_keys=True))
    else:
        print(_campaign_text(pack, doc))
    return EXIT_OK


def _campaign_text(pack, doc) -> str:
    from .campaign import standings
    st = standings(pack, doc)
    c = pack.rules.campaign
    name = lambda cid: pack.all_cards[cid].name if cid in pack.all_cards else cid  # noqa: E731
    of = f" of {c['games']}" if c["games"] is not None else ""
    lines = [f"Campaign of pack '{pack.id}' ({pack.rules.name}), {plural(st['players'], 'player')}: "
             f"{plural(st['games_played'], 'game')} played{of}"]
    for g in st["results"]:
        scores = ", ".join(f"P{i + 1} {s}" for i, s in enumerate(g["scores"]))
        line = f"  game {g['game']}: {scores}"
        if g["target"] is not None:
            line += f" (target {g['target']}: {'reached' if g['reached'] else 'missed'})"
        if g["campaign_points"] is not None:
            line += "; campaign points " + ", ".join(f"P{i + 1} {k}" for i, k in enumerate(g["campaign_points"]))
        kept = [f"P{i + 1} {', '.join(name(x) for x in k)}" for i, k in enumerate(g["kept"]) if k]
        if kept:
            line += "; kept: " + "; ".join(kept)
        back = [f"P{i + 1} {', '.join(name(x) for x in k)}" for i, k in enumerate(g["returned"]) if k]
        if back:
            line += "; back into the deck (cost not paid): " + "; ".join(back)
        lines.append(line)
    if st["campaign_points"] is not None:
        lines.append("Campaign points: " + ", ".join(f"P{i + 1} {k}" for i, k in enumerate(st["campaign_points"])))
    if st["players"] > 1 and st["games_played"]:
        lines.append("Game points: " + ", ".join(f"P{i + 1} {k}" for i, k in enumerate(st["game_points"])))
        lines.append(("Winner: " if doc["finished"] else "Leading: ") + st["leader"])
    nxt = st["next"]
    if nxt is None:
        lines.append("The campaign is over.")
    else:
        more = " (the campaign's games are played; it may go on)" if doc["finished"] else ""
        lines.append(f"Next: game {nxt['game']}{more}" + (f", target {nxt['target']}" if nxt["target"] is not None
                                                          else ""))
        setup = nxt["setup"]
        if setup["start_player"] is not None:
            lines.append(f"  start player: P{setup['start_player'] + 1}")
        for i, seat in enumerate(setup["seats"]):
            parts = []
            if seat["goods"]:
                parts.append("extra " + ", ".join(f"{k} {g}" for g, k in seat["goods"].items()))
            if seat["occupations"]:
                parts.append("in play: " + ", ".join(name(x) for x in seat["occupations"]))
            if seat.get("hand"):
                parts.append("hand: " + ", ".join(f"{k} {kind}" for kind, k in seat["hand"].items()))
            if parts:
                lines.append(f"  P{i + 1}: " + "; ".join(parts))
    return "\n".join(lines)


def cmd_card_new(args) -> int:
    """Write a card file and a scenario file to fill in. Nothing is written when the id is taken in the
    pack, when the files would land outside the pack's card folder, or when they would not be valid."""
    import re
    from . import packs
    from .diagnostics import Report
    root = _root(args)
    if not re.fullmatch(r"[a-z][a-z0-9_]{0,63}", args.id):
        print(f"error: {_shown(args.id)} is not a valid id: use lower-case letters, digits and '_', starting with "
              "a letter (at most 64)", file=sys.stderr)
        return EXIT_USAGE
    from runtime.pack import INSTALLED, REPO_ROOT as installed_root
    if INSTALLED and root == installed_root:
        print("error: the packs installed with agricola are not for editing; give --root (a folder with "
              "rules/ and cards/, such as a copy of the project); nothing written", file=sys.stderr)
        return EXIT_USAGE
    pack_id = args.pack or _default(args, "score")
    ws = packs.Workspace(root, args.packs)
    if pack_id not in ws.pack_ids():
        from .diagnostics import did_you_mean
        where = ", ".join(str(d) for d in [ws.rules_dir] + ws.extra)
        print(f"error: no pack {_shown(pack_id)} in {where}{did_you_mean(pack_id, ws.pack_ids())}; "
              "nothing written", file=sys.stderr)
        return EXIT_USAGE
    deck = args.deck
    if not re.fullmatch(r"[A-Z][A-Za-z0-9]{0,7}", deck):
        print(f"error: {_shown(deck)} is not a deck: a capital letter, then up to 7 letters or digits "
              "(such as X); nothing written", file=sys.stderr)
        return EXIT_USAGE
    cards_root = ws.new_cards_dir(pack_id)
    folder = cards_root / deck
    if not (folder.parent.resolve() / folder.name).is_relative_to(cards_root.resolve()) or \
            (folder.exists() and not folder.resolve().is_relative_to(cards_root.resolve())):
        print(f"error: {os.path.relpath(folder)} leads outside the pack's card folder {os.path.relpath(cards_root)}; "
              "nothing written", file=sys.stderr)
        return EXIT_USAGE
    card_path = folder / f"{args.id}.yaml"
    test_path = folder / f"{args.id}.test.yaml"
    for path in (card_path, test_path):
        if path.exists() or path.is_symlink():
            print(f"error: {os.path.relpath(path)} already exists; nothing written", file=sys.stderr)
            return EXIT_FAIL
    report = Report()
    src = packs.load_pack(ws, pack_id, report)
    if src is None:   # the pack itself cannot be read: its ids, and whether the new files would work, are unknown
        _print_report(report)
        hint = (" (a folder whose packs extend the built-in ones is given with --packs DIR, not --root)"
                if getattr(args, "root", None) and any(d.code == "E120" for d in report.errors) else "")
        print(f"error: the pack '{pack_id}' cannot be read{hint}; nothing written", file=sys.stderr)
        return EXIT_FAIL
    taken = {str(e.get("id")): e for e in src.cards + src.majors}
    if args.id in taken:
        where = taken[args.id].span_of("id")
        print(f"error: pack '{pack_id}' already has a card '{args.id}' ({report.sources.shown(where.file)}:{where.line}); "
              "choose another id; nothing written", file=sys.stderr)
        return EXIT_FAIL
    name = args.name if args.name is not None else args.id.replace("_", " ").title()
    from runtime.pack import defaults
    plays = defaults(root).get("card_new") or {}
    play = str(plays.get(args.kind) or "<action space that plays it>")
    if args.kind == "occupation":
        facts = f"kind: occupation\ndeck: {deck}\nplayers: 1+          # 1+, 3+ or 4+: the player counts it is dealt in\n"
        cost = "# occupations cost what the space that plays them asks; add 'cost:' only for an extra price\n"
        example = "  after you use #wood_accumulation: gain 1 wood"
    else:
        facts = f"kind: minor\ndeck: {deck}\n"
        cost = "cost: 1 wood\n"
        example = "  on play: gain 2 food"
    card = (f"# {_comment(name)}: describe it in your own words here.\n"
            f"id: {args.id}\nname: {json.dumps(name, ensure_ascii=False)}\n{facts}{cost}"
            "# requires: occupations >= 2      # a prerequisite, if the card has one\n"
            "points: 0\nbonus_points: false\npassing: false\n"
            "effects: |\n"
            "  # one rule per line; see docs/language.md. For example:\n"
            f"{example}\n")
    # the commands that check the new files, with the folders this one was given (the pack may be found
    # only through them)
    where = "".join(f" --packs {_arg(d)}" for d in args.packs)
    top = f"agricola --root {_arg(args.root)}" if getattr(args, "root", None) else "agricola"
    validate = f"{top} validate{where} {_arg(os.path.relpath(card_path))}"
    run = f"{top} test{where} {_arg(os.path.relpath(test_path))}"
    test = (f"# Scenarios for {_comment(name)}: run them with  {_comment(run)}\n"
            f"pack: {pack_id}\nplayers: 2\nscenarios:\n"
            f"  - name: {json.dumps(name + ' is played and its effect happens', ensure_ascii=False)}\n"
            "    given:\n"
            f"      player: {{goods: {{wood: 1, food: 2}}, hand: [{args.id}]}}\n"
            f"    use: {play}\n"
            f"    answers: [{args.id}]\n"
            "    expect:\n"
            f"      player: {{{'occupations' if args.kind == 'occupation' else 'minors'}: [{args.id}]}}\n")
    problems = _card_file_problems(card, os.path.relpath(card_path))
    if problems:
        print(problems + "\nerror: the card file would not be valid (check --name); nothing written",
              file=sys.stderr)
        return EXIT_USAGE
    folder.mkdir(parents=True, exist_ok=True)
    with open(card_path, "x", encoding="utf-8") as f:
        f.write(card)
    with open(test_path, "x", encoding="utf-8") as f:
        f.write(test)
    print(f"wrote {os.path.relpath(card_path)}\nwrote {os.path.relpath(test_path)}")
    print(f"next: fill them in, then run  {validate}  and  {run}")
    return EXIT_OK


def _cut(value, width: int = 40) -> str:
    """A value for a message: control characters escaped, cut short after ``width`` characters."""
    text = repr(str(value))[1:-1]
    return f"{text[:width]}… ({len(str(value))} characters)" if len(text) > width else text


def _shown(value, width: int = 40) -> str:
    """A value from the command line, quoted and cut short for a message."""
    return f"'{_cut(value, width)}'"


def _arg(value) -> str:
    """A path or value as one word of a shell command (quoted only when it must be)."""
    import shlex
    return shlex.quote(str(value))


def _comment(text: str) -> str:
    return " ".join(str(text).split())


def _card_file_problems(text: str, name: str) -> str:
    """The diagnostics of a card file's text read on its own (schema), or ''."""
    from . import schema
    from .diagnostics import Report
    from .loader import load_yaml_text
    report = Report()
    data = load_yaml_text(text, name, report)
    if data is not None:
        schema.validate(data, "card", report)
    return report.render() if report else ""


def cmd_coverage(args) -> int:
    """Compare the pack's cards with the reference list of real cards."""
    from .coverage import coverage_report
    comp = _compiler(args)
    pack_id = args.pack or _default(args, "score")
    from runtime.pack import defaults
    text, ok = coverage_report(comp, pack_id, args.edition, args.reference,
                               default_edition=str(defaults(_root(args)).get("edition") or ""))
    print(text, file=sys.stderr if text.startswith("error:") else sys.stdout)
    return EXIT_OK if ok else EXIT_FAIL


# ---------------------------------------------------------------- schema

def cmd_schema(args) -> int:
    from . import schema
    if args.kind:
        if args.kind not in schema.KINDS:
            print(f"error: unknown schema '{args.kind}' (one of: {', '.join(schema.KINDS)})", file=sys.stderr)
            return EXIT_USAGE
        print(json.dumps(schema.schema(args.kind), indent=2))
    else:
        print(json.dumps(schema.all_schemas(), indent=2))
    return EXIT_OK


# ---------------------------------------------------------------- main

def _terminal_columns() -> int:
    """``shutil.get_terminal_size().columns`` without importing shutil (with bz2, lzma and fnmatch), which
    argparse's help formatter does for every argument added: COLUMNS when it is a positive number, else
    the terminal's width, else 80."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns or 80
        except (AttributeError, ValueError, OSError):
            columns = 80
    return columns


class _Formatter(argparse.HelpFormatter):
    """argparse's help formatter with the same width (the terminal's, less 2), found without shutil."""

    def __init__(self, prog, indent_increment=2, max_help_position=24, width=None):
        super().__init__(prog, indent_increment, max_help_position,
                         _terminal_columns() - 2 if width is None else width)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message):
        self.print_usage(sys.stderr)
        # a huge value is shown cut short
        message = re.sub(r"'([^']{60})[^']{20,}'", lambda m: f"'{m[1]}…'", message)
        print(f"error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def _check_arguments(args) -> str | None:
    """What is wrong with the options every command shares (pack name, seed, folders), or None."""
    from runtime.savegame import MAX_SEED
    pack = getattr(args, "pack", None)
    if pack is not None and (not pack or len(pack) > 100 or any(ch in pack for ch in "/\\\0")
                             or pack in (".", "..")):
        return f"--pack {_shown(pack)} is not a pack name (the name of a folder in rules/)"
    seed = getattr(args, "seed", None)
    if isinstance(seed, int) and abs(seed) > MAX_SEED:
        return f"--seed {_shown(str(seed))} is too large: a seed is a whole number of at most 18 digits"
    for option in ("root", "build"):
        value = getattr(args, option, None)
        if value and Path(value).exists() and not Path(value).is_dir():
            return f"--{option} {_shown(value)} is not a folder"
    if getattr(args, "root", None) and not Path(args.root).is_dir():
        return f"--root {_shown(args.root)}: no such folder"
    home = os.environ.get("AGRICOLA_HOME")
    if not getattr(args, "root", None) and home and not Path(home).is_dir():
        return f"AGRICOLA_HOME={_shown(home)}: no such folder"
    return None


def _command(sub, name: str, text: str, func):
    """A subcommand whose one-line description shows both in ``agricola --help`` and ``agricola NAME --help``."""
    p = sub.add_parser(name, help=text, description=text[:1].upper() + text[1:] + ".")
    p.set_defaults(func=func)
    return p


class _NotBuilt:
    """Stands for the parser of a command that is not being run (``make_parser(only=…)``): it takes the
    command's arguments and builds nothing."""

    def add_argument(self, *args, **kwargs):
        return None

    def add_subparsers(self, *args, **kwargs):
        return self

    def add_parser(self, *args, **kwargs):
        return self

    def set_defaults(self, **kwargs):
        return None


def command_named(argv) -> str | None:
    """The command an argument list runs when it is plain to see: the first word, after any ``--root DIR``
    and ``--build DIR``, if it is a command's name; None otherwise (then every command's parser is built,
    for the help and the error messages)."""
    i = 0
    while i < len(argv) and argv[i] in ("--root", "--build"):
        i += 2
    while i < len(argv) and argv[i].startswith(("--root=", "--build=")):
        i += 1
    word = argv[i] if i < len(argv) else None
    return word if word in COMMANDS else None


COMMANDS = ("validate", "compile", "packs", "play", "watch", "simulate", "balance", "resume", "replay", "score",
            "serve", "test", "cards", "docs", "card", "campaign", "coverage", "schema")


def make_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or with ``only`` of that command alone (the main parser's options and
    messages are the same; building the 17 commands' parsers was a third of ``agricola play``'s argument
    handling)."""
    from . import __version__
    ap = _Parser(prog="agricola", description="Agricola rules compiler and game runner.")
    ap.add_argument("--version", action="version", version=f"agricola {__version__}",
                    help="print the version and exit")
    ap.add_argument("--root", help="folder holding rules/ and cards/ (default: $AGRICOLA_HOME, else this project)")
    ap.add_argument("--build", help="build folder (default: <root>/build)")
    sub = ap.add_subparsers(dest="command", required=True, parser_class=_Parser, metavar="COMMAND")

    def command(name, text, func):
        return _command(sub, name, text, func) if only in (None, name) else _NotBuilt()

    p = command("validate", "check rule, card and scenario files; every problem as file:line:col", cmd_validate)
    p.add_argument("paths", nargs="+", metavar="PATH", help="a pack folder, a pack file, a card file or a scenario file")
    _packs_option(p)
    p.add_argument("--pack", default=None, help="the pack a card file outside any pack is checked with "
                   "(default: 'validate' in rules/defaults.yaml)")

    p = command("compile", "compile packs into <build>/packs/ (only changed modules are rewritten)",
                 cmd_compile)
    p.add_argument("--pack", help="pack name (default: every pack)")
    _packs_option(p)

    p = command("packs", "list the packs: id, name, the pack each extends, players, description",
                 cmd_packs)
    p.add_argument("--json", action="store_true", help="print a JSON list instead of a table (default: a table)")

    p = command("play", "play a full game between agents and print its log and scores", cmd_play)
    p.add_argument("--pack", default=None, help="pack name (default: 'play' in rules/defaults.yaml)")
    _packs_option(p)
    p.add_argument("--players", type=int, default=2, help="number of players (default: 2)")
    p.add_argument("--seed", type=int, default=1, help="seed of the shuffles and of the agents (default: 1)")
    p.add_argument("--agents", default="greedy", metavar="KIND[,KIND…]",
                   help=f"the agent of each seat, one kind per player, or one kind for all "
                        f"({', '.join(_playing_agent_kinds())}; 'human' for a person at this terminal; "
                        "default: greedy)")
    p.add_argument("--decks", default=None, metavar="DECK[,DECK…]",
                   help="deal hand cards from these decks only, e.g. E or E,I (default: every deck of the pack)")
    p.add_argument("--json", action="store_true", help="print one JSON object with the scores (default: the log)")
    p.add_argument("--save", metavar="FILE",
                   help="save the game after every decision (JSON; see docs/save-format.md; default: no save)")

    p = command("watch", "step through a saved game (next, back, jump to a round), farms drawn", cmd_watch)
    p.add_argument("file", metavar="FILE", help="a save file (agricola play --save)")

    p = command("simulate", "play many seeded games between agents into a folder DuckDB reads "
                 "(resumable; a process pool or Ray)", cmd_simulate)
    p.add_argument("--pack", default=None, help="pack name (default: 'simulate' in rules/defaults.yaml)")
    _packs_option(p)
    p.add_argument("--players", type=int, default=2, help="number of players (default: 2)")
    p.add_argument("--games", type=int, default=100, help="number of games (default: 100)")
    p.add_argument("--agents", default="greedy", metavar="KIND[,KIND…]",
                   help=f"the agent of each seat, one kind per player, or one kind for all "
                        f"({', '.join(_playing_agent_kinds())}; default: greedy)")
    p.add_argument("--decks", default=None, metavar="DECK[,DECK…]",
                   help="deal hand cards from these decks only (default: every deck of the pack)")
    p.add_argument("--seed", type=int, default=1, help="base seed: game i has a seed derived from it and i "
                   "(default: 1)")
    p.add_argument("--workers", type=int, default=None,
                   help="processes of the local pool (default: one per core)")
    p.add_argument("--ray", default=None, metavar="ADDRESS|auto",
                   help="play on Ray instead: 'auto' joins or starts a local Ray runtime, an address joins "
                        "that cluster (default: no Ray)")
    p.add_argument("--out", required=True, metavar="DIR", help="the run's folder, required (an existing run of "
                   "the same settings is continued)")
    p.add_argument("--batch", type=int, default=None, help="games per file, the unit a killed run plays again "
                   "(default: 10)")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object (default: a line)")
    p.add_argument("--quiet", action="store_true", help="no progress bar (default: a bar on stderr)")

    p = command("balance", "write the balance report of simulated games: a static HTML page with plots",
                 cmd_balance)
    p.add_argument("dir", metavar="DIR", help="a run folder of 'agricola simulate', or a folder of them")
    p.add_argument("--out", default=None, metavar="REPORT",
                   help="the report's file (a folder gets index.html; default: DIR/balance.html)")
    p.add_argument("--card", default=None, metavar="ID",
                   help="a designer's view of one hand card against the pack (default: the whole pack)")
    p.add_argument("--min-games", type=int, default=30,
                   help="games in each group for a card to be ranked strongest or weakest (default: 30)")

    p = command("resume", "continue a saved game with its agents (a person's seat is asked at this terminal)",
                 cmd_resume)
    p.add_argument("file", metavar="FILE", help="a save file written by 'agricola play --save'")
    p.add_argument("--json", action="store_true", help="print one JSON object with the scores (default: the log)")

    p = command("replay", "play a finished game's log again and check its final state", cmd_replay)
    p.add_argument("log", metavar="LOG", help="the save file of a finished game")

    p = command("score", "score an end-of-game farm described in YAML (docs/farm-format.md)", cmd_score)
    p.add_argument("farm", metavar="FARM.yaml", help="the farm file")
    p.add_argument("--pack", default=None, help="pack name (default: 'score' in rules/defaults.yaml)")
    _packs_option(p)
    p.add_argument("--json", action="store_true", help="print the scores as JSON (default: a table)")
    p.add_argument("--svg", metavar="FILE", help="also draw the farm as SVG into FILE (default: no picture)")

    p = command("serve", "the web playtest server: play, watch and upload games in a browser, "
                 "packs recompiled when their files change", cmd_serve)
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1, this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    p.add_argument("--db", default=None, metavar="FILE",
                   help="the SQLite file of the games (default: <build>/playtest.sqlite3)")
    p.add_argument("--no-reload", action="store_true",
                   help="do not recompile packs when their files change (default: hot reload on)")

    p = command("test", "run scenario files (card tests *.test.yaml) and report failures", cmd_test)
    p.add_argument("paths", nargs="+", metavar="PATH", help="a scenario file, or a folder of them")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="also list the scenarios that pass (default: only failures)")
    p.add_argument("--packs", action="append", default=[], metavar="DIR",
                   help="another folder of packs (DIR/<pack>/game.yaml, cards in DIR/../cards/<pack>/), "
                        "or a folder holding one in rules/, e.g. tests/packs (default: only the packs under "
                        "<root>/rules)")

    p = command("cards", "list the cards of a pack or their tags, or show a card's text (generated from its effects)",
                 cmd_cards)
    p.add_argument("action", choices=["show", "list", "tags"],
                   help="'list' every card, 'show' the cards named, or 'tags': each card tag (#oven, …) and "
                        "the cards that carry it")
    p.add_argument("ids", nargs="*", metavar="ID", help="card ids, for 'show'; tags, for 'tags' (default: every tag)")
    p.add_argument("--pack", default=None, help="pack name (default: 'score' in rules/defaults.yaml)")
    _packs_option(p)

    p = command("docs", "write the pack's printable reference: an HTML site (and a PDF with --pdf)", cmd_docs)
    p.add_argument("--pack", default=None, help="pack name (default: 'score' in rules/defaults.yaml)")
    _packs_option(p)
    p.add_argument("--out", default=None, help="output folder (default: <build>/docs/<pack>)")
    p.add_argument("--pdf", action="store_true", help="also print <pack>.pdf with headless Chromium (default: no PDF)")
    p.add_argument("--chromium", default=None,
                   help="path of the Chromium binary (default: $AGRICOLA_CHROMIUM, else /usr/bin/chromium)")

    card_sub = sub if only in (None, "card") else _NotBuilt()
    p = card_sub.add_parser("card", help="card tools: 'card new ID --kind occupation|minor' writes files to fill in",
                       description="Card tools.")
    csub = p.add_subparsers(dest="card_command", required=True, parser_class=_Parser, metavar="COMMAND")
    q = _command(csub, "new", "write cards/<pack>/<deck>/ID.yaml and ID.test.yaml to fill in", cmd_card_new)
    q.add_argument("id", metavar="ID", help="the new card's id (lower-case letters, digits and '_')")
    q.add_argument("--kind", required=True, choices=["occupation", "minor"],
                   help="occupation or minor improvement (required; no default)")
    q.add_argument("--deck", default="X", help="deck letter (default: X, for your own cards)")
    q.add_argument("--name", help="the card's name (default: from the id)")
    q.add_argument("--pack", default=None, help="pack name (default: 'score' in rules/defaults.yaml)")
    _packs_option(q)

    campaign_sub = sub if only in (None, "campaign") else _NotBuilt()
    p = campaign_sub.add_parser("campaign", help="campaigns: 'campaign new FILE --pack PACK', 'campaign next FILE', "
                       "'campaign status FILE'", description="Campaigns: several games in a row, each carrying "
                       "into the next (docs/variants.md, Campaigns).")
    csub = p.add_subparsers(dest="campaign_command", required=True, parser_class=_Parser, metavar="COMMAND")
    q = _command(csub, "new", "start a campaign file of a pack with campaign rules", cmd_campaign_new)
    q.add_argument("file", metavar="FILE", help="the new campaign file (never replaces a file)")
    q.add_argument("--pack", required=True, help="a pack with campaign rules (required; 'agricola packs' lists them)")
    q.add_argument("--players", type=int, default=None,
                   help="number of players (default: the campaign's, when it is for one number)")
    q.add_argument("--seed", type=int, default=1, help="the campaign's seed: game i's seed comes from it and i "
                   "(default: 1)")
    q = _command(csub, "next", "play the campaign's next game (agents, or people at the terminal) and write "
                 "what carries over", cmd_campaign_next)
    q.add_argument("file", metavar="FILE", help="a campaign file (agricola campaign new)")
    q.add_argument("--agents", default="greedy", metavar="KIND[,KIND…]",
                   help=f"the agent of each seat, one kind per player, or one kind for all "
                        f"({', '.join(_playing_agent_kinds())}; 'human' for a person at this terminal; "
                        "default: greedy)")
    q.add_argument("--seed", type=int, default=None,
                   help="seed of the game (default: from the campaign's seed and the game's number)")
    q.add_argument("--json", action="store_true", help="print the campaign's standing as JSON (default: text)")
    q = _command(csub, "status", "print the campaign so far and its next game", cmd_campaign_status)
    q.add_argument("file", metavar="FILE", help="a campaign file (agricola campaign new)")
    q.add_argument("--json", action="store_true", help="print one JSON object (default: text)")

    p = command("coverage", "how many real cards the pack expresses, and what the missing ones need",
                cmd_coverage)
    p.add_argument("--pack", default=None, help="pack name (default: 'score' in rules/defaults.yaml)")
    _packs_option(p)
    p.add_argument("--edition", default=None, help="edition id in the reference list (default: the pack's 'edition' in its game.yaml, "
                        "else 'edition' in rules/defaults.yaml)")
    p.add_argument("--reference", default=None, help="a list of real cards in the format of compiler/reference/cards.json "
                   "(default: that catalogue, shipped with agricola)")

    p = command("schema", "print the JSON Schemas of rule, card, scenario, farm, save and campaign files", cmd_schema)
    p.add_argument("kind", nargs="?", help="one schema: card, farm, game, game-full, major, save, campaign, scenario, "
                   "space, spaces (default: all of them)")
    return ap


def main(argv=None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    args = make_parser(command_named(argv)).parse_args(argv)
    problem = _check_arguments(args)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return EXIT_USAGE
    try:
        return args.func(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except RuleLoop as exc:  # a card that keeps triggering itself: the card's mistake, located at its rule
        print(f"{exc.where}: error: {exc.text}", file=sys.stderr)
        return EXIT_FAIL
    except Exception as exc:  # a bug of ours: say so plainly, without a traceback
        if isinstance(exc, OSError) and (exc.filename is not None or no_space(exc)):
            # the system refused a read or a write (a full disk, a folder that cannot be written): not a bug
            why = "no space left on the device" if no_space(exc) else (exc.strerror or str(exc))
            where = f"{_cut(exc.filename, 200)}: " if exc.filename is not None else ""
            print(f"error: {where}{why}", file=sys.stderr)
            return EXIT_FAIL
        print(f"internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        print("this is a bug in agricola; please report it with the command you ran "
              "(set AGRICOLA_DEBUG=1 to see the traceback)", file=sys.stderr)
        if os.environ.get("AGRICOLA_DEBUG"):
            raise
        return 3


if __name__ == "__main__":
    sys.exit(main())
