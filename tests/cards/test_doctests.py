"""The >>> examples in the cards modules' docstrings run (cards/ is not a doctest path)."""

import doctest
import importlib

import pytest


@pytest.mark.parametrize(
    "name",
    [
        "cards.forms",
        "cards.specs",
        "cards.generator",
        "cards.query",
        "cards.search_index",
        "cards.art",
        "cards.binders",
    ],
)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted and not result.failed
