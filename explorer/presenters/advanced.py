"""The advanced search."""

from __future__ import annotations

from dataclasses import dataclass

from ..forms import AdvancedSearchForm


@dataclass(frozen=True, slots=True)
class AdvancedSearchPage:
    form: AdvancedSearchForm
    errors: list[str]

    @property
    def status(self) -> int:
        return 400 if self.errors else 200


def advanced_search_page(form: AdvancedSearchForm) -> AdvancedSearchPage:
    errors = []
    if form.asked and not form.is_valid():
        for name, messages in form.errors.items():
            field_label = form.fields[name].label if name in form.fields else ""
            errors.extend(f"{field_label}: {m}" if field_label else m for m in messages)
    return AdvancedSearchPage(form, errors)
