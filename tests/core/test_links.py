"""A per-card path filled in from one reversal equals Django's own reverse()."""

import pytest
from django.urls import NoReverseMatch, reverse, set_script_prefix
from django.utils import translation

from core.links import token_path

ROUTES = ["explorer:card-detail", "explorer:card-picture", "api:card-breakdown"]


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("prefix", ["/", "/codex/"])
def test_it_is_reverse(route, language, prefix):
    set_script_prefix(prefix)
    try:
        with translation.override(language):
            for token in (1, 23, 987654321, 10**12):
                assert token_path(route, token) == reverse(route, args=[token])
    finally:
        set_script_prefix("/")


def test_a_route_without_a_token_is_refused():
    with pytest.raises(NoReverseMatch):
        token_path("explorer:card-list", 1)
