"""Import and export of the whole collection as JSON (the engine's card schema, wrapped).

The file::

    {
      "attributes": [{"slot", "name", "supply", "kind"}, …],
      "cards": [{"token", "name", "starter", "equipped": {slot: {"name", "supply", "kind"}},
                 "wardrobe": [{"slot", "name", "supply", "kind"}], "getgems_rank",
                 "burned_stickers"}, …],
      "combos": [{"name": {"en", "ru"}, "attributes": [[slot, name], …], "rarity"}, …]
    }

Each card is read by ``engine.serialize.card_from_json`` (the engine's own
validation; its wardrobe lists the owned attributes besides the equipped four).
"attributes" is the catalogue; an attribute a card wears or owns need not be
listed there (the card carries its supply and kind), but every mention of one
slot + name must agree, in the file and with the database.

Import is checked in full before anything is written: every problem is reported
with where it is (``cards[12] (token 57)`` and the field path). Then it is one
transaction, and idempotent: cards, attributes and combos are matched by token,
slot + name and English name; only what differs is written, and importing the
same file twice changes nothing the second time. What the file does not mention
is left alone. An attribute whose supply or kind differs from the database is an
error unless ``update_attributes`` is set (that changes every owner's card).

The modules: ``reading`` (the file read and checked, problems located), ``planning``
(every write prepared outside any transaction), ``statements`` (the prepared SQL),
``writing`` (``import_collection``: the plan run in one short transaction) and
``exporting`` (``export_collection``). Import from here.
"""

from .exporting import export_collection
from .planning import ImportResult
from .reading import MAX_INTEGER, ImportFailed, Problem
from .writing import ImportBusy, import_collection

__all__ = [
    "MAX_INTEGER",
    "ImportBusy",
    "ImportFailed",
    "ImportResult",
    "Problem",
    "export_collection",
    "import_collection",
]
