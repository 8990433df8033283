"""The card picture: an SVG drawn from the card's equipped attributes and rarity.

No external images: each attribute name picks a stable colour and a shape variant from
its hash, so the same attribute always looks the same on every card that wears it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

RARITY_FRAME = {
    "free": ("#8a8a8a", "#c9c9c9"),
    "common": ("#56616c", "#aab4bd"),
    "rare": ("#1f6fd1", "#8fc0ff"),
    "epic": ("#8a2ed1", "#d6a6ff"),
    "legendary": ("#b86e00", "#ffd27a"),
}


def _hash(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8")).digest()


def _hsl(digest: bytes, offset: int, saturation: int, lightness: int) -> str:
    hue = int.from_bytes(digest[offset : offset + 2], "big") % 360
    return f"hsl({hue} {saturation}% {lightness}%)"


@dataclass(frozen=True, slots=True)
class CardArt:
    """Everything the SVG template needs; colours are CSS colour strings."""

    token: int
    title: str
    rarity: str
    frame: str
    glow: str
    sky: str
    sky_far: str
    fur: str
    fur_shade: str
    hat: str
    hat_variant: int
    paw_item: str
    paw_variant: int
    body_pattern: str
    pattern_variant: int
    labels: tuple[tuple[str, str], ...]


def card_art(token: int, title: str, rarity: str, equipped: dict[str, str]) -> CardArt:
    """Colours and variants for ``equipped`` (slot → attribute name).

    >>> art = card_art(7, "Pup #7", "epic", {"head": "Crown", "body": "Vest", "paw": "Axe",
    ...                                        "background": "Sky"})
    >>> art.frame, art.hat_variant in range(3)
    ('#8a2ed1', True)
    """
    head, body, paw, background = (
        _hash("head:" + equipped.get("head", "")),
        _hash("body:" + equipped.get("body", "")),
        _hash("paw:" + equipped.get("paw", "")),
        _hash("background:" + equipped.get("background", "")),
    )
    frame, glow = RARITY_FRAME.get(rarity, RARITY_FRAME["common"])
    fur_digest = _hash(f"fur:{token}")
    return CardArt(
        token=token,
        title=title,
        rarity=rarity,
        frame=frame,
        glow=glow,
        sky=_hsl(background, 0, 55, 78),
        sky_far=_hsl(background, 2, 45, 62),
        fur=_hsl(fur_digest, 0, 35, 72),
        fur_shade=_hsl(fur_digest, 0, 30, 55),
        hat=_hsl(head, 0, 65, 48),
        hat_variant=head[4] % 3,
        paw_item=_hsl(paw, 0, 60, 45),
        paw_variant=paw[4] % 3,
        body_pattern=_hsl(body, 0, 55, 50),
        pattern_variant=body[4] % 3,
        labels=tuple(
            (slot, equipped.get(slot, "")) for slot in ("head", "body", "paw", "background")
        ),
    )
