"""Live tables for wiki pages: ``{{ name }}`` / ``{{ name arg }}`` alone on a line.

``wiki.macros.registry`` holds the registry and the table helpers; each family of tables
has its module (``rarity``, ``stats``, ``match``, ``packs``, ``arena``, ``collection``),
imported here so that importing ``wiki.macros`` registers every table. Other apps add
theirs from their ``AppConfig.ready()`` through the names re-exported here::

    from wiki.macros import Col, register_macro, table

>>> "rarity_effects" in registered_macros() and "slab_brackets" in registered_macros()
True
"""

from . import arena, collection, match, packs, rarity, stats  # noqa: F401  (registers the tables)
from .registry import (
    Col,
    Macro,
    MacroError,
    dash,
    error_box,
    get_macro,
    num,
    percent,
    rarity_cell,
    register_macro,
    registered_macros,
    render_macro,
    signed,
    table,
    unregister_macro,
    yes_no,
)

__all__ = [
    "Col",
    "Macro",
    "MacroError",
    "dash",
    "error_box",
    "get_macro",
    "num",
    "percent",
    "rarity_cell",
    "register_macro",
    "registered_macros",
    "render_macro",
    "signed",
    "table",
    "unregister_macro",
    "yes_no",
]
