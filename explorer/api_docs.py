"""The card API described for ``/api/`` and ``/<lang>/api/`` (``core.api`` registry).

>>> [e.key for e in ENDPOINTS]
['card-search', 'card', 'card-history', 'card-explain', 'bulk-cards']
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from core.api import LIST_OBJECT, Endpoint, Field, Param, page_fields, register

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

_WARNINGS = Field(
    "warnings",
    _("What the search read and ignored: [{code, message, position, length}, …]."),
)

ENDPOINTS: tuple[Endpoint, ...] = register(
    "explorer",
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
            'page_size=2", "previous": null, "has_more": true, "next_page": '
            '"https://…/api/cards?q=…&cursor=…&page_size=2", "total_cards": 147, '
            '"results": [{"object": "card", "token": 27, '
            '"name": "Sage #27", "starter": false, "equipped": {"head": {"name": '
            '"Royal Antenna", "supply": 37, "kind": "normal"}, …}, "rarity": "legendary", …}, …]}'
        ),
        params=(
            Param(
                "q",
                _("The search (see the search help); empty finds the whole catalogue."),
                "r:epic or r:legendary -is:combo sort:-atk",
            ),
            Param(
                "page",
                _(
                    "The page, from 1; pages by number reach 10,000 cards deep, beyond that "
                    "follow next_page."
                ),
                "2",
            ),
            Param("page_size", _("Cards per page, 1 to 200 (50 by default)."), "100"),
            Param(
                "explain",
                _(
                    "1: each card carries “explain”, one entry per leaf clause of the search "
                    "in query order: the clause as written without its - or not:, whether it "
                    "holds for the card (ok) and the card's own value."
                ),
                "1",
            ),
            Param(
                "cursor",
                _(
                    "Set by next_page: the signed place after the last card of a page "
                    "(valid for a day, for the same search and page size)."
                ),
                "…",
            ),
        ),
        fields=(
            LIST_OBJECT,
            Field("query", _("The search as sent.")),
            Field("described", _("The search in words, in the request's language.")),
            *page_fields(
                _("How many cards the search finds."),
                _("The cards of this page, each a card object:"),
                (
                    *_CARD_SUMMARY_FIELDS,
                    Field(
                        "explain",
                        _(
                            "With explain=1: [{clause, ok, value}, …]; the search's and, or "
                            "and - combine the ok flags into the card's membership."
                        ),
                    ),
                ),
            ),
            Field("has_more", _("True when another page follows (as Scryfall's lists).")),
            Field(
                "next_page",
                _("The next page's full address with its keyset cursor; absent on the last."),
            ),
            Field(
                "total_cards",
                _(
                    "How many cards the search finds, exact up to 10,000; beyond, absent and "
                    "total_cards_over is true (count then stops at 10,000)."
                ),
            ),
            _WARNINGS,
        ),
        errors=(
            (400, "unknown_field"),
            (400, "bad_choice"),
            (400, "too_many_words"),
            (400, "bad_page"),
            (400, "bad_page_size"),
            (400, "page_too_deep"),
            (400, "bad_cursor"),
            (400, "expired_cursor"),
            (400, "cursor_mismatch"),
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
            Field(
                "inputs_sha256",
                _(
                    "The SHA-256 of the canonical JSON of the engine inputs and the rules "
                    "version: two sites with the same digest derived from the same data."
                ),
            ),
            Field("rules_version", _("The version of the rules the card was derived with.")),
            Field("as_of", _("The day asked with ?as=, or null for today.")),
        ),
        params=(
            Param(
                "as",
                _("A past day, YYYY-MM-DD: the card as derived from that day's market data."),
                "2026-11-30",
            ),
        ),
        errors=((400, "bad_date"), (404, "not_found")),
    ),
    Endpoint(
        key="card-history",
        path="/api/cards/<token>/history",
        summary=_(
            "Every recorded change of a card, newest first: the day, the field (rarity, "
            "role, skill, active_skill, template, stats, effects, energy_cost), before, after "
            "and its causes (market: a supply or the rank; card: a slot or an owned "
            "attribute; rules: a version and a constant)."
        ),
        example="/api/cards/26/history",
        example_response=(
            '{"token": 26, "changes": [{"date": "…", "field": "rarity…", "before": "…", '
            '"after": "…", "causes": [{"kind": "market…", "what": "supply…", "slot": "…", '
            '"attribute": "…", "before": …, "after": …}]}, …]}'
        ),
        fields=(
            Field("token", _("The card's token.")),
            Field("changes", _("Its changes, newest first: date, field, before, after, causes.")),
        ),
        errors=((404, "not_found"),),
    ),
    Endpoint(
        key="card-explain",
        path="/api/cards/<token>/explain",
        summary=_(
            "Why a search finds a card, or why not: each clause with the card's own value, "
            "the clauses that keep it out, and the nearest what-if (from its own wardrobe, "
            "its stickers or its rank) that would make the search find it, as a permalink."
        ),
        example="/api/cards/26/explain?q=r%3Alegendary",
        example_response=(
            '{"object": "explanation", "token": 26, "query": "r:legendary", "matched": false, '
            '"starter_left_out": false, "explain": [{"clause": "r:legendary", "ok": false, '
            '"value": "epic"}], "failed": [{"clause": "r:legendary", "ok": false, "value": '
            '"epic"}], "whatif": {"changes": "burned=6", "url": "https://…/en/cards/26/?burned=6"}'
            ', "warnings": [], …}'
        ),
        params=(Param("q", _("The search to explain the card against."), "r:legendary"),),
        fields=(
            Field("object", _("Always “explanation”.")),
            Field("token", _("The card's token.")),
            Field("query", _("The search as sent.")),
            Field("matched", _("Whether the search finds the card.")),
            Field(
                "starter_left_out",
                _(
                    "True when every clause holds but the card is a starter card, which a "
                    "search leaves out unless it asks for starters."
                ),
            ),
            Field("explain", _("One entry per leaf clause, in query order: clause, ok, value.")),
            Field("failed", _("The clauses that keep the card out, with its values.")),
            Field(
                "whatif",
                _(
                    "The nearest what-if that makes the search find the card: its changes and "
                    "the card page's permalink; null when it matches or none is within reach."
                ),
            ),
            _WARNINGS,
        ),
        errors=((400, "unknown_field"), (404, "not_found")),
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
