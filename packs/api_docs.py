"""The booster API described for ``/api/`` and ``/<lang>/api/`` (``core.api`` registry)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from core.api import LIST_OBJECT, Endpoint, Field, list_fields, register

_POOL_HEAD: tuple[Field, ...] = (
    Field("object", _("Always “pool”.")),
    Field("slug", _("The pool's stable name, used in its addresses.")),
    Field("name", _("The pool's name, in the request's language.")),
    Field("description", _("What the pool holds, in the request's language.")),
    Field("pack_size", _("Cards in one pack.")),
    Field("card_count", _("Cards in the pool.")),
    Field("url", _("The pool's JSON (the endpoint below).")),
    Field("page_url", _("The pool's page on this site, with its odds and an Open button.")),
)

ENDPOINTS: tuple[Endpoint, ...] = register(
    "packs",
    Endpoint(
        key="pool-list",
        path="/api/packs/",
        summary=_("Every booster pool, with its size and its pack size."),
        example="/api/packs/",
        example_response=(
            '{"object": "list", "count": 6, "results": [{"object": "pool", "slug": '
            '"whole-collection", "name": "The whole collection", "pack_size": 5, '
            '"card_count": 975, …}, …]}'
        ),
        fields=(
            LIST_OBJECT,
            *list_fields(
                _("How many pools there are."), _("The pools, each a pool object:"), _POOL_HEAD
            ),
        ),
    ),
    Endpoint(
        key="pool",
        path="/api/packs/<slug>",
        summary=_(
            "One pool and its exact odds: each rarity tier's expected count, its chance of "
            "at least one card per pack and of any one card; each card's chance to be in a "
            "pack; and the power measurement of its cards, when there is one."
        ),
        example="/api/packs/night-sky",
        example_response=(
            '{"object": "pool", "slug": "night-sky", "pack_size": 5, "card_count": 172, '
            '"picks": 5, "tiers": {"rare": {"cards": 34, "expected": {"fraction": "4/3", '
            '"float": 1.333…}, "at_least_one": {…}, "per_card": {…}}, …}, "cards": '
            '[{"token": 7, "name": "…", "rarity": "rare", "chance": {…}}, …], "power": {…}}'
        ),
        fields=(
            *_POOL_HEAD,
            Field(
                "picks", _("Cards drawn per pack (the pack size, or the pool's size if smaller).")
            ),
            Field("tiers", _("Per rarity: cards, expected, at_least_one, per_card.")),
            Field("tiers.*.expected", _("How many cards of the tier a pack holds on average.")),
            Field(
                "tiers.*.at_least_one",
                _(
                    "The chance of at least one card of the tier in a pack. Every chance is "
                    "{“fraction”: “p/q” in lowest terms, “float”: the same as a number}."
                ),
            ),
            Field("tiers.*.per_card", _("The chance that one given card of the tier is drawn.")),
            Field("cards", _("Every card: token, name, rarity, chance.")),
            Field(
                "power",
                _(
                    "The latest power measurement of the pool's cards (wins against a fixed "
                    "gauntlet, per card and per tier, and each step between tiers against "
                    "the promise), or null when none was made."
                ),
            ),
        ),
        errors=((404, "not_found"),),
    ),
    Endpoint(
        key="opening",
        path="/api/packs/openings/<id>",
        summary=_(
            "One opening: its seed, the candidates as they were when it was opened (in draw "
            "order), the cards it gave, and whether drawing again from that seed gives the "
            "same cards. The id ends the opening's page address."
        ),
        example="",  # an opening is made by a visitor: no fixed example
        example_response=(
            '{"object": "opening", "id": "5b0c…", "pool": "night-sky", "seed": '
            '"8203412275511361024", "pack_size": 5, "candidates": [{"token": 12, "rarity": '
            '"rare"}, …], "picks": [57, 12, 140, 3, 98], "verification": {"verified": true, '
            '"replayed_picks": [57, 12, 140, 3, 98]}, …}'
        ),
        fields=(
            Field("object", _("Always “opening”.")),
            Field("id", _("The opening's id.")),
            Field("pool", _("The slug of the pool it was opened from.")),
            Field("pool_url", _("That pool's JSON, or null if the pool was deleted since.")),
            Field("created_at", _("When it was opened (ISO 8601, UTC).")),
            Field("seed", _("The draw's seed, as a string (it may not fit a JavaScript number).")),
            Field("pack_size", _("Cards in the pack.")),
            Field("candidates", _("The pool's cards at the time, in draw order: token, rarity.")),
            Field("picks", _("The tokens the pack gave, in the order drawn.")),
            Field("verification", _("verified (true when the replay matches) and replayed_picks.")),
            Field(
                "ledger",
                _(
                    "Its place in the day's ledger: date, commitment, server_seed (null until "
                    "the day has ended), n (its nonce), odds_version, candidates and its entry "
                    "(with prev and hash); null for an opening made before the ledger."
                ),
            ),
            Field("page_url", _("The opening's page on this site.")),
        ),
        errors=((404, "not_found"),),
    ),
    Endpoint(
        key="ledger",
        path="/api/packs/ledger/<YYYY-MM-DD>",
        summary=_(
            "A day's public ledger of openings: the commitment shown from the day's start, "
            "the server seed once the day has ended, each odds version's candidates once, "
            "and the hash-chained entries. Check it with python -m engine packs verify."
        ),
        example="",  # today's ledger changes with every opening: no fixed example
        example_response=(
            '{"date": "2026-12-06", "commitment": "9f2c…", "server_seed": "51aa…", '
            '"versions": {"night-sky:1": [[3, "common"], …]}, "entries": [{"n": 1, "pool": '
            '"night-sky", "odds_version": "night-sky:1", "client_seed": "k4x…", "picks": '
            '[57, 12, 140, 3, 98], "prev": "9f2c…", "hash": "03be…"}, …]}'
        ),
        fields=(
            Field("date", _("The UTC day.")),
            Field("commitment", _("The SHA-256 of the day's server seed, as 64 hex digits.")),
            Field("server_seed", _("The day's server seed as hex, or null until the day ends.")),
            Field("versions", _("Each odds version's candidates, in draw order: token, tier.")),
            Field(
                "entries",
                _(
                    "The openings in order: n, pool, odds_version, client_seed, picks, prev "
                    "(the previous entry's hash, the commitment for the first) and hash."
                ),
            ),
        ),
        errors=((400, "bad_date"), (404, "not_found")),
    ),
)
