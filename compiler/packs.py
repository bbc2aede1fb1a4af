"""Finding rule packs, reading their files and applying overlays (``extends: <pack>``).

A pack is a folder ``rules/<pack>/`` with ``game.yaml``, ``actions.yaml``, ``rounds.yaml`` and
``majors.yaml`` (an overlay may have only some of them), plus hand cards under ``cards/<pack>/``
(one YAML file per card). An overlay pack's entries are matched by id with its base pack's:
a matching entry replaces the keys it gives, ``remove: true`` takes the entry out, a new id is added.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from . import schema
from .diagnostics import Report, Span, did_you_mean, shown_path
from runtime.fileio import read_regular_bytes

from .loader import MAX_FILE_BYTES, LDict, load_yaml_file
from runtime.words import plural

RULE_FILES = (("game.yaml", "game"), ("actions.yaml", "spaces"), ("rounds.yaml", "spaces"), ("majors.yaml", "majors"))
MAX_EXTENDS = 8


@dataclass
class PackSource:
    """A pack with its overlays applied: what the checker and the code generator work on."""

    id: str
    chain: list                       # pack ids, base first
    game: LDict
    spaces: list = field(default_factory=list)   # LDict entries (board spaces)
    rounds: list = field(default_factory=list)   # LDict entries (round cards)
    majors: list = field(default_factory=list)
    cards: list = field(default_factory=list)
    files: dict = field(default_factory=dict)    # display path -> sha256 of its bytes
    overlay: dict = field(default_factory=dict)  # what the last pack of the chain changed, for docs
    own_game: dict = field(default_factory=dict)  # the last pack's own game.yaml, before merging

    def content_hash(self) -> str:
        h = hashlib.sha256()
        for name in sorted(self.files):
            h.update(name.encode())
            h.update(self.files[name].encode())
        return h.hexdigest()


def plain_name(name: str) -> bool:
    """Whether ``name`` can be a pack's folder name: not empty, no path separator, not '.' or '..', short."""
    return (isinstance(name, str) and 0 < len(name.encode("utf-8", "replace")) <= 255
            and not any(ch in name for ch in "/\\\0") and name not in (".", ".."))


def short(text, width: int = 40) -> str:
    """A name for a message, cut short when it is long."""
    text = str(text)
    return text if len(text) <= width else f"{text[:width]}… ({len(text)} characters)"


class Workspace:
    """Where packs live: ``<root>/rules/<pack>`` and ``<root>/cards/<pack>``."""

    def __init__(self, root: Path, extra_pack_dirs=()):
        self.root = Path(root)
        self.rules_dir = self.root / "rules"
        self.cards_dir = self.root / "cards"
        # a folder of packs, or a workspace holding one in rules/ (``--packs tests/packs`` as well as
        # ``--packs tests/packs/rules``)
        self.extra = [Path(p) / "rules" if (Path(p) / "rules").is_dir() else Path(p) for p in extra_pack_dirs]
        self.pinned: dict = {}  # pack id -> folder, found before any other (a pack named by its path)

    def pack_dir(self, pack_id: str) -> Path | None:
        if pack_id in self.pinned:
            return self.pinned[pack_id]
        if not plain_name(pack_id):
            return None
        for base in [self.rules_dir] + self.extra:
            d = base / pack_id
            if d.is_dir():
                return d
        for d in self.extra:
            if d.name == pack_id and d.is_dir():
                return d
        return None

    def pack_cards_dir(self, pack_id: str) -> Path:
        """Where a pack's cards live: ``cards/<pack>`` beside the ``rules`` folder the pack was found in
        (a pack from another workspace brings its own cards), else the workspace's ``cards/<pack>``."""
        for base in self.extra:
            if (base / pack_id).is_dir() and not (self.rules_dir / pack_id).is_dir():
                own = base.parent / "cards" / pack_id
                if own.is_dir():
                    return own
        return self.cards_dir / pack_id

    def new_cards_dir(self, pack_id: str) -> Path:
        """Where a new card of a pack goes: ``cards/<pack>`` beside the ``rules`` folder of another
        workspace the pack was found in (written there even before it exists, so that
        ``pack_cards_dir`` finds it afterwards), else the workspace's own ``cards/<pack>``."""
        for base in self.extra:
            if (base / pack_id).is_dir() and not (self.rules_dir / pack_id).is_dir():
                return base.parent / "cards" / pack_id
        return self.cards_dir / pack_id

    def pack_ids(self) -> list[str]:
        ids = set()
        for base in [self.rules_dir] + self.extra:
            if base.is_dir():
                ids.update(p.name for p in base.iterdir() if (p / "game.yaml").exists())
        return sorted(ids)

    def display(self, path: Path) -> str:
        """The path relative to the workspace (a symbolic link is shown by its own name, not its target's)."""
        try:
            full = path.parent.resolve() / path.name if path.name not in ("", ".", "..") else path.resolve()
            return str(full.relative_to(self.root.resolve()))
        except ValueError:
            return str(path)


def _unusable(span: Span) -> LDict:
    """What stands for an entry or a file that could not be read (its problem is reported): an empty,
    not schema_ok entry, so that later stages know that names may be missing (no follow-up errors)."""
    entry = LDict(span=span)
    entry.schema_ok = False
    return entry


def _read_pack_files(ws: Workspace, pack_id: str, directory: Path, report: Report, files: dict, game, overlay: bool):
    """Read one pack's own entry files and cards (no overlay applied). Returns a dict of located data."""
    out = {"actions.yaml": [], "rounds.yaml": [], "majors.yaml": [], "cards": []}
    for fname, kind in RULE_FILES[1:]:
        path = directory / fname
        if not path.exists():
            continue
        before = len(report.diagnostics)
        disp, data = _load_inside(path, directory, ws, report)
        files[disp] = _digest(path)
        if data is None:
            out[fname] = [_unusable(Span(disp, 1, 1))] if len(report.diagnostics) > before else []
            continue
        if not isinstance(data, list):
            span = getattr(data, "span", Span(disp, 1, 1))
            report.error("E112", "this file must be a list of entries (each starting with '- id: …')", span)
            out[fname] = [_unusable(span)]
            continue
        entries = data
        entry_kind = "space" if kind == "spaces" else "major"
        good = []
        for i, entry in enumerate(entries):
            if not isinstance(entry, dict):
                report.error("E112", "each entry must be a mapping (starting with '- id: …')", entries.span_of(i))
                good.append(_unusable(entries.span_of(i)))
                continue
            if overlay:
                entry.schema_ok = _validate_overlay_entry(entry, entry_kind, report)
            else:
                entry.schema_ok = schema.validate(entry, entry_kind, report)
            good.append(entry)
        out[fname] = good
    cards_root = ws.pack_cards_dir(pack_id)
    if cards_root.is_dir():
        # cards/<pack>/<deck>/<card>.yaml; files directly under cards/<pack>/ are notes, not cards
        for path in sorted(cards_root.glob("*/*.yaml")):
            if path.name.endswith(".test.yaml"):
                continue
            before = len(report.diagnostics)
            disp, data = _load_inside(path, cards_root, ws, report)
            files[disp] = _digest(path)
            if data is None and len(report.diagnostics) > before:
                out["cards"].append(_unusable(Span(disp, 1, 1)))
                continue
            if not isinstance(data, dict):
                report.error("E112", "a card file must be a mapping (id, name, kind, …)",
                             getattr(data, "span", Span(disp, 1, 1)))
                out["cards"].append(_unusable(getattr(data, "span", Span(disp, 1, 1))))
                continue
            data.schema_ok = schema.validate(data, "card", report)
            out["cards"].append(data)
    return out


def _digest(path: Path) -> str:
    try:
        return hashlib.sha256(read_regular_bytes(path, MAX_FILE_BYTES)).hexdigest()
    except OSError:
        return ""


def _load_inside(path: Path, folder: Path, ws: Workspace, report: Report):
    """Load a file of a pack, refusing a symbolic link that leads out of the pack's folder (its target is
    neither read nor shown). Returns (display name, located data or None)."""
    disp = ws.display(path)
    try:
        target = path.resolve()
        inside = target.is_relative_to(folder.resolve())
    except (OSError, RuntimeError):  # a loop of symbolic links
        target, inside = None, False
    if not inside:
        report.sources.add_path(disp, path)
        report.error("E100", "cannot read file: it is a symbolic link to a file outside the pack's folder "
                     f"({shown_path(folder)})", Span(disp))
        return disp, None
    return disp, load_yaml_file(path, report, disp)


def _validate_overlay_entry(entry, kind, report):
    """Overlay entries may give only some keys; unknown keys and wrong types are still errors."""
    probe = LDict(entry, span=entry.span)
    probe.value_spans, probe.key_spans = dict(entry.value_spans), dict(entry.key_spans)
    if "name" not in probe:
        probe["name"] = "x"
    if kind == "major" and "cost" not in probe:
        probe["cost"] = "x"
    ok = schema.validate(probe, kind, report)
    for key in [k for k in entry if k not in probe]:  # what the schema rejected (and removed from the probe)
        del entry[key]
    entry.dropped = set(entry.dropped) | probe.dropped
    return ok


def load_pack(ws: Workspace, pack_id: str, report: Report, _chain=None) -> PackSource | None:
    """Read pack ``pack_id`` and its bases, apply the overlays, check ids; None if it cannot be read."""
    chain = list(_chain or [])
    directory = ws.pack_dir(pack_id)
    if directory is None:
        known = ws.pack_ids()
        report.error("E120", f"unknown pack '{short(pack_id)}'{did_you_mean(pack_id[:100], known)}",
                     Span(short(pack_id)),
                     f"packs here: {', '.join(known) or 'none'}")
        return None
    game_path = directory / "game.yaml"
    if not game_path.exists():
        report.sources.add_path(ws.display(directory), directory)
        report.error("E120", f"pack '{pack_id}' has no game.yaml", Span(ws.display(directory)))
        return None
    files: dict = {}
    before = len(report.diagnostics)
    disp, game = _load_inside(game_path, directory, ws, report)
    files[disp] = _digest(game_path)
    if game is None and len(report.diagnostics) > before:
        return None
    if not isinstance(game, dict):
        report.error("E112", "game.yaml must be a mapping of settings", getattr(game, "span", Span(disp, 1, 1)))
        return None
    overlay = "extends" in game
    game.schema_ok = schema.validate(game, "game" if overlay else "game-full", report)
    base_id = game.get("extends")
    if overlay and base_id is None:
        return None  # the schema has reported the 'extends' that is not a pack name
    if "id" in game and str(game["id"]) != pack_id:
        report.error("E122", f"game.yaml says id '{game['id']}' but the pack folder is '{pack_id}'",
                     game.span_of("id"))
    own = _read_pack_files(ws, pack_id, directory, report, files, game, overlay)
    if not overlay:
        src = PackSource(pack_id, chain=[pack_id], game=game, files=files, own_game=game)
        src.spaces, src.rounds = own["actions.yaml"], own["rounds.yaml"]
        src.majors, src.cards = own["majors.yaml"], own["cards"]
        check_ids(src, report)
        return src
    base_id = str(base_id)
    if base_id == pack_id or base_id in chain or len(chain) >= MAX_EXTENDS:
        report.error("E123", f"pack '{pack_id}' extends '{base_id}', which leads back to itself",
                     game.span_of("extends"))
        return None
    if ws.pack_dir(base_id) is None:
        known = [k for k in ws.pack_ids() if k != pack_id]
        report.error("E120", f"unknown pack '{base_id}' in 'extends'{did_you_mean(base_id, known)}",
                     game.span_of("extends"), f"packs here: {', '.join(known) or 'none'}")
        return None
    base = load_pack(ws, base_id, report, chain + [pack_id])
    if base is None:
        return None
    src = PackSource(pack_id, chain=base.chain + [pack_id], game=_merge_game(base.game, game),
                     files={**base.files, **files}, own_game=game)
    src.overlay = {"game": [k for k in game if k not in ("id", "name", "extends", "description")],
                   "spaces": [], "rounds": [], "majors": [], "cards": []}
    src.spaces = _merge_entries(base.spaces, own["actions.yaml"], "space", report, src.overlay["spaces"])
    src.rounds = _merge_entries(base.rounds, own["rounds.yaml"], "space", report, src.overlay["rounds"])
    src.majors = _merge_entries(base.majors, own["majors.yaml"], "major", report, src.overlay["majors"])
    src.cards = _merge_entries(base.cards, own["cards"], "card", report, src.overlay["cards"])
    _leave_what_needs_removed(src, base, report)
    check_ids(src, report)
    return src


def _merge_game(base: LDict, over: LDict) -> LDict:
    out = LDict(base, span=base.span)
    out.value_spans = dict(base.value_spans)
    out.key_spans = dict(base.key_spans)
    out.pop("description", None)  # a description says what its own pack is: never inherited
    out.schema_ok = base.schema_ok and over.schema_ok
    for key, value in over.items():
        if key == "extends":
            continue
        if key == "scoring" and isinstance(value, list) and isinstance(base.get("scoring"), list):
            value = _merge_entries(base["scoring"], value, None, None, [])
        out[key] = value
        out.value_spans[key] = over.span_of(key)
        out.key_spans[key] = over.key_span(key)
    return out


def _merge_entries(base: list, over: list, kind, report, changes: list) -> list:
    result = [e for e in base]
    index = {str(e.get("id")): i for i, e in enumerate(result) if isinstance(e, dict)}
    removed = set()
    for entry in over:
        if not isinstance(entry, dict):
            result.append(entry)  # the schema has reported it
            continue
        if not isinstance(entry.get("id"), str):  # the schema has reported it: it matches nothing
            result.append(entry)
            continue
        eid = entry["id"]
        if entry.get("remove"):
            if eid in index:
                removed.add(eid)
                changes.append(("removed", eid, entry))
            elif report is not None:
                report.error("E124", f"cannot remove '{eid}': the base pack has no such entry"
                             f"{did_you_mean(eid, index)}", entry.span_of("id"))
            continue
        if eid in index:
            merged = LDict(result[index[eid]], span=entry.span)
            merged.value_spans = dict(result[index[eid]].value_spans)
            merged.key_spans = dict(result[index[eid]].key_spans)
            merged.schema_ok = getattr(result[index[eid]], "schema_ok", True) and getattr(entry, "schema_ok", True)
            merged.dropped = set(getattr(result[index[eid]], "dropped", ())) | set(getattr(entry, "dropped", ()))
            for key, value in entry.items():
                merged[key] = value
                merged.value_spans[key] = entry.span_of(key)
                merged.key_spans[key] = entry.key_span(key)
            result[index[eid]] = merged
            changes.append(("changed", eid, entry))
        else:
            if kind is not None and report is not None and getattr(entry, "schema_ok", True):
                missing = [k for k in schema.schema(kind).get("required", []) if k not in entry]
                close = did_you_mean(eid, index)
                if missing and close:
                    # most likely a misspelt id of an entry the overlay meant to change
                    report.error("E124", f"the base pack has no entry '{eid}' to change{close}", entry.span_of("id"),
                                 f"an entry with a new id is a new entry and needs all its keys "
                                 f"(here also {', '.join(repr(k) for k in missing)})")
                    entry.schema_ok = False
                    continue
                entry.schema_ok = schema.validate(entry, kind, report)  # a new entry must be complete
            index[eid] = len(result)
            result.append(entry)
            changes.append(("added", eid, entry))
    return [e for e in result if not isinstance(e, dict) or str(e.get("id")) not in removed]


# ---------------------------------------------------------------- removing what base entries need

GROUPS = (("spaces", "action space"), ("rounds", "round card"), ("majors", "major improvement"), ("cards", "card"))


def _effect_texts(entry):
    """(parser start, text) of every effect-language text of an entry."""
    for key, start in (("effect", "body"), ("effects", "rules"), ("requires", "cond"), ("cost", "goods")):
        if isinstance(entry.get(key), str):
            yield start, entry[key]
    by_players = entry.get("by_players")
    if isinstance(by_players, dict):
        for over in by_players.values():
            if isinstance(over, dict) and isinstance(over.get("effect"), str):
                yield "body", over["effect"]


def _references(entry) -> set:
    """The ids ('id', name) and tags ('tag', name) of spaces and cards an entry's effects name."""
    from . import nodes as N
    from .parser import parse
    trees = [parse(text, start, Report()) for start, text in _effect_texts(entry)]  # errors: reported when checked
    out = N.names_in(tree for tree in trees if tree is not None)
    for name in entry.get("upgrade_of") or []:
        out.update((("id", str(name)), ("tag", str(name))))
    return out


def _leave_what_needs_removed(src: PackSource, base: PackSource, report: Report):
    """An overlay that removes an entry which other entries name: a hand card that names it leaves the
    variant too (a warning at the removal says which); an action space, round card or major improvement
    that names it is an error at the removal, with the fix. Either way the base files are not blamed."""
    removed = [(group, eid, entry) for group, _ in GROUPS for change, eid, entry in src.overlay[group]
               if change == "removed"]
    if not removed:
        return
    remaining = {str(e.get("id")) for group, _ in GROUPS for e in getattr(src, group) if isinstance(e, dict)}
    tags_left = {str(t) for group, _ in GROUPS for e in getattr(src, group) if isinstance(e, dict)
                 for t in (e.get("tags") or [])}
    gone = {}   # ('id' or 'tag', name) -> (the removal entry to point at, the ids removed)
    removal_names = {}
    for group, eid, entry in removed:
        gone[("id", eid)] = (entry, [eid])
        base_entry = next((e for e in getattr(base, group) if isinstance(e, dict) and str(e.get("id")) == eid), {})
        removal_names[eid] = str(base_entry.get("name", eid))
        for tag in base_entry.get("tags") or []:
            if str(tag) not in tags_left:
                gone.setdefault(("tag", str(tag)), (entry, []))[1].append(eid)
    words = {name for _, name in gone}
    needs: dict = {}   # removal entry id -> [(group, what, entry, names)]
    for group, what in GROUPS:
        for e in getattr(src, group):
            if not isinstance(e, dict):
                continue
            texts = " ".join(text for _, text in _effect_texts(e)) + " " + " ".join(map(str, e.get("upgrade_of") or []))
            if not any(w in texts for w in words):
                continue
            named = sorted(ref for ref in _references(e) if ref in gone and not (ref[0] == "id" and ref[1] in remaining))
            for ref in named:
                needs.setdefault(ref, []).append((group, what, e, ref))
    leaving = set()
    for ref, users in needs.items():
        removal, ids = gone[ref]
        eid = (f"the last entries with the tag #{ref[1]} ({', '.join(ids)})" if ref[0] == "tag" and len(ids) > 1
               else f"'{ids[0]}'")
        keep = "one of them" if ref[0] == "tag" and len(ids) > 1 else eid
        cards = [(e, ref) for group, what, e, ref in users if group == "cards"]
        others = [(what, e, ref) for group, what, e, ref in users if group != "cards"]
        if cards:
            names = ", ".join(f"{e.get('name', e.get('id'))} ({report.sources.shown(e.span.file)})" for e, _ in cards)
            named = f"#{ref[1]}" if ref[0] == "tag" else "it"
            report.warning("W125", f"removing {eid} also takes out {plural(len(cards), 'card')} that "
                           f"{'names' if len(cards) == 1 else 'name'} {named}: {names}", removal.span_of("id"),
                           f"to keep {'it' if len(cards) == 1 else 'them'} in this variant, keep {keep}")
            what_gone = (f"the tag #{ref[1]}" if ref[0] == "tag" else
                         f"{removal_names.get(ref[1], ref[1])}")
            for e, ref in cards:
                leaving.add(id(e))
                src.overlay["cards"].append(("removed", str(e.get("id")), removal))
                src.overlay.setdefault("why", {})[str(e.get("id"))] = \
                    f"it names {what_gone}, which this variant removes"
        for what, e, ref in others:
            leaving.add(id(e))
            file = e.span.file.rsplit("/", 1)[-1]
            report.error("E125", f"cannot remove {eid}: the {what} '{e.get('id')}' ({report.sources.shown(e.span.file)}) "
                         f"names {'#' if ref[0] == 'tag' else ''}{ref[1]}", removal.span_of("id"),
                         f"remove '{e.get('id')}' too (an entry '- id: {e.get('id')}' with 'remove: true' in "
                         f"this pack's {file}), or keep {keep}")
    if leaving:
        for group, _ in GROUPS:
            setattr(src, group, [e for e in getattr(src, group) if id(e) not in leaving])


def check_ids(src: PackSource, report: Report):
    seen: dict = {}
    for group in (src.spaces + src.rounds, src.majors + src.cards):
        for entry in group:
            eid = entry.get("id")
            if eid is None:
                continue
            eid = str(eid)
            if eid in seen:
                first = seen[eid]
                report.error("E121", f"duplicate id '{eid}'", entry.span_of("id"),
                             f"'{eid}' is already used at {report.sources.shown(first.file)}:{first.line}")
            else:
                seen[eid] = entry.span_of("id")
        seen.clear()
