"""Force on Force fire combat, as pure functions: dice in, results out.

Troop Quality dice and die shifts (1.1, 1.3), firepower (3.1-3.7), defence (3.8-3.10),
dice matching (5.0), Who Got Hit (5.1), morale checks (5.2), first aid (5.3) and the
Troop Quality tests (1.1, 3.12). Every function that rolls takes the roller and returns
the faces it threw, so the engine can put each die into exactly one log record.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

from rules.forceonforce import tables as t


class Dice(Protocol):
    def roll(self, count: int = 1, sides: int = 6) -> tuple[int, ...]: ...
    def die(self, sides: int) -> int: ...
    def d6(self) -> int: ...


# --- Troop Quality dice -----------------------------------------------------------------


def shift_die(die: int, steps: int) -> int | None:
    """The die after ``steps`` die shifts (1.3, "Die Shifts").

    Capped at D12 on top (no Troop Quality above D12); below D6 there is no die: the
    caller decides what that means (5.2: a pinned unit below D6 may not fire; an Irregular
    whose Morale falls below D6 leaves the battle).
    """
    known = _SHIFTED.get((die, steps), _UNKNOWN)
    return _shifted(die, steps) if known == _UNKNOWN else known


def _shifted(die: int, steps: int) -> int | None:
    if die not in t.DIE_LADDER:
        raise ValueError(f"not a Force on Force die: d{die}")
    index = t.DIE_LADDER.index(die) + steps
    if index < 0:
        return None
    return t.DIE_LADDER[min(index, len(t.DIE_LADDER) - 1)]


_UNKNOWN = 0  # no die: a miss in _SHIFTED
# shift_die's answers for the shifts a battle meets, worked out once.
_SHIFTED: dict[tuple[int, int], int | None] = {
    (die, steps): _shifted(die, steps) for die in t.DIE_LADDER for steps in range(-4, 4)
}


def successes(faces: Iterable[int]) -> int:
    """1.1: every 4+ is a success."""
    return sum(1 for face in faces if face >= t.SUCCESS)


# The results of the dice below are named tuples, as Shot is: as immutable as a frozen
# dataclass, and made several times faster, as every attack makes some (issue 17).


class Check(NamedTuple):
    """One Troop Quality check (1.1): the face, whether it passed, whether it drew FoW."""

    face: int
    passed: bool
    fog_of_war: bool


def tq_check(roller: Dice, die: int, modifier: int = 0) -> Check:
    """Unopposed: a 4+ on the Troop Quality die passes; a natural 1 draws Fog of War."""
    face = roller.die(die)
    return Check(face, face + modifier >= t.SUCCESS, face == t.FOG_OF_WAR_FACE)


class Opposed(NamedTuple):
    """An opposed Troop Quality test (1.1; 3.12 the Reaction Test)."""

    faces: tuple[int, int]  # (first unit, second unit), unmodified
    totals: tuple[int, int]
    passed: tuple[bool, bool]
    first_wins: bool

    @property
    def fog_of_war(self) -> tuple[bool, bool]:
        return (self.faces[0] == t.FOG_OF_WAR_FACE, self.faces[1] == t.FOG_OF_WAR_FACE)


def opposed_test(
    roller: Dice, die_a: int, die_b: int, mod_a: int = 0, mod_b: int = 0, *, ties_to_a: bool
) -> Opposed:
    """Both roll; a side wins by passing (4+) and beating the other.

    3.12: "In the case of a tie of any sort, including both units failing to roll a 4+,
    initiative unit acts first" (``ties_to_a`` when ``a`` is the initiative unit). 4.2
    spotting is the other reading: the spotter (``a``) must pass *and* roll higher, so
    every other case goes to the hidden unit (``ties_to_a=False``).
    """
    face_a, face_b = roller.die(die_a), roller.die(die_b)
    total_a, total_b = face_a + mod_a, face_b + mod_b
    pass_a, pass_b = total_a >= t.SUCCESS, total_b >= t.SUCCESS
    if ties_to_a:
        b_wins = pass_b and total_b > total_a
        first_wins = not b_wins
    else:
        first_wins = pass_a and total_a > total_b
    return Opposed((face_a, face_b), (total_a, total_b), (pass_a, pass_b), first_wins)


# --- firepower --------------------------------------------------------------------------


def optimum_range(tq_die: int, *, doubled: bool = False, night: bool = False) -> float:
    """3.2: the unmodified Troop Quality die in inches, doubled for support weapons and
    optics; 4.4: halved at night without night vision."""
    reach = float(tq_die * (t.OPTICS_RANGE_FACTOR if doubled else 1))
    return reach / t.NIGHT_RANGE_DIVISOR if night else reach


def support_dice(category: str | None, movement: str) -> int | None:
    """3.3: a support weapon's dice after ``movement`` (none/tactical/rapid); None: the
    weapon may not fire (heavy, after a rapid move)."""
    if category is None:
        return 0
    return t.SUPPORT_DICE[category][movement]


class Shot(NamedTuple):
    """Everything 3.1-3.7 and 4.4-4.6 need to count an attack's dice.

    A named tuple rather than a frozen dataclass: as immutable, and the AI builds one for
    every shot it weighs, several times faster (issue 17).
    """

    figures: int  # healthy figures firing (lightly wounded included)
    support: str | None = None  # the unit's support weapon category
    support_jammed: bool = False  # Fog of War "jammed"
    movement: str = "none"  # none / tactical / rapid, this turn
    band: str = "optimum"  # close_assault / optimum / beyond
    small_arms: str | None = None  # bolt / smg / handgun / assault
    target_exposed: bool = False
    target_moving_rapidly: bool = False
    supply: str = "normal"
    earlier_actions: int = 0  # 3.4: fires and moves this turn that diminish firepower
    suppression: bool = False  # 3.7 declared
    defending_close_assault: bool = False
    outgunned: bool = False  # 4.6: the firer outguns the target
    suppressed_weapons: bool = False  # 4.5
    out_of_smoke: bool = False  # 4.6
    night_beyond: bool = False  # 4.4: at night, target beyond the reduced optimum range
    allotted: int | None = None  # 3.6: dice allotted to this target when splitting fire
    extra: int = 0  # Fog of War "low_ammo" (-1) and the like


@dataclass(frozen=True, slots=True)
class Firepower:
    dice: int  # Troop Quality dice to throw (0: may not fire)
    unmodified: int  # the support weapon's unmodified dice: 4.6 and 5.2 read this
    suppressing: bool
    modifiers: tuple[tuple[str, int], ...] = field(default=())

    def to_json(self) -> list[list[str | int]]:
        return [[reason, value] for reason, value in self.modifiers]


def _modifier_values(shot: Shot) -> tuple[int, ...]:
    """The value of each bonus and penalty (3.1) for ``shot``, in the order the log lists
    them (``_modifiers`` names them); a zero is one that does not apply."""
    arms_dice = t.SMALL_ARMS.get(shot.small_arms or "assault", {}).get(shot.band, 0)
    return (
        t.OPTIMUM_RANGE_BONUS if shot.band == "optimum" else 0,
        # A die or a shift is no number of dice: taken elsewhere (3.1).
        arms_dice if isinstance(arms_dice, int) else 0,
        t.EXPOSED_TARGET_BONUS if shot.target_exposed else 0,
        t.RAPID_TARGET_BONUS if shot.target_moving_rapidly else 0,
        t.SUPPLY_FIREPOWER[shot.supply],
        t.OUTGUNNED_BONUS if shot.outgunned else 0,
        t.RAPID_MOVER_PENALTY if shot.movement == "rapid" else 0,
        -shot.earlier_actions,
        t.SUPPRESSION_FIRE_PENALTY
        if shot.suppression and shot.support not in t.ALWAYS_SUPPRESSING
        else 0,
        t.CLOSE_ASSAULT_DEFENSIVE_FIRE if shot.defending_close_assault else 0,
        t.SUPPRESSED_WEAPON_PENALTY if shot.suppressed_weapons else 0,
        t.FIRING_OUT_OF_SMOKE if shot.out_of_smoke else 0,
        shot.extra,
    )


def _modifiers(shot: Shot) -> list[tuple[str, int]]:
    """The bonuses and penalties (3.1) that apply to ``shot``, each with its reason, in
    the order the log lists them."""
    reasons = (
        "optimum range",
        f"{shot.small_arms} small arms",
        "target exposed",
        "target moving rapidly",
        f"{shot.supply} supplies",
        "outgunned",
        "moved rapidly",
        "diminishing firepower",
        "suppression fire",
        "defensive fire against a close assault",
        "suppressed weapons",
        "firing out of smoke",
        "fog of war",
    )
    return [
        (reason, value)
        for reason, value in zip(reasons, _modifier_values(shot), strict=True)
        if value
    ]


def firepower_dice(shot: Shot) -> int:
    """``firepower(shot).dice`` without the reasons: what the AI weighs a shot by."""
    figures = shot.figures if shot.allotted is None else shot.allotted
    weapon = 0 if shot.support_jammed else support_dice(shot.support, shot.movement)
    plus = figures + (weapon or 0)
    minus = 0
    for value in _modifier_values(shot):
        if value > 0:
            plus += value
        else:
            minus += value
    total = max(0, min(t.FIREPOWER_CAP, plus) + minus)
    if shot.night_beyond and total:
        total //= t.NIGHT_FIREPOWER_DIVISOR
    if shot.support == "heavy" and shot.movement == "rapid":
        return 0
    return total


def firepower(shot: Shot) -> Firepower:
    """3.1: figures + support dice + bonuses, capped at 10D, then every penalty off the
    cap; never below zero. Split fire (3.6) uses ``allotted`` as the figures' share."""
    suppressing = shot.suppression or shot.support in t.ALWAYS_SUPPRESSING
    # Ruling: a *weapon's* unmodified firepower (4.6, 5.2) is its support dice unmoved plus
    # its gunner; rifles are no single weapon, so a unit without one has none.
    unmodified = (support_dice(shot.support, "none") or 0) + 1 if shot.support else 0
    modifiers = _modifiers(shot)
    plus = _dice(shot) + [(reason, value) for reason, value in modifiers if value > 0]
    minus = [(reason, value) for reason, value in modifiers if value < 0]
    total = _total(shot, plus, minus)
    return Firepower(total, unmodified, suppressing, tuple(plus + minus))


def _dice(shot: Shot) -> list[tuple[str, int]]:
    """The figures' dice (their share of a split fire) and the support weapon's."""
    figures = shot.figures if shot.allotted is None else shot.allotted
    weapon = 0 if shot.support_jammed else support_dice(shot.support, shot.movement)
    # 3.3: a heavy weapon may not fire after a rapid move (None): no dice.
    return [("figures", figures), *([("support weapon", weapon)] if weapon else [])]


def _total(shot: Shot, plus: list[tuple[str, int]], minus: list[tuple[str, int]]) -> int:
    """The dice thrown: ``plus`` capped at 10D, then ``minus`` off, never below zero;
    halved at night beyond the reduced optimum range, none for a heavy weapon after a rapid
    move. Adds the cap, the night and the heavy weapon to the lists as it goes."""
    given = sum(v for _, v in plus)
    total = min(t.FIREPOWER_CAP, given)
    if given > t.FIREPOWER_CAP:
        plus.append(("10D cap", t.FIREPOWER_CAP - given))
    total = max(0, total + sum(v for _, v in minus))
    if shot.night_beyond and total:
        halved = total // t.NIGHT_FIREPOWER_DIVISOR  # ruling: round down
        minus.append(("night, beyond reduced optimum range", halved - total))
        total = halved
    if shot.support == "heavy" and shot.movement == "rapid":
        minus.append(("heavy weapon after a rapid move: may not fire", -total))
        total = 0
    return total


def check_split(tq_die: int, allotments: Sequence[int], support_target: int | None) -> list[str]:
    """3.6: problems with a split: too many targets for the Troop Quality, or support
    dice spread (``support_target`` is the index of the one target they go to)."""
    problems = []
    if len(allotments) > t.SPLIT_FIRE_TARGETS[tq_die]:
        problems.append(
            f"a d{tq_die} unit may engage {t.SPLIT_FIRE_TARGETS[tq_die]} target(s), "
            f"not {len(allotments)}"
        )
    if support_target is not None and not 0 <= support_target < len(allotments):
        problems.append("support weapon dice must go to one of the targets")
    if any(n < 0 for n in allotments):
        problems.append("a target cannot be allotted fewer than 0 dice")
    return problems


# --- defence ----------------------------------------------------------------------------


class Defence(NamedTuple):
    dice: int
    modifiers: tuple[tuple[str, int], ...]

    def to_json(self) -> list[list[str | int]]:
        return [[reason, value] for reason, value in self.modifiers]


def defence(
    figures: int, attack_dice: int, *, cover: Iterable[str] = (), armour: str = "none"
) -> Defence:
    """3.8: Basic Defense (figures or the attack's firepower, whichever is less) plus the
    cover dice (3.9) and armour dice (3.10); never fewer than one die."""
    basic = min(figures, attack_dice)
    mods: list[tuple[str, int]] = [("basic defence", basic)]
    for kind in cover:
        mods.append((kind.replace("_", " "), t.COVER_DICE[kind]))
    if t.ARMOUR_DICE[armour]:
        mods.append((f"{armour} armour", t.ARMOUR_DICE[armour]))
    total = sum(v for _, v in mods)
    if total < t.MIN_DEFENCE_DICE:
        mods.append(("never zero", t.MIN_DEFENCE_DICE - total))
        total = t.MIN_DEFENCE_DICE
    return Defence(total, tuple(mods))


# --- matching ---------------------------------------------------------------------------


def unmatched(attack: Sequence[int], defence_faces: Sequence[int]) -> int:
    """5.0: the attacker's 4+ dice that no defence 4+ die equals or exceeds.

    The defender "may arrange his successful dice ... as he sees fit", so he matches as
    many as he can: taking the attack dice from the highest down, each is cancelled by any
    spare defence success at least as high (a sweep from the top is an optimal matching,
    since a die that covers a higher face covers every lower one).
    """
    top = max(max(attack, default=0), max(defence_faces, default=0))
    att = [0] * (top + 1)
    dfn = [0] * (top + 1)
    for face in attack:
        att[face] += 1
    for face in defence_faces:
        dfn[face] += 1
    hits = spare = 0
    for face in range(top, t.SUCCESS - 1, -1):
        hits, spare = sweep_step(hits, spare, att[face], dfn[face])
    return hits


def sweep_step(hits: int, spare: int, attack_count: int, defence_count: int) -> tuple[int, int]:
    """One face of the sweep in ``unmatched``: this face's defence dice join the spares,
    then cancel as many of this face's attack dice as they can."""
    spare += defence_count
    cancelled = spare if spare <= attack_count else attack_count  # min, without its call
    return hits + attack_count - cancelled, spare - cancelled


class Exchange(NamedTuple):
    attack: tuple[int, ...]
    defence: tuple[int, ...]
    hits: int
    attack_successes: int  # 3.7: suppression needs at least one 4+


def exchange(
    roller: Dice, attack_dice: int, attack_die: int, defence_dice: int, defence_die: int
) -> Exchange:
    """5.0: the attacker throws his firepower, the defender his defence; match; hits."""
    attack = roller.roll(attack_dice, attack_die)
    dfn = roller.roll(defence_dice, defence_die) if attack_dice else ()
    return Exchange(attack, dfn, unmatched(attack, dfn), successes(attack))


# --- results ----------------------------------------------------------------------------


def who_got_hit(roller: Dice, unit_size: int) -> tuple[str, int | None]:
    """5.1: which figure a hit strikes: "leader", "special_weapon" or "other", and the
    face (None: a one-figure unit needs no roll)."""
    if unit_size <= 1:
        return "other", None
    die, leader, special = t.WHO_GOT_HIT[min(unit_size, 8)]
    face = roller.die(die)
    if face <= leader:
        return "leader", face
    if face <= special:
        return "special_weapon", face
    return "other", face


class MoraleCheck(NamedTuple):
    faces: tuple[int, ...]
    die: int | None
    stands: bool  # successes outnumber failures


def morale_check(roller: Dice, morale_die: int, figures: int, shift: int = 0) -> MoraleCheck:
    """5.2: Stand if the successes (4+) outnumber the failures, otherwise a failure
    (Pinned, Suppressed, Pull Back or Shaken: the caller decides which).

    Ruling: one Morale die per healthy figure (at least one). A Morale die shifted below
    D6 fails without a roll.
    """
    die = shift_die(morale_die, shift)
    if die is None:
        return MoraleCheck((), None, False)
    faces = roller.roll(max(1, figures), die)
    good = successes(faces)
    return MoraleCheck(faces, die, good > len(faces) - good)


def first_aid(face: int, *, advanced: bool) -> str:
    """5.3: dead / serious / light / ok for a casualty's d6."""
    return (t.FIRST_AID_ADVANCED if advanced else t.FIRST_AID_STANDARD)[face]


def fog_of_war_event(
    face: int, table: Sequence[t.FogOfWarEvent] = t.FOG_OF_WAR_TABLE
) -> t.FogOfWarEvent:
    return table[face - 1]


def suppression_check_needed(confidence: str, modified_firepower: int) -> tuple[bool, int]:
    """3.7: whether suppression fire makes the target test, and the Morale die shift."""
    if confidence == "high":
        return False, 0
    if confidence == "low":
        return True, t.LOW_CONFIDENCE_SUPPRESSION_SHIFT
    return modified_firepower >= t.SUPPRESSION_MIN_FIREPOWER, 0


class MoraleCall(NamedTuple):
    """The one morale check an attack calls for: why, what a failure does, the die shift."""

    reason: str
    failure: str  # pinned (5.2: Pinned, Pull Back or Shaken) / suppressed (3.7)
    shift: int = 0


def morale_call(
    *,
    hits: int,
    confidence: str,
    suppressing: bool,
    unmodified: int,
    dice: int,
    attack_successes: int,
    infantry: bool = True,
) -> MoraleCall | None:
    """Which morale check one attack calls for (one per attack), by precedence:

    1. casualties (5.2; 3.7: "Morale Checks resulting from casualties ... take precedence
       over any Suppression results");
    2. suppression (3.7): suppression fire with at least one 4+ rolled makes Low
       Confidence units check at a -1 shift and Confident units check if its modified
       firepower (``dice``) is 3+; "All infantry units engaged by Intimidating Weapons"
       (unmodified 3D+, 4.6) check too; failure Suppresses. "High Confidence Units:
       Cannot be Suppressed";
    3. the 5.2 check points for being fired on (4D+ weapons; Confident troops, support
       weapons of 3D+; Low Confidence troops, any fire): failure Pins.
    """
    if hits:
        return MoraleCall("casualties", "pinned")
    if confidence != "high":
        if suppressing and attack_successes:
            needed, shift = suppression_check_needed(confidence, dice)
            if needed:
                return MoraleCall("suppression fire", "suppressed", shift)
        if infantry and unmodified >= t.INTIMIDATING_FIREPOWER:
            return MoraleCall("intimidating weapon", "suppressed")
    reason = fire_morale_trigger(confidence, unmodified)
    return MoraleCall(reason, "pinned") if reason is not None else None


def fire_morale_trigger(confidence: str, unmodified: int) -> str | None:
    """5.2 check points for being fired on (casualties apart): the reason, or None.

    ``unmodified`` is the support weapon's (``Firepower.unmodified``).
    """
    if unmodified >= t.MORALE_CHECK_FIREPOWER_ALL:
        return "fired on by 4D+"
    if confidence == "confident" and unmodified >= t.MORALE_CHECK_FIREPOWER_CONFIDENT:
        return "fired on by a support weapon of 3D+"
    if confidence == "low":
        return "low confidence, fired on"
    return None
