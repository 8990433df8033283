"""The paw-game match as JSON: combat profiles (``MatchCard``), actions and events."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.match import (
    ACTION_TYPES,
    Action,
    Boost,
    CardEffect,
    Commit,
    Event,
    IllegalActionError,
    MatchCard,
    Pick,
    Surrender,
)
from engine.serialize.base import _plain
from engine.types import (
    BoostKind,
    EffectKind,
    InvalidCardError,
    Rarity,
    Role,
    Side,
    Skill,
)


def _effect_json(e: CardEffect | None) -> dict[str, Any] | None:
    return None if e is None else {"kind": e.kind.value, "value": e.value}


def match_card_to_json(card: MatchCard) -> dict[str, Any]:
    """A combat profile as JSON-ready data (the demo stores decks this way).

    >>> match_card_to_json(MatchCard("3", "Pup", Rarity.COMMON, Role.TANK, atk=8, hp=20))["cost"]
    1
    """
    return {
        "id": card.id,
        "name": card.name,
        "rarity": card.rarity.value,
        "role": card.role.value,
        "atk": card.atk,
        "hp": card.hp,
        "def": card.def_,
        "skill": card.skill.value if card.skill else None,
        "deploy": _effect_json(card.deploy),
        "passive": _effect_json(card.passive),
        "last_breath": _effect_json(card.last_breath),
        "cost": card.cost,
    }


def match_card_from_json(data: Any) -> MatchCard:
    """The inverse of ``match_card_to_json`` (InvalidCardError on bad data).

    >>> card = MatchCard("3", "Pup", Rarity.EPIC, Role.CONTROL, atk=7, hp=16, def_=1,
    ...                  skill=Skill.ARCANE, passive=CardEffect(EffectKind.BURN, 2))
    >>> match_card_from_json(match_card_to_json(card)) == card
    True
    """
    if not isinstance(data, Mapping):
        raise InvalidCardError("object", "must be an object", field="")

    def effect(key: str) -> CardEffect | None:
        raw = data.get(key)
        return None if raw is None else CardEffect(EffectKind(raw["kind"]), raw["value"])

    try:
        skill = data.get("skill")
        return MatchCard(
            id=str(data["id"]),
            name=data.get("name", ""),
            rarity=Rarity(data["rarity"]),
            role=Role(data["role"]),
            atk=data["atk"],
            hp=data["hp"],
            def_=data.get("def", 0),
            skill=Skill(skill) if skill else None,
            deploy=effect("deploy"),
            passive=effect("passive"),
            last_breath=effect("last_breath"),
            cost=data.get("cost", 0),
        )
    except InvalidCardError:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidCardError("card", f"is not a match card ({exc})", field="") from None


_ACTION_NAMES = {cls: name for name, cls in ACTION_TYPES.items()}


def action_to_json(action: Action) -> dict[str, Any]:
    """An action as JSON-ready data.

    >>> action_to_json(Boost(Side.B, BoostKind.SWITCH, 2))
    {'type': 'boost', 'side': 'b', 'boost': 'switch', 'card': 2}
    """
    data: dict[str, Any] = {"type": _ACTION_NAMES[type(action)], "side": Side(action.side).key}
    if isinstance(action, Pick):
        data["card"] = action.card
    elif isinstance(action, Boost):
        data["boost"] = str(action.boost)
        if action.card is not None:
            data["card"] = action.card
    return data


def action_from_json(data: Any) -> Action:
    """The inverse of ``action_to_json``; IllegalActionError("bad_action") on anything else.

    A boost name the rules do not know stays a string (``apply`` refuses it as
    ``unknown_boost``).

    >>> action_from_json({"type": "pick", "side": "a", "card": 1})
    Pick(side=<Side.A: 0>, card=1)
    >>> action_from_json({"type": "pick", "side": "a", "card": "1"})
    Traceback (most recent call last):
    ...
    engine.errors.IllegalActionError: That is not an action of this game.
    """
    if not isinstance(data, Mapping) or not isinstance(data.get("side"), str):
        raise IllegalActionError("bad_action")
    try:
        side = Side.from_key(data["side"])
    except ValueError:
        raise IllegalActionError("bad_action") from None
    kind = data.get("type")
    card = data.get("card")
    if card is not None and type(card) is not int:
        raise IllegalActionError("bad_action")
    if kind == "pick" and card is not None:
        return Pick(side, card)
    if kind == "boost" and isinstance(data.get("boost"), str):
        try:
            boost: Any = BoostKind(data["boost"])
        except ValueError:
            boost = data["boost"]
        return Boost(side, boost, card)
    if kind == "commit":
        return Commit(side)
    if kind == "surrender":
        return Surrender(side)
    raise IllegalActionError("bad_action")


def event_to_json(event: Event) -> dict[str, Any]:
    """An event as JSON-ready data: its code and its parameters (enum members as strings).

    >>> event_to_json(Event("commit", {"side": "a"}))
    {'code': 'commit', 'params': {'side': 'a'}}
    """
    return {"code": event.code, "params": _plain(event.params)}
