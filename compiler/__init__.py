"""The Agricola rules compiler: YAML + effect language -> checked trees -> Python modules.

Stages, one module each: ``loader`` (YAML with positions) -> ``schema`` (JSON Schema) -> ``parser``
(Lark grammar in ``grammar/effects.lark``) -> ``checker`` (names, arity, types) -> ``codegen``
(Jinja2 templates) -> ``build`` (writes ``build/packs/<pack>/``, recompiling only what changed).
"""
__version__ = "0.1.0"
