"""``python -m engine packs odds|draw POOL.json …``: a booster pool's exact odds, or one draw.

POOL.json is ``{"cards": [{"id": str or int, "rarity": "common"|"rare"|"epic"|"legendary"},
…]}``, the cards in the order the draw walks them (docs/rules.md §7).

- ``odds POOL.json --picks K [--owned ID,ID,…]`` prints
  ``{"picks": n, "tiers": {tier: {"cards", "expected", "at_least_one", "per_card"}},
  "cards": {id: chance}}`` — every tier present as a key (zeros for an empty one),
  fractions in lowest terms as strings (``"1"`` and ``"0"`` for whole numbers) — plus
  ``"new"``, the chance of at least one card not in ``--owned``, when it is given.
- ``draw POOL.json --picks K --seed S`` prints ``{"seed": S, "picks": [id, …]}`` in pick
  order, drawn with ``random.Random(S)``.
- ``verify LEDGER.json`` checks a day's saved ledger (``GET /api/packs/ledger/DATE``) with
  nothing else — the commitment, the hash chain, every pick (``engine.ledger``) — and
  prints one line per fault and a last line of what was checked; status 1 when any fails.

Bad input prints one line on stderr naming the field and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import random
import re
from fractions import Fraction
from typing import Any, TextIO

from engine.cli.base import Command, UsageError, read_input
from engine.data import PACK_TIERS
from engine.ledger import verify_ledger
from engine.packs import (
    PACK_SIZE_MAX,
    PACK_SIZE_MIN,
    InvalidOfferError,
    PackCandidate,
    PackPool,
    draw_offer,
    new_card_odds,
    offer_odds,
)
from engine.types import Rarity

_WHOLE = re.compile(r"-?[0-9]+")  # ASCII digits only: int() would also take "٣" and " 3 "


def _picks(text: str) -> int:
    if not re.fullmatch(r"[0-9]+", text) or not PACK_SIZE_MIN <= int(text) <= PACK_SIZE_MAX:
        raise UsageError(f"--picks: must be a whole number from {PACK_SIZE_MIN} to {PACK_SIZE_MAX}")
    return int(text)


def _seed(text: str) -> int:
    if not _WHOLE.fullmatch(text):
        raise UsageError("--seed: must be a whole number")
    return int(text)


def _fraction(value: Fraction) -> str:
    """``"p/q"`` in lowest terms, ``"1"`` and ``"0"`` for whole numbers."""
    return str(value)


def _load_pool(path: str) -> PackPool:
    """The pool in POOL.json, checked: ``UsageError`` naming the field otherwise."""
    raw = read_input(path)
    try:
        data = json.loads(raw)
    except ValueError as exc:
        raise UsageError(f"{path}: not valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise UsageError('cards: the pool must be an object {"cards": [...]}')
    cards = data.get("cards")
    if not isinstance(cards, list):
        raise UsageError("cards: missing, or not a list")
    candidates = []
    seen: set[str] = set()
    for i, card in enumerate(cards):
        where = f"cards[{i}]"
        if not isinstance(card, dict):
            raise UsageError(f'{where}: must be an object {{"id": …, "rarity": …}}')
        card_id = card.get("id")
        if isinstance(card_id, bool) or not isinstance(card_id, str | int) or card_id == "":
            raise UsageError(f"{where}.id: must be a non-empty string or an integer")
        if str(card_id) in seen:
            raise UsageError(f"{where}.id: {card_id!r} is in the pool twice")
        seen.add(str(card_id))
        rarity = card.get("rarity")
        tiers = ", ".join(t.value for t in PACK_TIERS)
        if rarity == "free":
            raise UsageError(f"{where}.rarity: Free cards never enter a pool")
        if rarity not in {t.value for t in PACK_TIERS}:
            raise UsageError(f"{where}.rarity: must be one of {tiers} (got {rarity!r})")
        candidates.append(PackCandidate(card_id, Rarity(rarity)))
    try:
        return PackPool.of(candidates)
    except InvalidOfferError as exc:  # pragma: no cover - everything is checked above
        raise UsageError(f"cards: {exc}") from None


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = "A booster pool's exact odds, or one draw from it (docs/rules.md §7)."
    sub = parser.add_subparsers(dest="packs_command", required=True, metavar="odds|draw|verify")
    odds = sub.add_parser(
        "odds", prog="python -m engine packs odds", help="exact odds of one pack, as fractions"
    )
    odds.add_argument("pool", metavar="POOL.json", help='{"cards": [{"id", "rarity"}, …]} or -')
    odds.add_argument("--picks", required=True, type=_picks, metavar="K", help="pack size")
    odds.add_argument(
        "--owned",
        metavar="ID,ID,…",
        help='cards already owned: adds "new", the chance of at least one card not owned',
    )
    odds.set_defaults(_packs=_odds)
    draw = sub.add_parser(
        "draw", prog="python -m engine packs draw", help="draw one pack with random.Random(S)"
    )
    draw.add_argument("pool", metavar="POOL.json", help='{"cards": [{"id", "rarity"}, …]} or -')
    draw.add_argument("--picks", required=True, type=_picks, metavar="K", help="pack size")
    draw.add_argument("--seed", required=True, type=_seed, metavar="S", help="integer seed")
    draw.set_defaults(_packs=_draw)
    verify = sub.add_parser(
        "verify",
        prog="python -m engine packs verify",
        help="check a day's ledger: commitment, hash chain, every pick",
    )
    verify.add_argument("ledger", metavar="LEDGER.json", help="a saved day's ledger, or -")
    verify.set_defaults(_packs=None, _verify=_verify)


def _odds(args: argparse.Namespace) -> dict[str, Any]:
    pool = _load_pool(args.pool)
    odds = offer_odds(pool, args.picks)
    result: dict[str, Any] = {
        "picks": odds.picks,
        "tiers": {
            t.rarity.value: {
                "cards": t.cards,
                "expected": _fraction(t.expected),
                "at_least_one": _fraction(t.at_least_one),
                "per_card": _fraction(t.per_card),
            }
            for t in odds.tiers
        },
        "cards": {str(c.card_id): _fraction(c.chance) for c in odds.cards},
    }
    if args.owned is not None:
        owned = {part.strip() for part in args.owned.split(",") if part.strip()}
        by_text = {str(c.card_id): c.card_id for c in pool.candidates}
        result["new"] = _fraction(
            new_card_odds(pool, args.picks, {by_text[o] for o in owned if o in by_text}).chance
        )
    return result


def _draw(args: argparse.Namespace) -> dict[str, Any]:
    pool = _load_pool(args.pool)
    offer = draw_offer(pool, args.picks, random.Random(args.seed))
    return {"seed": args.seed, "picks": [c.card_id for c in offer]}


def _verify(args: argparse.Namespace, out: TextIO) -> int:
    raw = read_input(args.ledger)
    try:
        data = json.loads(raw)
    except ValueError as exc:
        raise UsageError(f"{args.ledger}: not valid JSON ({exc})") from None
    report = verify_ledger(data)
    for problem in report.problems:
        out.write(f"FAIL {problem.code.value}: {problem.message}\n")
    picks = "every pick" if report.picks_checked else "picks not checked (server seed not revealed)"
    verdict = "OK" if report.ok else f"{len(report.problems)} problem(s)"
    out.write(f"{verdict}: ledger {report.date or '?'}, {report.entries} entries, chain, {picks}\n")
    return 0 if report.ok else 1


def _run(args: argparse.Namespace, out: TextIO) -> int:
    if getattr(args, "_verify", None) is not None:
        return args._verify(args, out)
    json.dump(args._packs(args), out, ensure_ascii=False)
    out.write("\n")
    return 0


COMMAND = Command("packs", _arguments, _run)
