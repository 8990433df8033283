"""Bots for the paw-game match: a random one and a greedy one.

A bot is asked for one action at a time (``act(state, side, rng)``) until it
commits — ``take_turn`` is that loop, shared by the simulator and the demo; boosts
resolve immediately, so each answer sees their effect. Bots
read only what a player can see: their own side, the enemy's field, both
Heroes and NRG — never the enemy's pending pick. Their randomness comes from
the ``random.Random`` they are handed.

>>> import random
>>> from engine.match import A, B, MatchCard, new_match
>>> from engine.types import Rarity, Role
>>> cheap = MatchCard("1", "Pup", Rarity.COMMON, Role.TANK, atk=8, hp=20, def_=2)
>>> big = MatchCard("2", "Fang", Rarity.LEGENDARY, Role.STRIKER, atk=15, hp=16)
>>> state = new_match((cheap, big), (cheap,), seed=1)
>>> GreedyBot().act(state, A, random.Random(1))  # one NRG short of Fang: Charge first
Boost(side=<Side.A: 0>, boost=<BoostKind.CHARGE: 'charge'>, card=None)
"""

from __future__ import annotations

import random
from typing import Protocol

from engine.data import BOOSTS, BOOSTS_PER_ROUND, MAX_HERO_HP_CEILING, NRG_CAP
from engine.match import (
    CHARGE,
    GUARD_UP,
    HERO_PATCH,
    RAGE,
    SWITCH,
    Action,
    Boost,
    Commit,
    MatchCard,
    MatchState,
    Pick,
    Recorder,
    legal_actions,
)
from engine.types import Side, Skill

__all__ = ["BOTS", "Bot", "GreedyBot", "RandomBot", "card_strength", "make_bot", "take_turn"]

# Bot tuning (not rules): the Hero HP at or below which Greedy uses Hero Patch, and the
# random spread it puts on card strengths when it picks.
GREEDY_PATCH_AT = 12
JITTER = 0.15

_RAGE_ATK = next(b.amount for b in BOOSTS if b.key is RAGE)


class Bot(Protocol):
    """Anything that answers with the next action of ``side``."""

    name: str

    def act(self, state: MatchState, side: Side, rng: random.Random) -> Action: ...


class RandomBot:
    """Plays a uniformly random legal action (never surrenders, picks at most once a round)."""

    name = "random"

    def act(self, state: MatchState, side: Side, rng: random.Random) -> Action:
        actions = legal_actions(state, side)
        if state.players[side].pick is not None:
            actions = [a for a in actions if not isinstance(a, Pick)]
        return rng.choice(actions)


def card_strength(card: MatchCard) -> float:
    """A rough worth of a card for bots and deck matching: stats, effects and skill.

    >>> from engine.types import Rarity, Role
    >>> card_strength(MatchCard("1", "Pup", Rarity.COMMON, Role.TANK, atk=8, hp=20, def_=2))
    34.0
    """
    value = 1.5 * card.atk + card.hp + card.def_
    for effect in (card.deploy, card.passive, card.last_breath):
        if effect is not None:
            value += 1.5 * effect.value
    if card.skill is not None:
        value += 4
    return value


class GreedyBot:
    """Plays sensibly, one round at a time.

    - With no card on the field it picks the strongest card it can afford (card
      strengths get ±15% noise from its random source, so seeds matter); one
      NRG short of a stronger card it uses Charge first; with nothing affordable
      it picks the cheapest card (the smallest undercharge).
    - Hero Patch when its Hero is at or below ``GREEDY_PATCH_AT`` HP.
    - Switch when its card would die this round without killing first and
      another affordable card would survive the blow.
    - Rage when +2 ATK turns a blow into a kill (or a lethal hit on the Hero);
      Guard Up when it trades blows with a card that has no Pierce.
    """

    name = "greedy"

    def __init__(self) -> None:
        self._strength: dict[int, tuple[tuple[MatchCard, ...], tuple[float, ...]]] = {}

    def _strengths(self, deck: tuple[MatchCard, ...]) -> tuple[float, ...]:
        entry = self._strength.get(id(deck))
        if entry is None or entry[0] is not deck:
            entry = (deck, tuple(card_strength(c) for c in deck))
            self._strength[id(deck)] = entry
        return entry[1]

    def act(self, state: MatchState, side: Side, rng: random.Random) -> Action:
        me = state.players[side]
        foe = state.players[1 - side]
        deck = state.decks[side]
        used = me.boosts_used
        can_boost = me.boosts_round < BOOSTS_PER_ROUND
        # Hero Patch when low.
        if (
            can_boost
            and HERO_PATCH not in used
            and me.hero_hp <= GREEDY_PATCH_AT
            and me.hero_hp < MAX_HERO_HP_CEILING
        ):
            return Boost(side, HERO_PATCH)
        if me.field is None and me.pick is None:
            alive = me.alive
            if not alive:
                return Commit(side)
            base = self._strengths(deck)
            # A little noise (±JITTER) so that seeds matter and the bot is less predictable.
            strength = [v * rng.uniform(1 - JITTER, 1 + JITTER) for v in base]
            nrg = me.nrg
            affordable = [i for i in alive if deck[i].cost <= nrg]
            best = max(affordable, key=strength.__getitem__) if affordable else None
            if can_boost and CHARGE not in used and nrg < NRG_CAP:
                reach = [i for i in alive if deck[i].cost == nrg + 1]
                if reach:
                    target = max(reach, key=strength.__getitem__)
                    if best is None or strength[target] > strength[best]:
                        return Boost(side, CHARGE)
            if best is None:
                best = min(alive, key=lambda i: (deck[i].cost, -strength[i]))
            return Pick(side, best)
        mine = me.field.card if me.field is not None else me.pick
        assert mine is not None
        card = deck[mine]
        enemy_dep = foe.field
        if enemy_dep is not None and can_boost:
            enemy_atk = state.current_atk(1 - side)
            enemy_pierce = enemy_dep.skill is Skill.PIERCE
            my_hp = me.card_hp[mine]
            my_def = me.card_def[mine]
            my_atk = (
                state.current_atk(side) if me.field is not None else card.atk + me.rage_of(mine)
            )
            their_hp = foe.card_hp[enemy_dep.card]
            their_def = foe.card_def[enemy_dep.card]
            my_pierce = (me.field.skill if me.field is not None else card.skill) is Skill.PIERCE
            needed = their_hp + (0 if my_pierce else their_def)
            i_kill = my_atk >= needed
            i_die = enemy_atk >= my_hp + (0 if enemy_pierce else my_def)
            # Switch out a card that would die without taking the enemy card with it.
            if me.field is not None and SWITCH not in used and i_die and not i_kill:
                options = [
                    i
                    for i, hp in enumerate(me.card_hp)
                    if hp > 0
                    and i != mine
                    and deck[i].cost <= me.nrg
                    and enemy_atk < hp + (0 if enemy_pierce else me.card_def[i])
                ]
                if options:
                    strength = self._strengths(deck)
                    return Boost(side, SWITCH, max(options, key=strength.__getitem__))
            if RAGE not in used and not i_kill and my_atk + _RAGE_ATK >= needed:
                return Boost(side, RAGE)
            if GUARD_UP not in used and not enemy_pierce and enemy_atk > 0:
                return Boost(side, GUARD_UP)
        elif (
            enemy_dep is None
            and can_boost
            and RAGE not in used
            and me.field is not None
            and state.current_atk(side) < foe.hero_hp <= state.current_atk(side) + _RAGE_ATK
        ):
            return Boost(side, RAGE)  # an open Hero: Rage when it makes the blow lethal
        return Commit(side)


BOTS = {"random": RandomBot, "greedy": GreedyBot}


def make_bot(name: str) -> Bot:
    """A fresh bot by name (``random`` or ``greedy``); KeyError for others."""
    return BOTS[name]()


def take_turn(bot: Bot, recorder: Recorder, side: Side, rng: random.Random) -> int:
    """Let ``bot`` play ``side`` until it has committed — or its Commit resolved the
    round, or the match is over. Returns the number of actions it took.

    >>> from engine.match import A, B, MatchCard, new_match
    >>> from engine.types import Rarity, Role
    >>> pup = MatchCard("1", "Pup", Rarity.COMMON, Role.TANK, atk=8, hp=20)
    >>> recorder = Recorder(new_match((pup,), (pup,)))
    >>> take_turn(GreedyBot(), recorder, B, random.Random(0)), recorder.state.players[B].committed
    (2, True)
    """
    play, act = recorder.play, bot.act
    state = recorder.state
    round_ = state.round
    taken = 0
    while not state.over and state.round == round_ and not state.players[side].committed:
        play(act(state, side, rng))
        state = recorder.state
        taken += 1
    return taken
