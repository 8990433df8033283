"""Bots for the paw-game match: a random one, a greedy one and one that looks a round ahead.

A bot is asked for one action at a time (``act(state, side, rng)``) until it
commits — ``take_turn`` is that loop, shared by the simulator and the demo; boosts
resolve immediately, so each answer sees their effect. Bots
read only what a player can see: their own side, the enemy's field, both
Heroes and NRG — never the enemy's pending pick. Their randomness comes from
the ``random.Random`` they are handed. ``play_out`` plays a match to its end (the demo's
"finish now", once the player has no card left: ``PlayOutBot`` plays that side).

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

import dataclasses
import random
from collections.abc import Callable, Sequence
from typing import Protocol

from engine.data import BOOSTS, BOOSTS_PER_ROUND, MAX_HERO_HP_CEILING, NRG_CAP
from engine.match import (
    Action,
    Boost,
    Commit,
    MatchCard,
    MatchState,
    Pick,
    PlayerState,
    Recorder,
    apply,
    legal_actions,
)
from engine.match.rules import _player, _set
from engine.match.state import CHARGE, GUARD_UP, HERO_PATCH, RAGE, SWITCH
from engine.types import BotKind, Side, Skill

__all__ = [
    "BOTS",
    "Bot",
    "GreedyBot",
    "LookaheadBot",
    "PlayOutBot",
    "RandomBot",
    "card_strength",
    "make_bot",
    "play_out",
    "take_turn",
]

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
                    strengths = self._strengths(deck)
                    return Boost(side, SWITCH, max(options, key=strengths.__getitem__))
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


class LookaheadBot:
    """Looks one round ahead: it plays out each plan it has for this round against the
    opponent's likely reply and keeps the plan with the best outcome.

    - A plan is this round's Prepare: the pick (when one is needed), up to the round's
      boosts, in any order that changes something, then Commit. Plans that reach the same
      state are tried once.
    - The likely reply is ``GreedyBot``'s, made from what the opponent has shown: the
      opponent's pending pick (and a commit that hid it) is taken back first, so the bot
      never reads it.
    - The outcome of a plan is judged by playing the match on from the end of the round,
      greedy play on both sides (``ROLLOUT_ROUNDS`` rounds at most): a win or a loss
      outweighs everything, then the Hero HP between the two. A rollout cut short is
      judged by ``score``. Every plan meets the same noise, drawn once per round from the
      bot's own random source: the same seed plays the same match.
    - On equal outcomes the plan with fewer actions wins (Commit alone is tried first),
      so a boost is spent only where it changes the outcome.

    It remembers its plan for the rest of the round and replans when the state is not
    the one it expected.

    >>> from engine.match import MatchCard
    >>> from engine.match.simulate import play_match
    >>> from engine.types import Rarity, Role
    >>> pup = MatchCard("1", "Pup", Rarity.COMMON, Role.TANK, atk=8, hp=20, def_=2)
    >>> fang = MatchCard("2", "Fang", Rarity.EPIC, Role.STRIKER, atk=14, hp=14)
    >>> one = play_match((pup, fang), (fang, pup), ("lookahead", "greedy"), seed=3)
    >>> two = play_match((pup, fang), (fang, pup), ("lookahead", "greedy"), seed=3)
    >>> one.actions == two.actions, one.state.result
    (True, 'draw')
    """

    name = "lookahead"

    # Bot tuning, not rules: how far a rollout goes, and the weights of ``score``.
    ROLLOUT_ROUNDS = 30
    WIN = 10_000.0
    HERO = 2.0
    NRG = 0.5
    RESERVE = {CHARGE: 1.0, SWITCH: 2.0, RAGE: 2.0, GUARD_UP: 2.0, HERO_PATCH: 6.0}

    def __init__(self) -> None:
        self._greedy = GreedyBot()
        self._plan: list[tuple[tuple[int, int, PlayerState], Action]] = []

    def act(self, state: MatchState, side: Side, rng: random.Random) -> Action:
        key = (state.round, state.actions, state.players[side])
        if self._plan and self._plan[0][0] == key:
            return self._plan.pop(0)[1]
        self._plan = self._make_plan(state, side, rng)
        return self._plan.pop(0)[1]

    # -- planning ---------------------------------------------------------

    def _make_plan(
        self, state: MatchState, side: Side, rng: random.Random
    ) -> list[tuple[tuple[int, int, PlayerState], Action]]:
        view = _without_hidden_plan(state, 1 - side)
        noise = rng.getrandbits(32)
        best: tuple[float, int] | None = None
        best_plan: list[tuple[tuple[int, int, PlayerState], Action]] = []
        for plan, after in self._plans(view, side):
            rank = (self._outcome(after, side, noise), -len(plan))
            if best is None or rank > best:
                best, best_plan = rank, plan
        return best_plan

    def _plans(
        self, view: MatchState, side: Side
    ) -> list[tuple[list[tuple[tuple[int, int, PlayerState], Action]], MatchState]]:
        """Every distinct plan of ``side`` for this round, each with the state after its
        Commit (before the opponent's reply), in the order found: Commit alone first."""
        done: list[tuple[list[tuple[tuple[int, int, PlayerState], Action]], MatchState]] = []
        seen: set[tuple[PlayerState, PlayerState]] = set()
        queue: list[tuple[MatchState, list[tuple[tuple[int, int, PlayerState], Action]]]] = [
            (view, [])
        ]
        while queue:
            state, plan = queue.pop(0)
            me = state.players[side]
            options = [
                a
                for a in legal_actions(state, side)
                if not (isinstance(a, Pick) and me.pick is not None)  # one pick a plan
            ]
            options.sort(key=lambda a: 0 if isinstance(a, Commit) else 1)
            for action in options:
                after, _ = apply(state, action)
                step = [*plan, ((state.round, state.actions, me), action)]
                if isinstance(action, Commit):
                    done.append((step, after))
                    continue
                mark = (after.players[side], after.players[1 - side])
                if mark not in seen:
                    seen.add(mark)
                    queue.append((after, step))
        return done

    def _outcome(self, state: MatchState, side: Side, noise: int) -> float:
        """The worth for ``side`` of the state after its plan: the opponent replies, the
        round is played, then the match is played on greedily (both sides)."""
        rng = random.Random(noise)
        act = self._greedy.act
        last = state.round + self.ROLLOUT_ROUNDS
        while not state.over and state.round <= last:
            for turn in (1 - side, side):
                round_ = state.round
                while (
                    not state.over and state.round == round_ and not state.players[turn].committed
                ):
                    state, _ = apply(state, act(state, Side(turn), rng))
        return self.score(state, side)

    def score(self, state: MatchState, side: Side) -> float:
        """How good ``state`` is for ``side``: a result first (then the Hero HP between
        the two); a running match by Hero HP (twice), the worth of the cards still alive
        (``card_strength`` by the HP they have left; the card on the field at its ATK for
        this stay), NRG, and a reserve for each boost not yet used."""
        mine, theirs = state.players[side], state.players[1 - side]
        hero = mine.hero_hp - theirs.hero_hp
        if state.over:
            if state.winner is None:
                return float(hero)
            return (self.WIN if state.winner == side else -self.WIN) + hero
        value = self.HERO * hero
        value += self._side_worth(state, side) - self._side_worth(state, 1 - side)
        value += self.NRG * (mine.nrg - theirs.nrg)
        return value

    def _side_worth(self, state: MatchState, side: int) -> float:
        p = state.players[side]
        deck = state.decks[side]
        worth = 0.0
        for i, hp in enumerate(p.card_hp):
            if hp <= 0:
                continue
            card = deck[i]
            atk = p.field.atk if p.field is not None and p.field.card == i else card.atk
            full = card_strength(card) + 1.5 * (atk - card.atk)
            worth += full * hp / card.hp + p.card_def[i] - card.def_
        for boost, reserve in self.RESERVE.items():
            if boost not in p.boosts_used:
                worth += reserve
        return worth


def _without_hidden_plan(state: MatchState, side: int) -> MatchState:
    """``state`` as the other side sees it: ``side``'s pending pick taken back (and its
    commit, which would otherwise tell the pick was made)."""
    p = state.players[side]
    if p.pick is None:
        return state
    hidden = _player(p, pick=None, committed=False)
    return dataclasses.replace(state, players=_set(state.players, side, hidden))


class PlayOutBot:
    """Plays a side that has nothing left to decide (``engine.match.out_of_cards``): its
    Hero Patch while it still adds HP (it can only help: later it would add the same, or
    be counted the same when no card is left on either side), then Commit. With a card
    still alive it picks the cheapest, so it can finish any match."""

    name = "play_out"

    def act(self, state: MatchState, side: Side, rng: random.Random) -> Action:
        me = state.players[side]
        if (
            HERO_PATCH not in me.boosts_used
            and me.boosts_round < BOOSTS_PER_ROUND
            and me.hero_hp < MAX_HERO_HP_CEILING
        ):
            return Boost(side, HERO_PATCH)
        if me.field is None and me.pick is None and me.alive:
            deck = state.decks[side]
            return Pick(side, min(me.alive, key=lambda i: (deck[i].cost, i)))
        return Commit(side)


BOTS: dict[str, type[Bot]] = {
    BotKind.RANDOM: RandomBot,
    BotKind.GREEDY: GreedyBot,
    BotKind.LOOKAHEAD: LookaheadBot,
}


def make_bot(name: str) -> Bot:
    """A fresh bot by name (``random``, ``greedy`` or ``lookahead``); KeyError for others."""
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


def play_out(
    recorder: Recorder,
    bots: Sequence[Bot],
    rng_for: Callable[[Side, MatchState], random.Random],
) -> int:
    """Play the match on to its end: each round, A's turn then B's (a side that has
    already committed is skipped), ``bots[side]`` acting with ``rng_for(side, state)``
    (the state its turn starts in). The events are recorded as usual. Returns the
    number of actions played. The engine's round limit bounds it.

    >>> from engine.match import A, B, MatchCard, new_match, out_of_cards
    >>> from engine.types import Rarity, Role
    >>> pup = MatchCard("1", "Pup", Rarity.COMMON, Role.TANK, atk=8, hp=20)
    >>> recorder = Recorder(new_match((pup,), (pup,)), log=False)
    >>> rngs = (random.Random(1), random.Random(2))
    >>> n = play_out(recorder, (PlayOutBot(), GreedyBot()), lambda side, state: rngs[side])
    >>> recorder.state.over, recorder.state.result, n > 0
    (True, 'draw', True)
    """
    played = 0
    while not recorder.state.over:
        for side in (Side.A, Side.B):
            if recorder.state.over:
                break
            played += take_turn(bots[side], recorder, side, rng_for(side, recorder.state))
    return played
