"""``field__in`` on an integer column ignores numbers the column cannot hold.

Django guards ``exact``, ``gt``, ``gte``, ``lt`` and ``lte`` on integer fields against
out-of-range numbers (``IntegerFieldOverflow``: no row can match), but not ``in``: on
SQLite a 20-digit id in ``pk__in`` raises ``OverflowError`` in the database driver. Every
``ModelMultipleChoiceField`` checks its posted ids with ``pk__in`` — the admin's
many-to-many fields, the wiki's related pages for Editors — so a 20-digit id was a 500.
With this lookup such an id matches nothing and the form says "Select a valid choice",
as it does for any unknown id. Registered on ``IntegerField`` (every auto and integer
field) by ``core.apps``.
"""

from __future__ import annotations

from typing import Any

from django.db.models import IntegerField
from django.db.models.lookups import In

__all__ = ["IntegerFieldIn"]


class IntegerFieldIn(In):
    """``in`` that drops the integers outside the column's range (they match no row)."""

    def process_rhs(self, compiler: Any, connection: Any) -> Any:
        if self.rhs_is_direct_value():
            low, high = connection.ops.integer_field_range(
                self.lhs.output_field.get_internal_type()
            )

            def fits(value: object) -> bool:
                if not isinstance(value, int):
                    return True
                return (low is None or value >= low) and (high is None or value <= high)

            self.rhs: Any = [v for v in self.rhs if fits(v)]
        return super().process_rhs(compiler, connection)


def register() -> None:
    IntegerField.register_lookup(IntegerFieldIn)
