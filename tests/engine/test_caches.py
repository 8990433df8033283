"""engine.caches: every memo is named in one table, and ``clear_caches()`` empties them all."""

from __future__ import annotations

import pytest

import engine
from engine import caches
from engine.caches import BREAKDOWN_TEXT, SIZES, clear_caches, memo
from engine.card.derive import derive
from engine.serialize import breakdown_json
from tests.engine.test_serialize import GOOD


def test_every_named_cache_is_a_memoised_function_with_its_bound() -> None:
    assert engine  # the package imports every module that memoises
    found = {f"{f.__module__}.{f.__qualname__}": f.cache_info().maxsize for f in caches._MEMOISED}
    assert found == dict(SIZES)


def test_a_function_not_named_is_refused() -> None:
    def not_listed(x: int) -> int:
        return x

    with pytest.raises(KeyError):
        memo(not_listed)


def test_clear_caches_empties_the_rules_and_the_text_memo() -> None:
    breakdown_json(derive(engine.card_from_json(GOOD)))
    assert any(f.cache_info().currsize for f in caches._MEMOISED)
    assert BREAKDOWN_TEXT.young
    clear_caches()
    assert not any(f.cache_info().currsize for f in caches._MEMOISED)
    assert not BREAKDOWN_TEXT.young and not BREAKDOWN_TEXT.old
