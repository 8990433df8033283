"""The JSON API described as data: the index (``/api/``) and the documentation page
(``/<lang>/api/``) both read it, so neither can forget an endpoint.

Each app that serves endpoints under ``/api/`` describes them in a module ``api_docs``
of its own holding ``ENDPOINTS``, a tuple of `Endpoint` (the explorer's are below); the
packs and arena apps add ``packs/api_docs.py`` and ``arena/api_docs.py`` and appear on
both pages without an edit here. Descriptions are lazy translations, so the page speaks
the visitor's language.

>>> [e.key for e in ENDPOINTS]
['api-index', 'card-search', 'card', 'bulk-cards']
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from django.apps import apps
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

__all__ = ["ENDPOINTS", "ERROR_FIELDS", "Endpoint", "Field", "Param", "endpoints"]


@dataclass(frozen=True, slots=True)
class Param:
    """A query parameter: its name, what it does, an example value."""

    name: str
    description: Promise | str
    example: str = ""
    required: bool = False


@dataclass(frozen=True, slots=True)
class Field:
    """A field of a response object (``a.b`` for a nested one)."""

    name: str
    description: Promise | str


@dataclass(frozen=True, slots=True)
class Endpoint:
    """One endpoint: its address, what it answers, and an example request and answer."""

    key: str  # a stable id, also the page anchor
    path: str  # with <placeholders>
    summary: Promise | str
    example: str  # a request path that works ("" when none is fixed, e.g. a visitor's opening)
    example_response: str  # the answer, shortened with …
    params: tuple[Param, ...] = ()
    fields: tuple[Field, ...] = ()
    errors: tuple[tuple[int, str], ...] = ()  # (status, code)
    method: str = "GET"


ERROR_FIELDS: tuple[Field, ...] = (
    Field("object", _("Always “error”.")),
    Field("code", _("A stable machine-readable code, such as not_found or unknown_field.")),
    Field("status", _("The HTTP status, repeated in the body.")),
    Field(
        "details",
        _(
            "What went wrong and how to fix it, in the language of the request's "
            "Accept-Language header (English or Russian)."
        ),
    ),
    Field(
        "params",
        _(
            "Only on some errors: the specifics as data (the fields refused, the first date "
            "with a value, …)."
        ),
    ),
)

_CARD_SUMMARY_FIELDS: tuple[Field, ...] = (
    Field("object", _("Always “card”.")),
    Field("token", _("The card's token (its number in the collection).")),
    Field("name", _("The card's name.")),
    Field("starter", _("True for a starter card (the Free rarity).")),
    Field("equipped", _("Each slot's attribute: name, supply (print count), kind.")),
    Field("rarity", _("free, common, rare, epic or legendary.")),
    Field("role", _("tank, striker, support or control.")),
    Field("skill_affinity", _("pierce, speed, steal or arcane.")),
    Field("active_skill", _("The active skill, or null (only Legendary cards have one).")),
    Field("energy_cost", _("NRG to deploy it.")),
    Field("atk", _("Final ATK.")),
    Field("hp", _("Final HP.")),
    Field("def", _("DEF (the shield).")),
    Field("ability", _("The ability value.")),
    Field("getgems_rank", _("The GetGems rank, or null.")),
    Field("burned_stickers", _("How many stickers were burned.")),
    Field("wardrobe_score", _("The wardrobe score with one decimal (a string), or null.")),
    Field("picture_url", _("The card's picture (SVG).")),
    Field("page_url", _("The card's page on this site, in the request's language.")),
    Field("uri", _("This card's full JSON (the endpoint below).")),
)

ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        key="api-index",
        path="/api/",
        summary=_("Every endpoint of the API, with its address and the documentation."),
        example="/api/",
        example_response=(
            '{"object": "list", "docs_url": "https://…/en/api/", "count": 9, "results": '
            '[{"object": "endpoint", "key": "api-index", "app": "Explorer", "method": "GET", '
            '"path": "/api/", "summary": "…", "example": "https://…/api/"}, …]}'
        ),
        fields=(
            Field("object", _("Always “list”.")),
            Field("docs_url", _("This documentation.")),
            Field("count", _("How many endpoints there are.")),
            Field("results", _("One object per endpoint: key, method, path, summary, example.")),
        ),
    ),
    Endpoint(
        key="card-search",
        path="/api/cards",
        summary=_(
            "Cards a search finds, in the search language of the card list, a page at a time."
        ),
        example="/api/cards?q=r%3Alegendary+or+is%3Acombo&page_size=2",
        example_response=(
            '{"object": "list", "query": "r:legendary or is:combo", "described": ["…"], '
            '"count": 147, "page": 1, "pages": 74, "next": "https://…/api/cards?q=…&page=2&'
            'page_size=2", "previous": null, "results": [{"object": "card", "token": 27, '
            '"name": "Sage #27", "starter": false, "equipped": {"head": {"name": '
            '"Royal Antenna", "supply": 37, "kind": "normal"}, …}, "rarity": "legendary", …}, …]}'
        ),
        params=(
            Param(
                "q",
                _("The search (see the search help); empty finds the whole catalogue."),
                "r:epic or r:legendary -is:combo sort:-atk",
            ),
            Param("page", _("The page, from 1."), "2"),
            Param("page_size", _("Cards per page, 1 to 200 (50 by default)."), "100"),
        ),
        fields=(
            Field("object", _("Always “list”.")),
            Field("query", _("The search as sent.")),
            Field("described", _("The search in words, in the request's language.")),
            Field("count", _("How many cards the search finds.")),
            Field("page", _("This page's number.")),
            Field("pages", _("How many pages there are.")),
            Field("next", _("The next page's address, or null.")),
            Field("previous", _("The previous page's address, or null.")),
            Field("results", _("The cards of this page, each a card object:")),
            *(Field(f"results[].{f.name}", f.description) for f in _CARD_SUMMARY_FIELDS),
        ),
        errors=(
            (400, "unknown_field"),
            (400, "bad_choice"),
            (400, "too_many_words"),
            (400, "bad_page"),
            (400, "bad_page_size"),
            (404, "no_page"),
        ),
    ),
    Endpoint(
        key="card",
        path="/api/cards/<token>",
        summary=_(
            "One card: what it is, and its whole breakdown as the engine derives it (the "
            "schema of `python -m engine derive`), every rule and trace step included."
        ),
        example="/api/cards/26",
        example_response=(
            '{"object": "card", "token": 26, "name": "Dumpling #26", "starter": false, '
            '"equipped": {"head": {"name": "Copper Headband", "supply": 312, "kind": "normal"}, '
            '…}, "picture_url": "https://…/en/cards/26/picture.svg", "page_url": '
            '"https://…/en/cards/26/", "rarity": "epic", "decided_by": ["getgems_rank"], '
            '"rules": {"supply_count": "common", …}, "trace": [{"code": "…", …}, …]}'
        ),
        fields=(
            Field("object", _("Always “card”.")),
            Field("token", _("The card's token.")),
            Field("name", _("The card's name.")),
            Field("starter", _("True for a starter card.")),
            Field("equipped", _("Each slot's attribute: name, supply (print count), kind.")),
            Field("wardrobe", _("Every attribute the card owns: slot, name, supply, kind.")),
            Field("getgems_rank", _("The GetGems rank, or null.")),
            Field("burned_stickers", _("Burned stickers.")),
            Field("picture_url", _("The card's picture (SVG).")),
            Field("page_url", _("The card's page, in the request's language.")),
            Field("rarity", _("The rarity; decided_by names the rules that gave it.")),
            Field("rules", _("Each rarity rule's own result; rule_details its evidence.")),
            Field("role", _("The role; role_votes and role_totals say why.")),
            Field("skill_affinity", _("The affinity; skill_table and skill_scores say why.")),
            Field("active_skill", _("The active skill, or null.")),
            Field("template", _("The card's template.")),
            Field("stats", _("Final atk, hp, def and ability; stat_layers builds them up.")),
            Field("energy_cost", _("NRG to deploy; undercharge lists each smaller amount.")),
            Field("effects", _("The deploy, passive and last_breath effects, or null.")),
            Field("next_tier", _("What would lift it one rarity higher, or null.")),
            Field("wardrobe_score", _("The wardrobe score (a string), or null.")),
            Field("trace", _("Every step of the derivation: code, params, value.")),
        ),
        errors=((404, "not_found"),),
    ),
    Endpoint(
        key="bulk-cards",
        path="/api/bulk/cards.json",
        summary=_(
            "The whole collection as one file, in the import schema (it imports back as it "
            "is). Remade when the collection changes; its ETag names the collection's "
            "version, so a client sending If-None-Match downloads it only when it changed."
        ),
        example="/api/bulk/cards.json",
        example_response=(
            '{"attributes": [{"slot": "head", "name": "…", "supply": 60, "kind": "normal"}, …], '
            '"cards": [{"token": 1, "name": "…", "equipped": {…}, "wardrobe": […], …}, …], '
            '"combos": [{"name": {"en": "…", "ru": "…"}, "attributes": [["head", "…"], …], '
            '"rarity": "rare"}, …]}'
        ),
        fields=(
            Field("attributes", _("The attribute catalogue: slot, name, supply, kind.")),
            Field("cards", _("Every card: token, name, starter, equipped, wardrobe, rank…")),
            Field("combos", _("Every combo: its names, its attributes, its rarity.")),
        ),
    ),
)


def endpoints() -> list[tuple[str, Endpoint]]:
    """Every app's endpoints, as (app's verbose name, endpoint), in the apps' order."""
    found: list[tuple[str, Endpoint]] = []
    for config in apps.get_app_configs():
        if config.name == "explorer":
            module_endpoints: tuple[Endpoint, ...] = ENDPOINTS
        else:
            try:
                module = importlib.import_module(f"{config.name}.api_docs")
            except ModuleNotFoundError as error:
                if error.name != f"{config.name}.api_docs":
                    raise
                continue
            module_endpoints = tuple(getattr(module, "ENDPOINTS", ()))
        found.extend((str(config.verbose_name), endpoint) for endpoint in module_endpoints)
    return found
