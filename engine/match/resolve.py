"""The Commit, Resolve and Advance beats, on a mutable working copy of the state."""

from __future__ import annotations

from typing import Any

from engine.card.stats import apply_undercharge, undercharge_tier
from engine.data import (
    ARCANE_EFFECT_BONUS,
    MAX_HERO_HP_CEILING,
    NRG_CAP,
    NRG_PER_ROUND,
    ROUND_LIMIT,
    STEAL_HERO_HEAL,
    WOUNDED_RAGE_THRESHOLD,
)
from engine.match.cards import MatchCard
from engine.match.state import (
    _BOOST,
    _BOTH,
    _OTHER,
    HERO_PATCH,
    SIDES,
    A,
    B,
    Deployment,
    Event,
    MatchState,
    PlayerState,
)
from engine.types import (
    EffectKind,
    EffectSlot,
    EndReason,
    Side,
    Skill,
    Stats,
)

# ---------------------------------------------------------------------------
# The Commit, Resolve and Advance beats, on a mutable working copy


class _Side:
    """A mutable copy of one PlayerState while a round resolves (the same field names;
    the active card's ``Deployment`` is spread out: ``on_field``, ``card``, ``atk``,
    ``passive``, ``last_breath``, ``skill``, ``deficit``)."""

    __slots__ = (
        "atk",
        "boosts_round",
        "boosts_used",
        "card",
        "card_def",
        "card_hp",
        "deck",
        "deficit",
        "deploy_value",
        "deployed",
        "hero_hp",
        "hero_start",
        "last_breath",
        "nrg",
        "on_field",
        "pass_kind",
        "passive",
        "pick",
        "rage",
        "rage_card",
        "skill",
    )

    def __init__(self, p: PlayerState, deck: tuple[MatchCard, ...]) -> None:
        self.deck = deck
        self.hero_hp = p.hero_hp
        self.hero_start = p.hero_start
        self.nrg = p.nrg
        self.card_hp = list(p.card_hp)
        self.card_def = list(p.card_def)
        self.deployed = p.deployed
        self.pick: int | None = p.pick
        self.boosts_used = p.boosts_used
        self.boosts_round = p.boosts_round
        self.rage = p.rage
        self.rage_card = p.rage_card
        dep = p.field
        self.on_field = dep is not None
        if dep is not None:
            self.card = dep.card
            self.atk = dep.atk
            self.passive = dep.passive
            self.last_breath = dep.last_breath
            self.skill = dep.skill
            self.deficit = dep.deficit
            passive = deck[dep.card].passive
            self.pass_kind = passive.kind if passive is not None else None
        else:
            self.card = -1
            self.atk = self.passive = self.last_breath = self.deficit = 0
            self.skill = None
            self.pass_kind = None
        self.deploy_value: int | None = None  # the Deploy value of a card entering this round

    def freeze(self, over: bool) -> PlayerState:
        """The side after the round: its plan (pick, boost count, Rage) cleared unless the
        match is over (then it stays as it was when the match ended)."""
        field = (
            Deployment.make(
                card=self.card,
                atk=self.atk,
                passive=self.passive,
                last_breath=self.last_breath,
                skill=self.skill,
                deficit=self.deficit,
            )
            if self.on_field
            else None
        )
        return PlayerState.make(
            hero_hp=self.hero_hp,
            hero_start=self.hero_start,
            nrg=self.nrg,
            card_hp=tuple(self.card_hp),
            card_def=tuple(self.card_def),
            deployed=self.deployed,
            field=field,
            pick=None,
            boosts_used=self.boosts_used,
            boosts_round=self.boosts_round if over else 0,
            rage=self.rage if over else 0,
            committed=False,
            rage_card=self.rage_card if over else None,
        )


class _Work:
    """A round being resolved: two mutable sides and the event list."""

    __slots__ = ("events", "ini", "over", "reason", "round", "sides", "state", "winner")

    def __init__(self, state: MatchState) -> None:
        self.state = state
        self.sides = (
            _Side(state.players[A], state.decks[A]),
            _Side(state.players[B], state.decks[B]),
        )
        self.events: list[Event] = []
        self.ini = state.initiative
        self.round = state.round
        self.over = False
        self.winner: Side | None = None
        self.reason: EndReason | None = None

    def freeze(self, actions: int) -> MatchState:
        """The state after the round, ``actions`` actions into the match."""
        state = self.state
        over = self.over
        a, b = self.sides
        return MatchState.make(
            decks=state.decks,
            players=(a.freeze(over), b.freeze(over)),
            seed=state.seed,
            round=self.round,
            initiative=self.ini,
            actions=actions,
            over=over,
            winner=self.winner,
            end_reason=self.reason,
        )

    # -- the round --------------------------------------------------------

    def play_round(self) -> None:
        order = (self.ini, _OTHER[self.ini])
        # 2 Commit: newly picked cards enter and pay; then Deploy fires, initiative first.
        entered = [side for side in order if self._enter(side)]
        for side in entered:
            self._deploy_effect(side)
        if self._check_end():
            return
        # 3 Resolve.
        self._resolve(order)
        if self._check_end():
            return
        # 4 Advance: burn, initiative order; then +1 NRG each.
        for side in order:
            w = self.sides[side]
            if w.on_field and w.pass_kind is EffectKind.BURN:
                self._hero_damage(side, "effect.burn", EffectSlot.PASSIVE, w.passive)
        if self._check_end():
            return
        self.events.append(Event("round.end", {"round": self.round}))
        a_cards = max(self.sides[A].card_hp) > 0
        b_cards = max(self.sides[B].card_hp) > 0
        if not (a_cards or b_cards):
            # Both decks spent: only a Hero Patch could change a Hero's HP, so the unused
            # ones count now; then the higher Hero HP wins, equal HP is a draw.
            for side in _BOTH:
                self._count_hero_patch(side)
            self._finish_on_hero_hp(EndReason.DECKS_EXHAUSTED)
            return
        if self.round >= ROUND_LIMIT:
            self._finish_on_hero_hp(EndReason.ROUND_LIMIT)
            return
        for side in _BOTH:
            w = self.sides[side]
            gain = min(NRG_CAP, w.nrg + NRG_PER_ROUND) - w.nrg
            w.nrg += gain
            self.events.append(
                Event(
                    "nrg.gain", {"side": SIDES[side], "amount": gain, "nrg": w.nrg, "cap": NRG_CAP}
                )
            )
        self.round += 1
        self.ini, reason = _initiative(self.sides[A].hero_hp, self.sides[B].hero_hp, self.round)
        for w in self.sides:
            w.pick = None
        a, b = self.sides[A].hero_hp, self.sides[B].hero_hp
        self.events.append(_round_start_event(self.round, self.ini, reason, a, b))

    def _count_hero_patch(self, side: Side) -> None:
        """Use ``side``'s Hero Patch at the end of a match with no cards left, if unused."""
        w = self.sides[side]
        if HERO_PATCH in w.boosts_used:
            return
        hp = min(MAX_HERO_HP_CEILING, w.hero_hp + _BOOST[HERO_PATCH].amount)
        if hp == w.hero_hp:
            return  # at the ceiling: the patch would add nothing
        amount = hp - w.hero_hp
        w.hero_hp = hp
        w.boosts_used = w.boosts_used | {HERO_PATCH}
        self.events.append(
            Event(
                "hero_patch.counted",
                {"side": side.key, "amount": amount, "hp": hp, "cap": MAX_HERO_HP_CEILING},
            )
        )

    def _finish_on_hero_hp(self, reason: EndReason) -> None:
        a, b = self.sides[A].hero_hp, self.sides[B].hero_hp
        self._finish(A if a > b else B if b > a else None, reason)

    def _finish(self, winner: Side | None, reason: EndReason) -> None:
        self.over = True
        self.winner = winner
        self.reason = reason
        result = "draw" if winner is None else SIDES[winner]
        a, b = self.sides[A].hero_hp, self.sides[B].hero_hp
        self.events.append(_end_event(result, reason, self.round, a, b))

    def _check_end(self) -> bool:
        a_down = self.sides[A].hero_hp <= 0
        b_down = self.sides[B].hero_hp <= 0
        if not (a_down or b_down):
            return False
        if a_down and b_down:
            self._finish(None, EndReason.BOTH_DEFEATED)
        else:
            self._finish(B if a_down else A, EndReason.HERO_DEFEATED)
        return True

    def _enter(self, side: int) -> bool:
        """The picked card enters the field and pays its cost (Undercharged when short)."""
        w = self.sides[side]
        i = w.pick
        if i is None or w.on_field:
            return False
        card = w.deck[i]
        paid = min(card.cost, w.nrg)
        deficit = card.cost - paid
        w.nrg -= paid
        first = not w.deployed[i]
        if first:
            deployed = list(w.deployed)
            deployed[i] = True
            w.deployed = tuple(deployed)
        w.on_field = True
        w.card = i
        w.deficit = deficit
        deploy, passive, last_breath = card.deploy, card.passive, card.last_breath
        w.pass_kind = passive.kind if passive else None
        tier = None
        if deficit:
            # Undercharged: engine.card.stats has the one formula (ATK and current DEF cut,
            # numeric effects weakened); the active skill is off.
            tier = undercharge_tier(deficit)
            stats = Stats(card.atk, card.hp, w.card_def[i], 0)
            row = apply_undercharge(stats, card.effects, paid, card.cost)
            values = dict(row.effects)
            w.atk = row.atk
            w.card_def[i] = row.def_
            w.skill = None
            w.deploy_value = values.get(EffectSlot.DEPLOY)
            w.passive = values.get(EffectSlot.PASSIVE, 0)
            w.last_breath = values.get(EffectSlot.LAST_BREATH, 0)
            arcane = 0
        else:
            w.skill = skill = card.skill
            arcane = ARCANE_EFFECT_BONUS if (skill is Skill.ARCANE and first) else 0
            w.atk = card.atk
            w.deploy_value = deploy.value + arcane if deploy else None
            w.passive = passive.value + arcane if passive else 0
            w.last_breath = last_breath.value if last_breath else 0
        s = SIDES[side]
        ev = self.events
        ev.append(
            Event(
                "deploy",
                {
                    "side": s,
                    "card": i,
                    "name": card.name,
                    "cost": card.cost,
                    "paid": paid,
                    "nrg": w.nrg,
                    "atk": w.atk,
                    "hp": w.card_hp[i],
                    "def": w.card_def[i],
                },
            )
        )
        if tier is not None:
            ev.append(
                Event(
                    "deploy.undercharged",
                    {
                        "side": s,
                        "card": i,
                        "name": card.name,
                        "deficit": deficit,
                        "cut_percent": tier.stat_cut_percent,
                        "effect_minus": 0 if tier.halve_effects else tier.effect_minus,
                        "halved": tier.halve_effects,
                        "atk": w.atk,
                        "def": w.card_def[i],
                    },
                )
            )
        if arcane:
            ev.append(
                Event("arcane.bonus", {"side": s, "card": i, "name": card.name, "bonus": arcane})
            )
        return True

    def _deploy_effect(self, side: int) -> None:
        w = self.sides[side]
        value = w.deploy_value
        w.deploy_value = None
        if value is None:
            return
        if not w.on_field:  # destroyed by an earlier Deploy before its own could fire
            assert w.pick is not None  # it was picked to enter this round
            card = w.deck[w.pick]
            self.events.append(
                Event("deploy.lost", {"side": SIDES[side], "card": w.pick, "name": card.name})
            )
            return
        effect = w.deck[w.card].deploy
        assert effect is not None
        self._effect(side, w.card, EffectSlot.DEPLOY, effect.kind, value)

    def _effect(self, side: int, i: int, slot: EffectSlot, kind: EffectKind, value: int) -> None:
        """Fire one Deploy or Last Breath effect of card ``i`` of ``side``."""
        w = self.sides[side]
        name = w.deck[i].name
        s = SIDES[side]
        if kind is EffectKind.DAMAGE_CARD:
            enemy = self.sides[1 - side]
            if not enemy.on_field:
                self.events.append(
                    Event(
                        "effect.no_target",
                        {
                            "side": s,
                            "card": i,
                            "name": name,
                            "slot": slot.value,
                            "kind": kind.value,
                        },
                    )
                )
                return
            t = enemy.card
            to_def, to_hp = _hit(enemy, t, value, pierce=False)
            self.events.append(
                Event(
                    "effect.damage_card",
                    {
                        "side": s,
                        "card": i,
                        "name": name,
                        "slot": slot.value,
                        "target": SIDES[1 - side],
                        "target_card": t,
                        "target_name": enemy.deck[t].name,
                        "amount": value,
                        "to_def": to_def,
                        "to_hp": to_hp,
                        "def": enemy.card_def[t],
                        "hp": enemy.card_hp[t],
                    },
                )
            )
            if enemy.card_hp[t] <= 0:
                self._die(1 - side)
        elif kind is EffectKind.DAMAGE_HERO:
            self._hero_damage(side, "effect.damage_hero", slot, value, card=i)
        elif kind is EffectKind.HEAL_HERO:
            healed = _heal(w, value)
            self.events.append(
                Event(
                    "effect.heal_hero",
                    {
                        "side": s,
                        "card": i,
                        "name": name,
                        "slot": slot.value,
                        "amount": healed,
                        "hp": w.hero_hp,
                    },
                )
            )
        elif kind is EffectKind.SHIELD:
            w.card_def[i] += value
            self.events.append(
                Event(
                    "effect.shield",
                    {
                        "side": s,
                        "card": i,
                        "name": name,
                        "slot": slot.value,
                        "amount": value,
                        "def": w.card_def[i],
                    },
                )
            )
        elif kind is EffectKind.BUFF_ATK:
            w.atk += value
            self.events.append(
                Event(
                    "effect.buff_atk",
                    {
                        "side": s,
                        "card": i,
                        "name": name,
                        "slot": slot.value,
                        "amount": value,
                        "atk": w.atk,
                    },
                )
            )

    def _hero_damage(
        self, side: int, code: str, slot: EffectSlot, value: int, card: int | None = None
    ) -> None:
        w = self.sides[side]
        enemy = self.sides[1 - side]
        i = w.card if card is None else card
        enemy.hero_hp = max(0, enemy.hero_hp - value)
        self.events.append(
            Event(
                code,
                {
                    "side": SIDES[side],
                    "card": i,
                    "name": w.deck[i].name,
                    "slot": slot.value,
                    "target": SIDES[1 - side],
                    "amount": value,
                    "hp": enemy.hero_hp,
                },
            )
        )

    def _die(self, side: int) -> None:
        """Side's active card is at 0 HP: it leaves the field, then its Last Breath fires."""
        i = self._leave(side)
        if self.sides[side].deck[i].last_breath is not None:
            self._last_breath(side, i)

    def _leave(self, side: int) -> int:
        """Side's active card, defeated, leaves the field (``card.dies``); its deck index."""
        w = self.sides[side]
        i = w.card
        w.on_field = False
        w.card = -1
        w.pass_kind = None
        self.events.append(
            Event("card.dies", {"side": SIDES[side], "card": i, "name": w.deck[i].name})
        )
        return i

    def _last_breath(self, side: int, i: int) -> None:
        w = self.sides[side]
        effect = w.deck[i].last_breath
        if effect is not None:
            self._effect(side, i, EffectSlot.LAST_BREATH, effect.kind, w.last_breath)

    def _strike_atk(self, side: int) -> tuple[int, int]:
        """(ATK this strike, the Wounded Rage part of it)."""
        w = self.sides[side]
        wounded = (
            w.passive
            if w.pass_kind is EffectKind.WOUNDED_RAGE and w.hero_hp <= WOUNDED_RAGE_THRESHOLD
            else 0
        )
        return w.atk + self._rage(w) + wounded, wounded

    @staticmethod
    def _rage(w: _Side) -> int:
        """The Rage of the side's active card (Rage belongs to the card it was used on)."""
        return w.rage if w.rage_card == w.card else 0

    def _strike(self, side: int, atk: int, wounded: int, first: bool) -> None:
        """Side's active card strikes with ``atk``: the enemy card, or the enemy Hero."""
        w = self.sides[side]
        enemy = self.sides[1 - side]
        i = w.card
        s = SIDES[side]

        def striker() -> dict[str, Any]:  # what both strikes say of the striking card
            return {
                "side": s,
                "card": i,
                "name": w.deck[i].name,
                "atk": atk,
                "rage": self._rage(w),
                "wounded_rage": wounded,
                "threshold": WOUNDED_RAGE_THRESHOLD,
                "first_strike": first,
            }

        if enemy.on_field:
            t = enemy.card
            pierce = w.skill is Skill.PIERCE
            to_def, to_hp = _hit(enemy, t, atk, pierce)
            dealt = to_def + to_hp
            self.events.append(
                Event(
                    "strike.card",
                    {
                        **striker(),
                        "pierce": pierce,
                        "target": SIDES[1 - side],
                        "target_card": t,
                        "target_name": enemy.deck[t].name,
                        "to_def": to_def,
                        "to_hp": to_hp,
                        "def": enemy.card_def[t],
                        "hp": enemy.card_hp[t],
                    },
                )
            )
        else:
            dealt = min(atk, enemy.hero_hp)
            enemy.hero_hp -= dealt
            self.events.append(
                Event(
                    "strike.hero",
                    {
                        **striker(),
                        "target": SIDES[1 - side],
                        "hp": enemy.hero_hp,
                    },
                )
            )
        if dealt > 0 and w.skill is Skill.STEAL:
            healed = _heal(w, STEAL_HERO_HEAL)
            self.events.append(
                Event(
                    "steal.heal",
                    {
                        "side": s,
                        "card": i,
                        "name": w.deck[i].name,
                        "amount": healed,
                        "hp": w.hero_hp,
                    },
                )
            )

    def _resolve(self, order: tuple[int, int]) -> None:
        a, b = self.sides
        if not a.on_field and not b.on_field:
            return
        if not (a.on_field and b.on_field):  # one card, an open Hero
            side = A if a.on_field else B
            atk, wounded = self._strike_atk(side)
            self._strike(side, atk, wounded, False)
            return
        speed_a = a.skill is Skill.SPEED
        speed_b = b.skill is Skill.SPEED
        if speed_a != speed_b or speed_a:
            first = (A if speed_a else B) if speed_a != speed_b else order[0]
            mode = "first_strike" if speed_a != speed_b else "speed_initiative"
            self.events.append(Event("strike.order", {"mode": mode, "first": SIDES[first]}))
            second = 1 - first
            atk, wounded = self._strike_atk(first)
            self._strike(first, atk, wounded, True)
            target = self.sides[second]
            if target.on_field and target.card_hp[target.card] <= 0:
                i = target.card
                self._die(second)
                self.events.append(
                    Event(
                        "strike.prevented",
                        {"side": SIDES[second], "card": i, "name": target.deck[i].name},
                    )
                )
                return
            atk, wounded = self._strike_atk(second)
            self._strike(second, atk, wounded, False)
            striker = self.sides[first]
            if striker.on_field and striker.card_hp[striker.card] <= 0:
                self._die(first)
            return
        # Neither has Speed: simultaneous, with the values at the start of the step.
        self.events.append(Event("strike.order", {"mode": "simultaneous", "first": None}))
        atk_a, wounded_a = self._strike_atk(A)
        atk_b, wounded_b = self._strike_atk(B)
        for side, atk, wounded in ((A, atk_a, wounded_a), (B, atk_b, wounded_b)):
            self._strike(side, atk, wounded, False)
        dead = [side for side in order if self.sides[side].card_hp[self.sides[side].card] <= 0]
        # Both leave the field first, then the Last Breaths fire in initiative order.
        dying = [(side, self._leave(side)) for side in dead]
        for gone, i in dying:
            self._last_breath(gone, i)


def _hit(target: _Side, i: int, amount: int, pierce: bool) -> tuple[int, int]:
    """Card damage: DEF first (a shield that is used up), the rest to HP; Pierce skips DEF."""
    to_def = 0 if pierce else min(target.card_def[i], amount)
    target.card_def[i] -= to_def
    to_hp = min(target.card_hp[i], amount - to_def)
    target.card_hp[i] -= to_hp
    return to_def, to_hp


def _heal(w: _Side, amount: int) -> int:
    """Heal a Hero up to the 90 ceiling; a fallen Hero (0 HP) stays down. Returns the gain."""
    if w.hero_hp <= 0:
        return 0
    new = min(MAX_HERO_HP_CEILING, w.hero_hp + amount)
    gained = new - w.hero_hp
    w.hero_hp = new
    return gained


def _initiative(hp_a: int, hp_b: int, round_: int) -> tuple[Side, str]:
    """Initiative holder: the lower Hero HP; a tie alternates, A holding odd rounds."""
    if hp_a < hp_b:
        return A, "lower_hp"
    if hp_b < hp_a:
        return B, "lower_hp"
    return (A if round_ % 2 == 1 else B), "tie"


def _round_start_event(round_: int, ini: int, reason: str, hp_a: int, hp_b: int) -> Event:
    return Event(
        "round.start",
        {"round": round_, "initiative": SIDES[ini], "reason": reason, "hp_a": hp_a, "hp_b": hp_b},
    )


def _end_event(result: str, reason: EndReason, round_: int, hp_a: int, hp_b: int) -> Event:
    return Event(
        "match.end",
        {
            "result": result,
            "reason": reason,
            "round": round_,
            "round_limit": ROUND_LIMIT,
            "hp_a": hp_a,
            "hp_b": hp_b,
        },
    )
