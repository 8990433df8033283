#!/usr/bin/env python
"""Full card breakdowns per second on one core (prints figures; never asserts).

Cards are drawn with a fixed seed from a synthetic attribute catalogue, as in
a real collection where many cards share each attribute: ``--pool``
attributes per slot (60 % with a skill keyword), supplies from 1 to 5,000,
a few god and premium attributes, 0–8 spare attributes in the wardrobe, a
GetGems rank on a third of the cards, burned stickers, a few starter cards and
``--combos`` known combos. Each derivation builds the whole ``Breakdown``
with its trace. Usage:

    .venv/bin/python bench/bench_engine.py [--cards 20000] [--seed 1] [--pool 300]
    .venv/bin/python bench/bench_engine.py --profile      # cProfile of the hot path

Figures are per CPU second of this process: a cold pass (memo caches emptied
first), then the best and median of ``--rounds`` warm passes; the same for
derive + ``breakdown_to_json`` and derive + ``breakdown_json`` (the API's compact text,
written from pieces kept between cards). The garbage collector stays on.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import platform
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.caches import clear_caches
from engine.card.derive import derive
from engine.data import KEYWORDS
from engine.serialize import breakdown_json, breakdown_to_json
from engine.types import AttributeKind, AttributeSpec, CardSpec, ComboSpec, Rarity, Slot

PLAIN = ("Sky", "Meadow", "Vest", "Cap", "Boots", "Stone", "Leaf", "Cloud", "Moss", "Dune")
ADJECTIVES = ("Old", "Tiny", "Royal", "Blue", "Golden", "Misty", "Wild", "Quiet", "Lucky")


def catalogue(rng: random.Random, per_slot: int) -> dict[Slot, list[AttributeSpec]]:
    """``per_slot`` distinct attributes per slot, with realistic supplies and kinds."""
    fragments = [f for frags in KEYWORDS.values() for f in frags]
    out: dict[Slot, list[AttributeSpec]] = {}
    for slot in Slot:
        names: set[str] = set()
        attrs = []
        while len(attrs) < per_slot:
            word = rng.choice(fragments).title() if rng.random() < 0.6 else rng.choice(PLAIN)
            name = f"{rng.choice(ADJECTIVES)} {word} {len(names) % 97}"
            if name in names:
                continue
            names.add(name)
            roll = rng.random()
            supply = (
                rng.randint(1, 5)
                if roll < 0.06
                else rng.randint(6, 25)
                if roll < 0.25
                else rng.randint(26, 5000)
            )
            kind_roll = rng.random()
            kind = (
                AttributeKind.GOD
                if kind_roll < 0.005
                else AttributeKind.PREMIUM
                if kind_roll < 0.02
                else AttributeKind.NORMAL
            )
            attrs.append(AttributeSpec(slot, name, supply, kind))
        out[slot] = attrs
    return out


def make_cards(seed: int, count: int, per_slot: int, combos: int) -> list[CardSpec]:
    rng = random.Random(seed)
    attrs = catalogue(rng, per_slot)
    known = tuple(
        ComboSpec(
            f"Combo {i}",
            tuple(
                (slot, rng.choice(attrs[slot]).name)
                for slot in rng.sample(list(Slot), rng.randint(2, 3))
            ),
            rng.choice((Rarity.RARE, Rarity.EPIC, Rarity.LEGENDARY)),
        )
        for i in range(combos)
    )
    cards = []
    for token in range(1, count + 1):
        equipped = tuple(rng.choice(attrs[slot]) for slot in Slot)
        spares = [rng.choice(attrs[rng.choice(list(Slot))]) for _ in range(rng.randint(0, 8))]
        cards.append(
            CardSpec(
                token=token,
                name=f"Pup #{token}",
                equipped=equipped,
                wardrobe=tuple(spares),
                getgems_rank=rng.randint(1, 1000) if rng.random() < 0.33 else None,
                burned_stickers=rng.choice((0, 0, 0, 0, 1, 2, 3, 4, 6, 8)),
                starter=rng.random() < 0.03,
                combos=known,
            )
        )
    return cards


def timed(cards: list[CardSpec], work: Callable[[CardSpec], object]) -> tuple[float, float]:
    """(cards per CPU second, cards per wall second) for one pass, collector on.

    CPU time of this process is what "on one core" means, and it stays honest
    when other jobs share the machine; wall time is printed beside it.
    """
    gc.collect()
    cpu, wall = time.process_time(), time.perf_counter()
    for card in cards:
        work(card)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return len(cards) / cpu, len(cards) / wall


def with_json(card: CardSpec) -> object:
    return breakdown_to_json(derive(card))


def with_text(card: CardSpec) -> object:
    return breakdown_json(derive(card))


def report(
    label: str, cards: list[CardSpec], work: Callable[[CardSpec], object], rounds: int
) -> None:
    clear_caches()
    cold, _ = timed(cards, work)
    warm = [timed(cards, work) for _ in range(rounds)]
    cpu = [c for c, _ in warm]
    wall = [w for _, w in warm]
    print(
        f"{label:<26} cold {cold:>8,.0f}/s   warm best {max(cpu):>8,.0f}/s"
        f"   median {statistics.median(cpu):>8,.0f}/s   (wall median {statistics.median(wall):,.0f}/s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pool", type=int, default=300, help="attributes per slot")
    parser.add_argument("--combos", type=int, default=10, help="combos known to every card")
    parser.add_argument("--rounds", type=int, default=5, help="warm passes")
    parser.add_argument("--profile", action="store_true", help="cProfile one warm pass")
    args = parser.parse_args()

    cards = make_cards(args.seed, args.cards, args.pool, args.combos)
    trace_steps = statistics.mean(len(derive(c).trace) for c in cards[:1000])
    print(
        f"{len(cards):,} cards, {args.pool} attributes per slot, {args.combos} combos, "
        f"~{trace_steps:.0f} trace steps per breakdown; Python {platform.python_version()} "
        f"on {platform.machine()}, one core"
    )
    if args.profile:
        derive_all = [derive(c) for c in cards]  # warm the caches
        del derive_all
        profiler = cProfile.Profile()
        profiler.enable()
        for card in cards:
            derive(card)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(20)
        return
    report("derive (Breakdown+trace)", cards, derive, args.rounds)
    report("derive + breakdown_to_json", cards, with_json, args.rounds)
    report("derive + breakdown_json", cards, with_text, args.rounds)
    serialisation(cards[:5000], args.rounds)


def serialisation(cards: list[CardSpec], rounds: int) -> None:
    """The JSON of a breakdown on its own, in its two halves: building the plain data
    (``breakdown_to_json``) and encoding it (``json.dumps``, as the API does), with how
    much data a breakdown is — why JSON costs more than the derivation."""
    breakdowns = [derive(c) for c in cards]
    plain = [breakdown_to_json(b) for b in breakdowns]

    def best(work: Callable[[], object]) -> float:
        rates = []
        for _ in range(rounds):
            gc.collect()
            started = time.process_time()
            work()
            rates.append(len(cards) / (time.process_time() - started))
        return statistics.median(rates)

    build = best(lambda: [breakdown_to_json(b) for b in breakdowns])
    encode = best(lambda: [json.dumps(d, ensure_ascii=False, separators=(",", ":")) for d in plain])
    clear_caches()
    text = best(lambda: [breakdown_json(b) for b in breakdowns])
    size = statistics.mean(len(json.dumps(d, ensure_ascii=False)) for d in plain[:500])
    values = statistics.mean(_count(d) for d in plain[:500])
    steps = statistics.mean(len(b.trace) for b in breakdowns[:500])
    print(
        f"{'breakdown_to_json alone':<26} median {build:>8,.0f}/s   "
        f"json.dumps alone median {encode:>8,.0f}/s   "
        f"(a breakdown: {size / 1024:.1f} KiB of JSON, {values:,.0f} values, "
        f"{steps:.0f} trace steps)"
    )
    print(
        f"{'breakdown_json alone':<26} median {text:>8,.0f}/s   (the same bytes as both "
        f"together, {1 / (1 / build + 1 / encode):,.0f}/s: its shared pieces are kept)"
    )


def _count(value: object) -> int:
    if isinstance(value, dict):
        return 1 + sum(_count(v) for v in value.values())
    if isinstance(value, list):
        return 1 + sum(_count(v) for v in value)
    return 1


if __name__ == "__main__":
    main()
