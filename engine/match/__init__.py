"""The paw-game match (docs/rules.md §6): frozen states, frozen actions, ordered events.

A match is a value. ``new_match`` builds the opening state from two decks;
``apply(state, action)`` returns ``(new_state, events)`` or raises
``IllegalActionError`` and leaves ``state`` as it was (states are frozen, so
nothing can change it). The rules use no randomness at all: the seed is
carried in the state for the bots (``engine.match.bots``) and for the record, so a
match is reproducible from its decks, its seed and its actions: ``replay``
rebuilds one (its final state, its log cut round by round, and the state after
each round), and a ``Recorder`` records one while it is played.

A round is played in four beats. During **Prepare** both players act in any
order: ``Pick`` a card (when they have none on the field), use up to two
``Boost`` s, then ``Commit``. The second ``Commit`` runs the other three beats
(**Commit**: cards enter and NRG is paid, Deploy effects fire; **Resolve**:
the cards trade blows; **Advance**: burn, +1 NRG) and opens the next round.

Sides are ``Side.A = 0`` and ``Side.B = 1`` (``engine.types.Side``); events and JSON name
them ``"a"`` and ``"b"``. Every event and every refusal carries the numbers it is about
(amounts, caps, the round limit, the Wounded Rage threshold), so the site words them
without knowing a rule number. The JSON forms of cards, actions and events are in
``engine.serialize``.

Where docs/rules.md §6 is silent, this engine decides (the wiki page should say so):

- Initiative is fixed when a round starts (lower Hero HP; a tie gives it to A on odd
  rounds and to B on even ones). It orders the Deploy effects, simultaneous Last
  Breaths and burn, and breaks a Speed tie.
- A player without a card on the field must pick one when any is left (Commit is
  refused otherwise); with none left they commit with an empty field.
- Boosts: Charge at 4 NRG and Hero Patch at 90 Hero HP are refused (they would do
  nothing). Rage and Guard Up need a card on the field or a picked one, and act on that
  card: Guard Up's DEF stays on it, Rage's +2 ATK is for its strikes this round only.
  A buff on a card ends when it leaves the field (docs/rules.md §6, settled): Rage does not
  pass to the card Switch brings in (``boost.switch`` carries the Rage that ended), and
  a Rage given to a picked card stays with that card if the pick changes (the new pick
  enters without it). Switch needs a card on the field and names the card that comes
  in; that card is deployed at Commit and pays its cost. A card keeps its HP and DEF
  when it leaves the field; its Deploy buffs and undercharge last only for that stay.
- Undercharge cuts ATK and the card's *current* DEF; numeric effects (Deploy, Passive,
  Last Breath) are weakened for that stay (``engine.card.stats.apply_undercharge``). Arcane
  applies only to the card's very first deployment, and an undercharged first
  deployment uses that chance up (the skill is off).
- Deploy effects fire after both cards have entered; a card destroyed by an earlier
  Deploy loses its own Deploy (its Last Breath still fires).
- Pierce and Steal are combat skills: they act on strikes only. A strike that lands
  any damage (DEF included, or the Hero) triggers Steal.
- The end is checked after each beat (Commit, Resolve, Advance): both Heroes at 0 after
  the same beat is a draw; a Hero at 0 cannot be healed. After round 200 the higher
  Hero HP wins and equal HP is a draw.
- Neither side with a card left is checked when a round ends (after its burn, before
  the NRG gain). Each side's unused Hero Patch is then counted: it is used there and
  then (+3 Hero HP, never above 90; one at 90 adds nothing and is not shown), one
  ``hero_patch.counted`` event each, A first; then the higher Hero HP wins, equal HP
  is a draw. The final state and the ``match.end`` event show the counted HP. When both
  happen in round 200, the decks being spent is the reason (the patches count).
- A deck is refused (``InvalidDeckError``) for its size first, then for a card given
  twice (two cards with the same id), then for an entry that is not a card.

>>> from engine.types import Rarity, Role
>>> pup = MatchCard("1", "Iron Pup", Rarity.COMMON, Role.TANK, atk=8, hp=20, def_=2)
>>> fang = MatchCard("2", "Ember Fang", Rarity.COMMON, Role.STRIKER, atk=12, hp=12)
>>> state = new_match((pup,), (fang,), seed=7)
>>> state.players[A].hero_hp, state.players[B].hero_hp, state.players[A].nrg
(32, 30, 3)
>>> state, _ = apply(state, Pick(A, 0))
>>> state, _ = apply(state, Commit(A))
>>> state, _ = apply(state, Pick(B, 0))
>>> state, events = apply(state, Commit(B))
>>> [e.code for e in events if e.code.startswith("strike")]
['strike.order', 'strike.card', 'strike.card']
>>> state.players[A].card_hp, state.players[A].card_def, state.players[B].card_hp
((10,), (0,), (4,))
>>> state.round, state.players[A].nrg
(2, 3)
>>> apply(state, Pick(A, 0))
Traceback (most recent call last):
...
engine.errors.IllegalActionError: You already have a card on the field; use Switch to change it.
"""

from __future__ import annotations

from engine.errors import DECK_ERROR_CODES, ILLEGAL_CODES, IllegalActionError, InvalidDeckError
from engine.match.cards import (
    CardEffect,
    MatchCard,
    hero_start_hp,
    validate_deck,
    validate_deck_ids,
)
from engine.match.reading import CardCurve, EnergyCurve, beats, energy_curve, out_of_cards
from engine.match.replay import Recorder, Replay, replay
from engine.match.rules import apply, is_legal, legal_actions, new_match, opening_events, refusal_of
from engine.match.state import (
    ACTION_TYPES,
    BOOST_KEYS,
    EVENT_CODES,
    SIDES,
    A,
    Action,
    B,
    Boost,
    Commit,
    Deployment,
    Event,
    MatchState,
    Pick,
    PlayerState,
    Surrender,
)
from engine.types import Side

__all__ = [
    "ACTION_TYPES",
    "BOOST_KEYS",
    "DECK_ERROR_CODES",
    "EVENT_CODES",
    "ILLEGAL_CODES",
    "SIDES",
    "A",
    "Action",
    "B",
    "Boost",
    "CardCurve",
    "CardEffect",
    "Commit",
    "Deployment",
    "EnergyCurve",
    "Event",
    "IllegalActionError",
    "InvalidDeckError",
    "MatchCard",
    "MatchState",
    "Pick",
    "PlayerState",
    "Recorder",
    "Replay",
    "Side",
    "Surrender",
    "apply",
    "beats",
    "energy_curve",
    "hero_start_hp",
    "is_legal",
    "legal_actions",
    "new_match",
    "opening_events",
    "out_of_cards",
    "refusal_of",
    "replay",
    "validate_deck",
    "validate_deck_ids",
]
