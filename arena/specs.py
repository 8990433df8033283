"""The bridge: the only place that turns arena rows into engine inputs (and back).

Rows are ``arena.models.Slab`` (lasting facts) plus a ``Decimal`` value for the day; the
engine takes ``engine.arena.slabs.Slab`` and ``SlabStats``. A match stores its two teams as JSON
snapshots (``team_to_json``) so a later change to a slab or its values never alters a
stored match; ``team_from_json`` rebuilds them exactly (money as decimal strings).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from engine.arena.slabs import Slab as EngineSlab
from engine.arena.slabs import SlabStats, StatBook, slab_stats, stat_book

from .models import Slab

__all__ = ["book_of", "engine_slab", "stats_of", "team_from_json", "team_to_json"]


def engine_slab(row: Slab) -> EngineSlab:
    """The engine's slab (asset ID, name, grade, year) for a row."""
    return EngineSlab(row.asset_id, row.name, Decimal(row.grade), int(row.year))


def stats_of(row: Slab, value: Decimal) -> SlabStats:
    """A slab's stats on a day whose value is ``value``."""
    return slab_stats(engine_slab(row), Decimal(value))


def book_of(row: Slab, value: Decimal) -> StatBook:
    """A slab's stat book (stats and trace) on a day whose value is ``value``."""
    return stat_book(engine_slab(row), Decimal(value))


def team_to_json(team: Iterable[SlabStats]) -> list[dict[str, Any]]:
    """A team as JSON-ready snapshots: the slab's facts and its value on the match day."""
    return [
        {
            "asset_id": m.slab.asset_id,
            "name": m.slab.name,
            "grade": str(m.slab.grade),
            "year": m.slab.year,
            "value": str(m.value),
        }
        for m in team
    ]


def team_from_json(data: Sequence[Mapping[str, Any]]) -> tuple[SlabStats, ...]:
    """The inverse of ``team_to_json``."""
    return tuple(
        slab_stats(
            EngineSlab(
                str(d["asset_id"]), str(d["name"]), Decimal(str(d["grade"])), int(d["year"])
            ),
            Decimal(str(d["value"])),
        )
        for d in data
    )
