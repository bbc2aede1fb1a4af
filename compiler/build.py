"""Stage 6: the compiler's front object. Loads a pack, checks it, writes ``build/packs/<pack>/``.

Output is byte-identical across runs. Each generated module carries a key (a hash of its inputs: its
entries, the files they come from, the names of the whole pack, and the compiler itself); a module whose
key has not changed is neither regenerated nor rewritten, so an incremental build writes exactly what a
clean build would.
"""
from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field
from pathlib import Path

from runtime.fileio import clean_stale_temps, write_text_atomic

from . import __version__, checker, codegen, packs
from .stamp import compiler_fingerprint, content_hash as stamped_hash
from .diagnostics import Report
from .loader import plain

@dataclass
class BuildResult:
    pack: str
    ok: bool
    report: Report
    out_dir: Path | None = None
    written: list = field(default_factory=list)
    unchanged: list = field(default_factory=list)
    seconds: float = 0.0


def _key(*parts) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(json.dumps(plain(part), sort_keys=True, ensure_ascii=True).encode())
        h.update(b"\0")
    return h.hexdigest()


def _existing_key(path: Path) -> str | None:
    try:
        with path.open("r", encoding="utf-8") as f:
            for _ in range(4):
                line = f.readline()
                if line.startswith("# key: "):
                    return line[7:].strip()
    except OSError:
        return None
    return None


class Compiler:
    """Compile rule packs from a workspace (``rules/`` and ``cards/``) into ``build/packs``."""

    def __init__(self, root: Path, build_root: Path | None = None, extra_pack_dirs=()):
        self.ws = packs.Workspace(Path(root), extra_pack_dirs)
        self.build_root = Path(build_root) if build_root else Path(root) / "build"

    def check(self, pack_id: str, report: Report | None = None):
        report = report or Report()
        src = packs.load_pack(self.ws, pack_id, report)
        checked = checker.check_pack(src, report) if src is not None else None
        return src, checked, report

    def compile(self, pack_id: str) -> BuildResult:
        t0 = time.perf_counter()
        report = Report()
        src = packs.load_pack(self.ws, pack_id, report)
        if src is None:
            return BuildResult(pack_id, False, report, seconds=time.perf_counter() - t0)
        fingerprint = compiler_fingerprint()
        symbols_key = _key(sorted(str(e.get("id")) for e in src.spaces + src.rounds),
                           sorted(str(t) for e in src.spaces + src.rounds for t in (e.get("tags") or [])),
                           sorted(str(e.get("id")) for e in src.majors + src.cards),
                           sorted(str(t) for e in src.majors + src.cards for t in (e.get("tags") or [])),
                           src.game)
        # The modules record the file and line of what they were generated from, so a module's key holds
        # its files' digests too (a line added at the top changes no data, but every line number after it).
        card_files = {str(e.span.file) for e in src.cards}
        rule_files = sorted((name, digest) for name, digest in src.files.items() if name not in card_files)
        from runtime.pack import build_dir_for
        out_dir = build_dir_for(pack_id, self.build_root)
        # A card whose module was generated from the same card file, symbols and compiler is neither
        # parsed, checked nor generated again.
        card_keys, skip = {}, set()
        for entry in src.cards:
            cid = str(entry.get("id"))
            key = _key(fingerprint, "card", entry, str(entry.span.file), src.files.get(str(entry.span.file)),
                       symbols_key)
            card_keys[cid] = key
            if getattr(entry, "schema_ok", True) and _existing_key(out_dir / f"card_{codegen.ident(cid)}.py") == key:
                skip.add(cid)
        checked = checker.check_pack(src, report, skip_cards=skip)
        if checked is None or report:
            return BuildResult(pack_id, False, report, seconds=time.perf_counter() - t0)
        written, unchanged = [], []

        def emit(name, key, sources, doc, build):
            path = out_dir / f"{name}.py"
            if _existing_key(path) == key:
                unchanged.append(name)
                return
            writer = codegen.ModuleWriter(codegen.ident(name), sources)
            gen = codegen.Gen(writer)
            table_name, table = build(gen)
            text = codegen.render_module(pack_id, key, sources, doc, writer, table_name, table, __version__)
            write_text_atomic(path, text)
            written.append(name)

        files = lambda units: sorted({u.src.file for u in units})  # noqa: E731
        game_key = _key(fingerprint, "game", src.game, rule_files, symbols_key)
        emit("game", game_key, sorted({str(src.game.span.file)}), f"The frame of pack {pack_id!r}.",
             lambda gen: ("GAME", codegen.game_table(gen, checked.game)))
        for name, units in (("spaces", checked.spaces), ("rounds", checked.rounds)):
            key = _key(fingerprint, name, [u.entry for u in units], rule_files, symbols_key,
                       checked.game["settings"]["players"])
            emit(name, key, files(units) or ["(none)"], f"Action spaces of pack {pack_id!r} ({name}).",
                 lambda gen, units=units: ("SPACES", tuple(codegen.space_table(gen, u) for u in units)))
        key = _key(fingerprint, "majors", [u.entry for u in checked.majors], rule_files, symbols_key)
        emit("majors", key, files(checked.majors) or ["(none)"], f"Major improvements of pack {pack_id!r}.",
             lambda gen: ("CARDS", tuple(codegen.card_table(gen, u) for u in checked.majors)))
        card_modules = []
        units = {u.id: u for u in checked.cards}
        for entry in src.cards:
            cid = str(entry.get("id"))
            name = f"card_{codegen.ident(cid)}"
            card_modules.append(name)
            if cid in skip:
                unchanged.append(name)
                continue
            u = units[cid]
            emit(name, card_keys[cid], [u.src.file], f"Card {u.id!r} of pack {pack_id!r}.",
                 lambda gen, u=u: ("CARD", codegen.card_table(gen, u)))
        content_hash = stamped_hash(fingerprint, src.files)  # stamp.is_current recomputes it from the files
        modules = {"game": "game", "spaces": "spaces", "rounds": "rounds", "majors": "majors"}
        init_text = codegen.render_package(pack_id, src.chain, content_hash, modules, card_modules, __version__)
        init_path = out_dir / "__init__.py"
        if not init_path.exists() or init_path.read_text(encoding="utf-8") != init_text:
            write_text_atomic(init_path, init_text)
            written.append("__init__")
        manifest = json.dumps({"pack": pack_id, "chain": src.chain, "content_hash": content_hash,
                               "compiler": __version__, "modules": sorted(["game", "spaces", "rounds", "majors"]
                                                                          + card_modules)},
                              indent=2, sort_keys=True) + "\n"
        man_path = out_dir / "manifest.json"
        if not man_path.exists() or man_path.read_text(encoding="utf-8") != manifest:
            write_text_atomic(man_path, manifest)
        wanted = {f"{m}.py" for m in ["game", "spaces", "rounds", "majors"] + card_modules} | {"__init__.py"}
        for stale in out_dir.glob("*.py"):
            if stale.name not in wanted:
                stale.unlink()
        clean_stale_temps(out_dir)  # the temporary files of a compile that was killed
        return BuildResult(pack_id, True, report, out_dir, written, unchanged, time.perf_counter() - t0)
