"""The public ledger of a day's pack openings, and its check (docs/rules.md §7).

Each UTC day has a server seed, 32 random bytes kept secret that day; its commitment is
their SHA-256 as 64 hex digits, shown from the day's start. An opening takes the
player's client seed (1–64 characters) and its nonce, its number in the day's ledger
(1, 2, …); its draw seed is::

    int.from_bytes(HMAC-SHA256(key=server seed, msg=f"{client_seed}:{nonce}")[:8], "big") >> 1

fed to the draw (``random.Random(seed)``, ``engine.packs.draw_offer``) over the pool's
candidate list as it was (its odds version). The ledger of a day::

    {"date": "YYYY-MM-DD", "commitment": hex, "server_seed": hex or null,
     "versions": {"<odds_version>": [[token, tier], …], …},
     "entries": [{"n": 1, "pool": slug, "odds_version": "<odds_version>",
                  "client_seed": text, "picks": [token, …], "prev": hex, "hash": hex}, …]}

``hash`` is the SHA-256 of the entry without ``hash`` as canonical JSON (keys sorted,
separators ``,`` and ``:``, UTF-8, non-ASCII kept); ``prev`` is the previous entry's
``hash``, the commitment for the first. A pack holds ``len(picks)`` cards: a draw of
that many picks gives the same cards as the draw of the pool's pack size did.

>>> seed = bytes(32)
>>> commitment(seed)
'66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925'
>>> draw_seed(seed, "abc", 1) < 2**63
True
>>> entry = {"n": 1, "pool": "p", "odds_version": "p:1", "client_seed": "abc", "picks": [],
...          "prev": commitment(seed)}
>>> len(entry_hash(entry))
64
"""

from __future__ import annotations

import enum
import hashlib
import hmac
import json
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from engine.packs import InvalidOfferError, PackPool, draw_offer

__all__ = [
    "CLIENT_SEED_MAX",
    "LedgerFault",
    "LedgerProblem",
    "LedgerReport",
    "canonical",
    "chain",
    "commitment",
    "draw_seed",
    "entry_hash",
    "verify_ledger",
]

SERVER_SEED_BYTES: Final = 32
CLIENT_SEED_MAX: Final = 64
_HEX64: Final = re.compile(r"[0-9a-f]{64}")
_DATE: Final = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_ENTRY_KEYS: Final = frozenset(
    {"n", "pool", "odds_version", "client_seed", "picks", "prev", "hash"}
)


def canonical(value: Any) -> bytes:
    """``value`` as canonical JSON: keys sorted, no spaces, UTF-8 with non-ASCII kept.

    >>> canonical({"b": 1, "a": "é"})
    b'{"a":"\\xc3\\xa9","b":1}'
    """
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8")


def commitment(server_seed: bytes) -> str:
    """The day's commitment: the SHA-256 of its server seed, 64 hex digits."""
    return hashlib.sha256(server_seed).hexdigest()


def draw_seed(server_seed: bytes, client_seed: str, nonce: int) -> int:
    """The seed of one opening's draw (a 63-bit whole number, see the module docstring)."""
    message = f"{client_seed}:{nonce}".encode()
    digest = hmac.new(server_seed, message, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def entry_hash(entry: Mapping[str, Any]) -> str:
    """The SHA-256 of ``entry`` without its ``hash``, as canonical JSON."""
    return hashlib.sha256(canonical({k: v for k, v in entry.items() if k != "hash"})).hexdigest()


def chain(prev: str, entry: dict[str, Any]) -> dict[str, Any]:
    """``entry`` linked after ``prev``: with its ``prev`` and its ``hash`` set."""
    linked = {**entry, "prev": prev}
    linked.pop("hash", None)
    linked["hash"] = entry_hash(linked)
    return linked


class LedgerFault(enum.StrEnum):
    """What a ledger's check can find wrong (``LedgerProblem.code``)."""

    SHAPE = "shape"  # not a ledger: a field is missing or of the wrong kind
    COMMITMENT = "commitment"  # the server seed does not hash to the commitment
    NUMBER = "number"  # entries not numbered 1, 2, … in order
    PREV = "prev"  # an entry's prev is not the previous entry's hash
    HASH = "hash"  # an entry's hash is not the hash of its contents
    VERSION = "version"  # an entry names an odds version the ledger does not hold
    PICKS = "picks"  # drawing again gives other cards


@dataclass(frozen=True, slots=True)
class LedgerProblem:
    """One fault: its code, the entry's number (None for the whole ledger), a sentence."""

    code: LedgerFault
    n: int | None
    message: str
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class LedgerReport:
    """The check of a ledger: its problems (none: it holds), how many entries were read,
    and whether the picks could be checked (the server seed is revealed)."""

    date: str
    entries: int
    picks_checked: bool
    problems: tuple[LedgerProblem, ...]

    @property
    def ok(self) -> bool:
        return not self.problems


def _shape(message: str, n: int | None = None, **params: Any) -> LedgerProblem:
    return LedgerProblem(LedgerFault.SHAPE, n, message, params)


def _pools(versions: object, problems: list[LedgerProblem]) -> dict[str, PackPool]:
    pools: dict[str, PackPool] = {}
    if not isinstance(versions, dict):
        problems.append(_shape("versions: must be an object of candidate lists"))
        return pools
    for key, candidates in versions.items():
        try:
            if not isinstance(candidates, list):
                raise InvalidOfferError("candidate", "not a list")
            pools[key] = PackPool.of(tuple(pair) for pair in candidates)
        except (InvalidOfferError, TypeError, ValueError):
            problems.append(
                _shape(f"versions[{key!r}]: not a list of [token, tier] pairs", version=key)
            )
    return pools


def verify_ledger(data: object) -> LedgerReport:
    """Check a day's ledger with nothing else: the commitment, the chain, every pick.

    The picks are checked only once the server seed is revealed (``picks_checked``).

    >>> seed = bytes(range(32))
    >>> ledger = {"date": "2026-01-01", "commitment": commitment(seed),
    ...           "server_seed": seed.hex(), "versions": {"p:1": [[1, "common"], [2, "rare"]]},
    ...           "entries": []}
    >>> picks = [c.card_id for c in draw_offer(PackPool.of([(1, "common"), (2, "rare")]), 1,
    ...          random.Random(draw_seed(seed, "me", 1)))]
    >>> ledger["entries"].append(chain(ledger["commitment"], {"n": 1, "pool": "p",
    ...     "odds_version": "p:1", "client_seed": "me", "picks": picks}))
    >>> verify_ledger(ledger).ok
    True
    >>> ledger["entries"][0]["picks"] = [3 - picks[0]]
    >>> [p.code.value for p in verify_ledger(ledger).problems]
    ['hash', 'picks']
    """
    problems: list[LedgerProblem] = []
    if not isinstance(data, dict):
        problems.append(_shape("the ledger must be a JSON object"))
        return LedgerReport("", 0, False, tuple(problems))
    date = data.get("date")
    if not isinstance(date, str) or not _DATE.fullmatch(date):
        problems.append(_shape("date: must be YYYY-MM-DD"))
        date = ""
    promised = data.get("commitment")
    if not isinstance(promised, str) or not _HEX64.fullmatch(promised):
        problems.append(_shape("commitment: must be 64 lowercase hex digits"))
        promised = ""
    server_seed: bytes | None = None
    revealed = data.get("server_seed")
    if revealed is not None:
        if not isinstance(revealed, str) or not _HEX64.fullmatch(revealed):
            problems.append(_shape("server_seed: must be 64 lowercase hex digits or null"))
        else:
            server_seed = bytes.fromhex(revealed)
            if promised and commitment(server_seed) != promised:
                problems.append(
                    LedgerProblem(
                        LedgerFault.COMMITMENT,
                        None,
                        "the server seed does not hash to the commitment",
                    )
                )
                server_seed = None
    pools = _pools(data.get("versions"), problems)
    entries = data.get("entries")
    if not isinstance(entries, list):
        problems.append(_shape("entries: must be a list"))
        return LedgerReport(date, 0, False, tuple(problems))
    prev = promised
    for i, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict) or set(entry) != _ENTRY_KEYS:
            keys = ", ".join(sorted(_ENTRY_KEYS))
            problems.append(_shape(f"entries[{i - 1}]: must be an object with {keys}", i))
            prev = entry.get("hash", "") if isinstance(entry, dict) else ""
            continue
        n = entry["n"]
        if n != i or isinstance(n, bool):
            problems.append(
                LedgerProblem(
                    LedgerFault.NUMBER, i, f"entry {i}: numbered {n!r}, not {i}", {"found": n}
                )
            )
        if entry["prev"] != prev:
            problems.append(
                LedgerProblem(
                    LedgerFault.PREV, i, f"entry {i}: prev is not the previous entry's hash"
                )
            )
        if entry["hash"] != entry_hash(entry):
            problems.append(
                LedgerProblem(
                    LedgerFault.HASH, i, f"entry {i}: hash is not the hash of its contents"
                )
            )
        prev = entry["hash"]
        version = entry["odds_version"]
        pool = pools.get(version) if isinstance(version, str) else None
        if pool is None:
            problems.append(
                LedgerProblem(
                    LedgerFault.VERSION,
                    i,
                    f"entry {i}: odds version {version!r} is not in the ledger",
                    {"version": version},
                )
            )
            continue
        if server_seed is None:
            continue
        client_seed, picks = entry["client_seed"], entry["picks"]
        if not isinstance(client_seed, str) or not isinstance(picks, list) or not picks:
            problems.append(_shape(f"entry {i}: client_seed must be text, picks a list", i))
            continue
        drawn = draw_offer(pool, len(picks), random.Random(draw_seed(server_seed, client_seed, i)))
        if [c.card_id for c in drawn] != picks:
            problems.append(
                LedgerProblem(LedgerFault.PICKS, i, f"entry {i}: drawing again gives other cards")
            )
    return LedgerReport(date, len(entries), server_seed is not None, tuple(problems))
