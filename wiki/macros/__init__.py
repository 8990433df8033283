"""Live tables for wiki pages: ``{{ name }}`` / ``{{ name arg }}`` alone on a line.

``wiki.macros.registry`` holds the registry and the table helpers; each family of tables
has its module (``rarity``, ``stats``, ``match``, ``packs``, ``arena``, ``collection``),
imported here so that importing ``wiki.macros`` registers every table. Other apps add
theirs from their ``AppConfig.ready()`` through the names re-exported here::

    from wiki.macros import Col, register_macro, table
"""

from . import arena, collection, match, packs, rarity, stats  # noqa: F401  (registers the tables)
from .registry import *  # noqa: F403
