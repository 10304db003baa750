"""The battle AI: both sides play by the same rules as a human would.

The attacker advances from cover to cover within command range, shoots at the targets
where its dice do most, calls in support and assaults when the odds favour it. The
defender holds cover, shoots, moves only to get out of the open and counter-attacks when
the odds are good. Either side withdraws when its position is hopeless.

The AI rolls no dice of its own: its choices are deterministic given the battlefield and
the state, so every die in a battle is a rules die and is logged.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from math import cos, hypot, inf, radians, sin

from rules.battlefield import Battlefield, Square
from rules.korona.assault import supported
from rules.korona.fire import dice_for, impact_fuse_applies
from rules.korona.movement import (
    can_move,
    command_roll,
    limber,
    move,
    needs_command_roll,
    reachable_point,
)
from rules.korona.state import (
    ATTACKER,
    COMMAND_RADIUS_IN,
    CONTACT_IN,
    OK,
    PINNED,
    SUPPORT_RADIUS_IN,
    SUPPRESSED,
    BattleState,
    Force,
    Stand,
)
from rules.korona.support import available_mission
from rules.probability import at_least, opposed_d6_win, two_d6_at_least
from rules.units import MOVEMENT, QUALITY_ASSAULT, UNIT_TYPES, UnitType

# How much the AI wants each kind of stand gone.
TARGET_VALUE = {
    "commander": 1.6,
    "forward_observer": 1.5,
    "hmg": 1.4,
    "sniper": 1.3,
    "small_mortar": 1.2,
    "medium_mortar": 1.3,
    "at_gun": 1.2,
    "heavy_artillery": 1.3,
    "light_tank": 1.8,
    "medium_tank": 2.0,
    "heavy_tank": 2.2,
}
ATTACKER_ASSAULT_ODDS = 0.6
DEFENDER_ASSAULT_ODDS = 0.7
# The turn limit is a backstop (rulings section 4): an attacker that would lose there
# takes an even chance in its last PRESS_TURNS turns, and risks its stands more lightly.
PRESS_TURNS = 4
PRESSED_ASSAULT_ODDS = 0.45
PRESSED_LOSS_WEIGHT = 0.5
# From this turn on, or once the odds favour an assault, the attacker's squads leave
# their firing positions and close to assault range; before it they may fire from cover.
CLOSE_FROM_TURN = 4
JUMP_OFF_IN = 3  # the gap a closing squad stops at: outside contact, within a bad-going move
SPACING_IN = 3  # keeps stands out of each other's 2" blast
HOPELESS_RATIO = 3  # a side facing three times its effective strength pulls out

# _HIT_TAIL[n][k]: the chance that n dice score at least k hits on 5-6.
_HIT_TAIL = [[float(at_least(k, n, Fraction(1, 3))) for k in range(5)] for n in range(12)]


def _worth(tail: list[float], status: int) -> float:
    """What n dice are worth against a target in ``status``: a kill counts 1, a new
    suppression 0.4, a new pin 0.15 (a suppressed target needs only two hits to die)."""
    if status == SUPPRESSED:
        return tail[2]
    worth = tail[3] + 0.4 * (tail[2] - tail[3])
    if status == OK:
        worth += 0.15 * (tail[1] - tail[2])
    return worth


_WORTH = [[_worth(tail, status) for status in (OK, PINNED, SUPPRESSED)] for tail in _HIT_TAIL]


def value_of(stand: Stand) -> float:
    return TARGET_VALUE.get(stand.unit.name, 1.0)


def shot_value(
    state: BattleState, side: str, weapon: UnitType, target: Stand, obscured: bool
) -> float:
    """The expected worth of one fire action: chance of each effect times what it buys."""
    if target.unit.armoured:
        if weapon.gun_attack is None or target.unit.defence is None:
            return 0.0
        needed = target.unit.defence - weapon.gun_attack
        return 0.5 * float(two_d6_at_least(needed)) * value_of(target)
    count = dice_for(weapon, obscured)
    if count == 0:
        return 0.0
    if weapon.sniper:
        return (1 - (5 / 6) ** count) * value_of(target)
    tail = _HIT_TAIL[count]
    status = target.status
    if weapon.name == "small_mortar" and impact_fuse_applies(state, side, weapon, target):
        return 0.1 * tail[1] if status == OK else 0.0
    worth = _WORTH[count][status]
    if count >= 4:  # a blast of four hits suppresses what stands near the target
        worth += 0.4 * tail[4] * _crowd(target)
    return worth * value_of(target)


def choose_target(
    state: BattleState, viewer: Stand, weapon: UnitType, side: str
) -> tuple[Stand, bool] | None:
    """The visible enemy stand in range where ``weapon`` does most, and whether obscured."""
    best_worth, best, best_obscured = 0.0, None, False
    vx, vy = viewer.x, viewer.y
    longest = inf if weapon.range_in is None else weapon.range_in
    shortest = weapon.min_range_in
    # Against soft targets most weapons are worth a table look-up (as in shot_value): the
    # rows of _WORTH for the dice in clear view and obscured (as dice_for).
    plain = not weapon.sniper and weapon.name != "small_mortar"
    clear_dice, obscured_dice = dice_for(weapon, False), dice_for(weapon, True)
    sight = state._sight
    for target in viewer.force.enemy.stands:
        if not target.alive or target.hidden:
            continue
        tx, ty = target.x, target.y
        if not shortest <= hypot(tx - vx, ty - vy) <= longest:  # the weapon's range, as in_range
            continue
        seen = sight.get((vx, vy, tx, ty))
        if seen is None:
            seen = state.sees(viewer, target)
        if not seen[0]:
            continue
        obscured = seen[1]
        if plain and target.unit.defence is None:
            count = obscured_dice if obscured else clear_dice  # _WORTH[0] is all 0.0
            worth = _WORTH[count][target.status]
            if count >= 4:
                worth += 0.4 * _HIT_TAIL[count][4] * _crowd(target)
            worth *= TARGET_VALUE.get(target.unit.name, 1.0)
        else:
            worth = shot_value(state, side, weapon, target, obscured)
        if worth > best_worth:
            best_worth, best, best_obscured = worth, target, obscured
    return None if best is None else (best, best_obscured)


def choose_indirect_target(
    state: BattleState, gun: Stand, busy: Stand | None = None
) -> tuple[Stand, Stand, bool] | None:
    """(spotter, target, obscured) for indirect fire by ``gun``: the target where its dice
    do most among those a spotter can see, at any range; None when no spotter sees one.

    Ruling ("heavy artillery 36" direct, no limit indirect"): indirect fire is a fire
    mission, so it is spotted as one is called: by the side's FO or commander, alive,
    unmoved and unsuppressed, with line of sight to the target; the shot is obscured
    when the spotter's view is. A stand that called an off-table mission this phase
    (``busy``) has spent its action and spots for no one.
    """
    unlimited = replace(gun.unit, range_in=None, min_range_in=0.0)
    best: tuple[float, Stand, Stand, bool] | None = None
    for spotter in gun.force.stands:
        if (
            spotter is busy
            or not (spotter.unit.observer or spotter.unit.commander)
            or not spotter.alive
            or spotter.moved
            or spotter.status == SUPPRESSED
        ):
            continue
        choice = choose_target(state, spotter, unlimited, gun.force.side)
        if choice is None:
            continue
        target, obscured = choice
        worth = shot_value(state, gun.force.side, unlimited, target, obscured)
        if best is None or worth > best[0]:
            best = (worth, spotter, target, obscured)
    return None if best is None else best[1:]


class EnemyBox:
    """The box around every enemy stand on the table, dead or alive, at one moment: a
    cheap early out for ``choose_target`` while no stand moves (a fire phase)."""

    __slots__ = ("low_x", "low_y", "high_x", "high_y")
    low_x: float
    low_y: float
    high_x: float
    high_y: float

    def __init__(self, force: Force) -> None:
        stands = force.enemy.stands
        xs, ys = [s.x for s in stands], [s.y for s in stands]
        self.low_x, self.high_x = (min(xs), max(xs)) if xs else (inf, -inf)
        self.low_y, self.high_y = (min(ys), max(ys)) if ys else (inf, -inf)

    def beyond(self, viewer: Stand, weapon: UnitType) -> bool:
        """Is every enemy stand out of ``weapon``'s range from ``viewer``, for certain?"""
        if weapon.range_in is None:
            return self.low_x > self.high_x  # no range limit: only an empty table is beyond
        return self.farther_than(viewer.x, viewer.y, weapon.range_in)

    def farther_than(self, x: float, y: float, inches: float) -> bool:
        """Is every enemy stand more than ``inches`` from (x, y), for certain?"""
        dx = self.low_x - x if x < self.low_x else (x - self.high_x if x > self.high_x else 0)
        dy = self.low_y - y if y < self.low_y else (y - self.high_y if y > self.high_y else 0)
        # Farther is hypot(dx, dy) > inches; a margin keeps rounding on the safe side.
        return dx * dx + dy * dy > (inches + 1e-6) ** 2


def _crowd(target: Stand) -> int:
    """The target's friends within a 4-hit blast of it."""
    tx, ty = target.x, target.y
    count = 0
    for s in target.force.stands:
        if s.alive and s is not target and hypot(s.x - tx, s.y - ty) <= SUPPORT_RADIUS_IN:
            count += 1
    return count


# --- deployment -------------------------------------------------------------------------


def cover_value(state: BattleState, x: int, y: int) -> float:
    """How much a spot protects: the edge of woods (seen but obscured, and able to see out)
    is best; deep woods hide but blind; a ridge or hill square gives a little."""
    key = (x, y)
    value = state.cover_cache.get(key)
    if value is None:
        value = state.cover_cache[key] = _cover_here(state, x, y)
    return value


def _cover_here(state: BattleState, x: int, y: int) -> float:
    """``cover_value`` worked out: by the wood depth, 0 < depth <= 3 is 2.5, deeper 2.0;
    else (open ground, or the very edge of a wood at depth 0) 1.0 if in cover at all."""
    field = state.field
    square = field.square_at(x, y)
    # Per square, once a battle: an open square's worth, or a wooded one's open neighbours.
    near = state.open_around.get((square.col, square.row))
    if near is None:
        near = state.open_around[square.col, square.row] = _open_around(field, square)
    if isinstance(near, float):
        return near
    if type(x) is not int or type(y) is not int:
        depth = field.wood_depth(x, y)
        return 2.5 if 0 < depth <= 3 else 2.0 if depth > 3 else 1.0
    # Only the depth's side of 0 and 3" matters, and every square but the eight around
    # this one is at least 12" away: the nearest open one of those eight decides it.
    squared = _nearest_squared(near, x, y, 145)  # 145: more than 3" deep
    if squared == 0:
        return 1.0  # on the very edge of its woods: cover, as cover_at says
    return 2.5 if squared <= 9 else 2.0


def _nearest_squared(
    boxes: tuple[tuple[int, int, int, int], ...], x: int, y: int, squared: int
) -> int:
    """The least squared distance from (x, y) to any of ``boxes`` (xmin, ymin, xmax,
    ymax), if under ``squared``; else ``squared``."""
    for xmin, ymin, xmax, ymax in boxes:
        dx = xmin - x if x < xmin else (x - xmax if x > xmax else 0)
        dy = ymin - y if y < ymin else (y - ymax if y > ymax else 0)
        if dx * dx + dy * dy < squared:
            squared = dx * dx + dy * dy
    return squared


def _open_around(
    field: Battlefield, square: Square
) -> float | tuple[tuple[int, int, int, int], ...]:
    """An open square's worth as cover (a ridge or hill 1.0, else 0.0); for a wooded one,
    the bounds of the squares around it (diagonals too) that are not wooded."""
    if not square.wooded:
        return 1.0 if square.blocks_sight else 0.0
    return tuple(
        other.bounds
        for row in field.squares[max(square.row - 1, 0) : square.row + 2]
        for other in row[max(square.col - 1, 0) : square.col + 2]
        if not other.wooded
    )


def _formation(count: int, cx: int, cy: int, width: int, depth: int) -> list[tuple[int, int]]:
    """Slots on a 3" grid around a commander, nearest first, kept on the table."""
    slots = []
    for dy in range(-9, 10, SPACING_IN):
        for dx in range(-12, 13, SPACING_IN):
            if (dx, dy) == (0, 0):
                continue
            x, y = cx + dx, cy + dy
            if 0 <= x <= width and 0 <= y <= depth:
                slots.append((hypot(dx, dy), abs(dy), dy, dx, x, y))
    slots.sort()
    return [(x, y) for *_, x, y in slots[:count]]


def deploy_attacker(state: BattleState, force: Force) -> None:
    """The attacker enters in a block around its commander, 3" in from its table edge."""
    width, depth = state.field.width_in, state.field.depth_in
    cx, cy = width // 2, depth - 4
    others = [s for s in force.stands if s is not force.commander]
    slots = _formation(len(others), cx, cy, width, depth)
    # Fighting stands take the forward slots, weapons and the FO the rear ones.
    others.sort(key=lambda s: (s.unit.crew_served or s.unit.observer, s.id))
    slots.sort(key=lambda p: (p[1], abs(p[0] - cx), p[0]))
    for stand, (x, y) in zip(others, slots, strict=False):
        stand.x, stand.y = x, y
    if force.commander is not None:
        force.commander.x, force.commander.y = cx, cy


# The whole-inch offsets closer than SPACING_IN (3"): within 2" each way, (2, 2) included.
_TOO_NEAR = tuple(
    (dx, dy)
    for dx in range(-SPACING_IN, SPACING_IN + 1)
    for dy in range(-SPACING_IN, SPACING_IN + 1)
    if hypot(dx, dy) < SPACING_IN
)


def _sniper_woods(state: BattleState) -> list[tuple[float, int, int]]:
    """Places in woods in the defender's half of the table, for a sniper whose own third
    has none: the best cover first (the edge of the woods, seeing out), then the nearest
    its own edge. Ruling: "snipers must deploy in cover"; it may slip forward to woods as
    far as the middle of the table, not into the half the attacker enters."""
    width, depth = state.field.width_in, state.field.depth_in
    spots = []
    for y in range(1, depth // 2 + 1, 2):
        for x in range(1, width, 2):
            if state.field.square_at(x, y).wooded:
                spots.append((-cover_value(state, x, y), y, x))
    return sorted(spots)


def _sniper_stays_a_squad(state: BattleState, sniper: Stand) -> None:
    """With no woods it may reach, the swap is not made: the stand fights as the rifle
    squad it was to replace (its id and type become the squad's), and the log says so."""
    sniper.unit = UNIT_TYPES["rifle_squad"]
    sniper.id = sniper.id.replace(".sniper.", ".rifle_squad.")
    state.record(
        "sniper",
        side=sniper.force.side,
        stand=sniper.id,
        dice=[],
        outcome="no woods within reach to hide in: the swap is not made, it fights as a squad",
    )


def deploy_defender(state: BattleState, force: Force) -> None:
    """The defender sets up in cover in its third of the table, 3" apart."""
    candidates = _defender_spots(state)
    place = _Placer(state.field.width_in)
    sniper = _place_sniper(state, force, candidates, place)
    leaders = [s for s in force.stands if s.unit.commander or s.unit.observer]
    for stand in force.stands:
        if stand is not sniper and stand not in leaders:
            place(stand, candidates)
    placed = [s for s in force.stands if s is not sniper and s not in leaders]
    if placed:
        mx = sum(s.x for s in placed) / len(placed)
        my = sum(s.y for s in placed) / len(placed)
        near_centre = sorted(candidates, key=lambda c: (round(hypot(c[2] - mx, c[1] - my)), c))
        for stand in leaders:
            place(stand, near_centre)
    else:
        for stand in leaders:
            place(stand, candidates)


def _defender_spots(state: BattleState) -> list[tuple[float, int, int]]:
    """(-worth, y, x) of every 2" spot of the defender's third, best first: cover first,
    then the front of the zone (fields of fire), then the centre."""
    width, depth = state.field.width_in, state.field.depth_in
    zone = max(depth // 3, 2)
    candidates = []
    for y in range(1, zone + 1, 2):
        for x in range(1, width, 2):
            score = cover_value(state, x, y) + 0.6 * y / zone - 0.02 * abs(x - width / 2)
            candidates.append((-score, y, x))
    candidates.sort()
    return candidates


class _Placer:
    """Places each stand on the first spot of a pool not crowded by one placed before
    (closer than SPACING_IN); on a crowded table, at the rear."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.crowded: set[tuple[int, int]] = set()

    def __call__(self, stand: Stand, pool: list[tuple[float, int, int]]) -> None:
        for _, y, x in pool:
            if (x, y) not in self.crowded:
                stand.x, stand.y = x, y
                self.crowded.update([(x + dx, y + dy) for dx, dy in _TOO_NEAR])
                return
        stand.x, stand.y = self.width // 2, 1  # a crowded table: stack at the rear


def _place_sniper(
    state: BattleState, force: Force, candidates: list[tuple[float, int, int]], place: _Placer
) -> Stand | None:
    """The sniper, hidden in woods (revealed when it first fires); with no woods it stays
    a squad (None)."""
    sniper = next((s for s in force.stands if s.unit.sniper), None)
    if sniper is None:
        return None
    woods = [c for c in candidates if state.field.square_at(c[2], c[1]).wooded]
    if not woods:
        woods = _sniper_woods(state)
    if not woods:
        _sniper_stays_a_squad(state, sniper)
        return None
    place(sniper, woods)
    sniper.hidden = True
    return sniper


# --- movement ---------------------------------------------------------------------------


def _centroid(stands: list[Stand]) -> tuple[float, float] | None:
    if not stands:
        return None
    return sum(s.x for s in stands) / len(stands), sum(s.y for s in stands) / len(stands)


def _known_enemies(force: Force) -> list[Stand]:
    return [s for s in force.enemy.stands if s.alive and not s.hidden]


def assault_odds(
    state: BattleState, attackers: list[Stand], target: Stand, joining: int = 0
) -> float:
    """The chance that ``attackers`` beat ``target`` in an assault, as far as can be
    foreseen; ``joining`` other enemy stands will be in contact too (+1 each to them)."""
    if target.unit.fragile_in_contact and not supported(target) and not joining:
        return 1.0
    lead = attackers[0]
    ours = QUALITY_ASSAULT[lead.force.quality] + len(attackers) - 1 + lead.unit.assault_modifier
    theirs = QUALITY_ASSAULT[target.force.quality] + target.unit.assault_modifier + joining
    theirs -= {OK: 0, PINNED: 1, SUPPRESSED: 2}[target.status]
    if target.force.commander_near(target):
        theirs += 1
    return float(opposed_d6_win(ours - theirs))


def _contact_point(state: BattleState, stand: Stand, target: Stand) -> tuple[int, int] | None:
    """A whole-inch point in base contact with ``target`` that ``stand`` can reach."""
    dx, dy = stand.x - target.x, stand.y - target.y
    length = hypot(dx, dy) or 1.0
    gx, gy = round(target.x + dx / length), round(target.y + dy / length)
    end = reachable_point(state, stand, gx, gy)
    if hypot(end[0] - target.x, end[1] - target.y) <= CONTACT_IN and end != (target.x, target.y):
        return end
    return None


def _apart(ours: list[Stand], theirs: list[Stand], gap: float) -> bool:
    """Are the two groups' bounding boxes more than ``gap`` apart? (A cheap early out.)"""
    if not ours or not theirs:
        return True
    our_x, our_y = [o.x for o in ours], [o.y for o in ours]
    their_x, their_y = [t.x for t in theirs], [t.y for t in theirs]
    dx = max(min(their_x) - max(our_x), min(our_x) - max(their_x), 0)
    dy = max(min(their_y) - max(our_y), min(our_y) - max(their_y), 0)
    return dx * dx + dy * dy > gap * gap


def time_against(state: BattleState, force: Force) -> bool:
    """Is the clock beating this attacker: it would lose at the turn limit (its fraction
    lost no smaller than the defender's), with fewer than PRESS_TURNS turns left?"""
    if force.key != ATTACKER:
        return False
    left: int = state.options["turn_limit"] - state.turn
    return left < PRESS_TURNS and force.fraction_lost() >= force.enemy.fraction_lost()


# One stand that can reach a target: (its distance, its id, the stand, its contact point).
_Reach = tuple[float, str, Stand, tuple[int, int]]


def plan_assaults(
    state: BattleState, force: Force, threshold: float, loss_weight: float = 1.0
) -> list[tuple[Stand, list[Stand]]]:
    """Pick assaults worth making: (target, stands to send), best expected gain first.

    The gain of sending ``count`` stands is the chance of winning times what the target
    is worth, less the chance of losing times the stands lost (``loss_weight`` each).
    """
    ready = [
        s
        for s in force.stands
        if can_move(s) and not s.unit.crew_served and not s.unit.fragile_in_contact
    ]
    if not ready:
        return []
    # How far each may go and still reach contact, looked up once a stand.
    reaches = [_LONGEST_MOVE[s.unit.move_class] + CONTACT_IN for s in ready]
    if _apart(ready, _known_enemies(force), max(reaches)):
        return []
    ready_reach = [(s, inches**2) for s, inches in zip(ready, reaches, strict=True)]
    enemies = [s for s in force.enemy.stands if s.alive]
    options = []
    for target in _known_enemies(force):
        reach = _reaching(state, ready_reach, target)
        best = _best_group(state, reach, target, enemies, threshold, loss_weight)
        if best is not None:
            options.append((-best[0], target.id, target, reach[: best[1]]))
    options.sort(key=lambda o: (o[0], o[1]))
    return _assign(state, options, enemies, threshold, loss_weight)


def _best_group(
    state: BattleState,
    reach: list[_Reach],
    target: Stand,
    enemies: list[Stand],
    threshold: float,
    loss_weight: float,
) -> tuple[float, int] | None:
    """(the gain, how many to send) of the best assault on ``target`` by one to three of
    the nearest stands that reach it; None: none is worth making."""
    best = None
    for count in range(1, (3 if len(reach) > 3 else len(reach)) + 1):  # up to three
        points = [r[3] for r in reach[:count]]
        group = [r[2] for r in reach[:count]]
        chance, gain = _assault_prospect(state, group, points, target, enemies, loss_weight)
        if chance >= threshold and gain > 0 and (best is None or gain > best[0]):
            best = (gain, count)
    return best


def _reaching(
    state: BattleState, ready_reach: list[tuple[Stand, float]], target: Stand
) -> list[_Reach]:
    """The ready stands that can reach contact with ``target`` this move, nearest first."""
    tx, ty = target.x, target.y
    reach = []
    for s, limit_sq in ready_reach:
        if (s.x - tx) ** 2 + (s.y - ty) ** 2 <= limit_sq:
            point = _contact_point(state, s, target)
            if point is not None:
                reach.append((s.distance(target), s.id, s, point))
    reach.sort(key=lambda r: (r[0], r[1]))
    return reach


def _assign(
    state: BattleState,
    options: list[tuple[float, str, Stand, list[_Reach]]],
    enemies: list[Stand],
    threshold: float,
    loss_weight: float,
) -> list[tuple[Stand, list[Stand]]]:
    """The assaults, best first, each stand sent to one only."""
    used: set[str] = set()
    plans = []
    for _, _, target, chosen in options:
        left = [r for r in chosen if r[2].id not in used]
        if len(left) < len(chosen) and left:
            # Some went to a better assault: the rest go only if still worth it alone.
            chance, gain = _assault_prospect(
                state, [r[2] for r in left], [r[3] for r in left], target, enemies, loss_weight
            )
            if chance < threshold or gain <= 0:
                continue
        if left:
            used.update(r[2].id for r in left)
            plans.append((target, [r[2] for r in left]))
    return plans


def _assault_prospect(
    state: BattleState,
    group: list[Stand],
    points: list[tuple[int, int]],
    target: Stand,
    enemies: list[Stand],
    loss_weight: float,
) -> tuple[float, float]:
    """(chance of winning, expected gain) of ``group`` assaulting ``target`` from
    ``points``: other enemy stands in contact with a point join in; the gain is the chance
    times the worth of every enemy stand in the fight, less the chance of losing times the
    stands sent (``loss_weight`` each)."""
    joining = [
        e
        for e in enemies
        if e is not target and any(hypot(e.x - px, e.y - py) <= CONTACT_IN for px, py in points)
    ]
    chance = assault_odds(state, group, target, len(joining))
    worth = value_of(target) + sum(value_of(e) for e in joining)
    return chance, chance * worth - (1 - chance) * len(group) * loss_weight


_LONGEST_MOVE = {
    move_class: max((inches for inches in row if inches), default=0)
    for move_class, row in MOVEMENT.items()
}


def _longest_move(stand: Stand) -> int:
    return _LONGEST_MOVE[stand.unit.move_class]


# A move may go straight at the goal or swing 40 degrees either way to find cover.
_TURNS = [(cos(radians(a)), sin(radians(a))) for a in (0, 40, -40)]


# Squared distances between whole-inch points: "< 6.25" is "within 2.5 inches".
_TOO_CLOSE_IN = CONTACT_IN + 1
_TOO_CLOSE_SQ = _TOO_CLOSE_IN**2
_CROWDED_IN = 2
_CROWDED_SQ = _CROWDED_IN**2


def _too_close(force: Force, x: int, y: int) -> bool:
    """Ordinary moves stop short of base contact: contact is an assault, chosen on purpose."""
    for s in force.enemy.stands:
        if s.alive and (s.x - x) ** 2 + (s.y - y) ** 2 <= _TOO_CLOSE_SQ:
            return True
    return False


def _crowded(force: Force, mover: Stand, x: int, y: int) -> bool:
    """Stands keep 2" apart, out of each other's blast."""
    for s in force.stands:
        if s is not mover and s.alive and (s.x - x) ** 2 + (s.y - y) ** 2 < _CROWDED_SQ:
            return True
    return False


def _may_move(state: BattleState, stand: Stand) -> bool:
    """Far from its commander a stand must pass the initiative roll to move: rolled once
    a move, and the answer kept for the rest of it (pass or fail)."""
    if stand.stood_fast:
        return False
    if stand.cleared or not needs_command_roll(stand):
        return True
    if command_roll(state, stand):
        stand.cleared = True
        return True
    stand.stood_fast = True  # a failed roll holds it for the whole move, not one try
    return False


def _try_move(state: BattleState, stand: Stand, x: int, y: int, purpose: str) -> bool:
    """Move if the stand may (``_may_move``)."""
    if (x, y) == (stand.x, stand.y) or not _may_move(state, stand):
        return False
    return move(state, stand, x, y, purpose=purpose)


def _has_target(state: BattleState, stand: Stand) -> bool:
    return choose_target(state, stand, stand.unit, stand.force.side) is not None


def _move_weapon(state: BattleState, stand: Stand, gx: float, gy: float) -> None:
    """Heavy and man-packed weapons stay put while they have a target; limbered ones move."""
    if _has_target(state, stand) and not stand.limbered:
        return
    if stand.unit.limbers and not stand.limbered:
        limber(state, stand, limbered=True)
        return
    end = reachable_point(state, stand, gx, gy)
    if stand.unit.limbers and (end == (stand.x, stand.y) or _has_target(state, stand)):
        limber(state, stand, limbered=False)
        return
    if not _too_close(stand.force, *end):
        _try_move(state, stand, *end, purpose="advance")


def _best_step(
    state: BattleState,
    stand: Stand,
    gx: float,
    gy: float,
    step: tuple[float, float],
    commander_at: tuple[float, float] | None,
    progress_weight: float,
) -> tuple[int, int]:
    """The candidate end of a move with the best mix of progress, cover and command."""
    x0, y0 = stand.x, stand.y
    here = (x0, y0)
    candidates = _step_ends(state, stand, step)
    if len(candidates) == 1:
        return here  # nowhere to go: staying is the only choice
    cover = state.cover_cache
    follow = commander_at is not None and not stand.unit.commander
    if follow:
        assert commander_at is not None  # follow says so
        cx, cy = commander_at
    start_distance = hypot(x0 - gx, y0 - gy)
    points = list(candidates)
    scores = []
    for point in points:
        x, y = point
        score = progress_weight * (start_distance - hypot(x - gx, y - gy))
        value = cover.get(point)
        if value is None:  # cover_value's work, its cache asked already
            value = cover[point] = _cover_here(state, x, y)
        score += value
        if follow and hypot(x - cx, y - cy) > COMMAND_RADIUS_IN:
            score -= 1.5
        scores.append(score)
    # The first of the best scores whose end is free of other stands (here always is):
    # only the best are looked at for stands in the way.
    while True:
        best_score = max(scores)
        index = scores.index(best_score)
        if index == 0 or not _in_the_way(stand, *points[index]):
            return points[index]
        scores[index] = -inf


def _in_the_way(stand: Stand, x: int, y: int) -> bool:
    """Would a stand be in the way of ``stand`` ending its move at (x, y): an enemy too
    close (contact is an assault, chosen on purpose), a friend too crowded?"""
    # Only a stand nearer than the limit across (dx) can be nearer than it: the cheap
    # test first (dx * dx alone is already no less than the limit squared otherwise).
    for o in stand.force.enemy.stands:
        if -_TOO_CLOSE_IN < o.x - x < _TOO_CLOSE_IN and o.alive:
            dx, dy = o.x - x, o.y - y
            if dx * dx + dy * dy < _TOO_CLOSE_SQ:
                return True
    for o in stand.force.stands:
        if -_CROWDED_IN < o.x - x < _CROWDED_IN and o.alive and o is not stand:
            dx, dy = o.x - x, o.y - y
            if dx * dx + dy * dy < _CROWDED_SQ:
                return True
    return False


def _step_ends(
    state: BattleState, stand: Stand, step: tuple[float, float]
) -> dict[tuple[int, int], None]:
    """Where a step may end: here (first: ties go to staying), then the reachable end of
    ``step`` turned each way of ``_TURNS`` and the point half way to it."""
    x0, y0 = stand.x, stand.y
    candidates: dict[tuple[int, int], None] = {(x0, y0): None}  # a dict keeps the order
    sx, sy = step
    for c, s in _TURNS:
        dx, dy = sx * c - sy * s, sx * s + sy * c
        far = reachable_point(state, stand, x0 + dx, y0 + dy)
        candidates[far] = None
        fx, fy = far[0] - x0, far[1] - y0
        if fx % 2 == 0 and fy % 2 == 0:
            # Half way is a whole-inch point on the path to ``far``: its path is part of
            # that one (no worse going, half as long), so it is reached as it is.
            candidates[(x0 + fx // 2, y0 + fy // 2)] = None
            continue
        # Half way rounds: a rounding may touch other squares, so it is checked as any move.
        candidates[reachable_point(state, stand, (x0 + far[0]) / 2, (y0 + far[1]) / 2)] = None
    return candidates


def _closing_goal(
    state: BattleState, stand: Stand, enemies: list[Stand], pressed: bool
) -> Stand | None:
    """The enemy a squad near the enemy closes on, or None to hold its place and fire.

    A squad in cover that has a target fires from there until the odds of an assault
    favour closing (the enemy near it is pinned or suppressed, or the odds are good
    anyway), or time does (turn CLOSE_FROM_TURN on, or the clock is against the side).
    Otherwise it goes for the nearest enemy, shaken ones first.
    """
    x, y = stand.x, stand.y
    near = [e for e in enemies if hypot(e.x - x, e.y - y) <= 12]
    if not near:
        return None
    goal = min(near, key=lambda e: (hypot(e.x - x, e.y - y) - 2 * e.status, e.id))
    if pressed or state.turn >= CLOSE_FROM_TURN:
        return goal
    in_cover = cover_value(state, x, y) > 0
    if in_cover and _has_target(state, stand):
        odds = assault_odds(state, [stand], goal)
        if goal.status == OK and odds < ATTACKER_ASSAULT_ODDS:
            return None  # fire from cover for now
    return goal


def _close_in(state: BattleState, stand: Stand, target: Stand, cmd: tuple[int, int] | None) -> None:
    """Move toward ``target`` to stop JUMP_OFF_IN from it, preferring cover on the way."""
    x, y = stand.x, stand.y
    dx, dy = target.x - x, target.y - y
    length = hypot(dx, dy) or 1.0
    if length <= JUMP_OFF_IN + 0.5:
        return  # close enough: it assaults from here when the odds allow
    reach = min(_longest_move(stand), length - JUMP_OFF_IN)
    step = (dx / length * reach, dy / length * reach)
    end = _best_step(state, stand, target.x, target.y, step, cmd, progress_weight=1.0)
    _try_move(state, stand, *end, purpose="advance")


@dataclass(slots=True)
class _Front:
    """The attacker's move as its stands take it in turn: where it goes and who it meets."""

    force: Force
    own: list[Stand]  # the stands that move (none of them assaulting)
    goal: tuple[float, float]
    step: tuple[float, float]  # 6" toward the goal
    will_be: dict[int, tuple[int, int]]  # each company's commander, once it has followed
    enemies: list[Stand]
    enemy_box: EnemyBox
    pressed: bool


def advance(state: BattleState, force: Force) -> list[tuple[Stand, list[Stand]]]:
    """The attacker's move: assaults worth making, then cover-to-cover toward the enemy;
    near the enemy its squads close to assault range (see ``_closing_goal``)."""
    pressed = time_against(state, force)
    odds, weight = (
        (PRESSED_ASSAULT_ODDS, PRESSED_LOSS_WEIGHT) if pressed else (ATTACKER_ASSAULT_ODDS, 1.0)
    )
    plans = plan_assaults(state, force, odds, weight)
    assaulting = _charge(state, plans, odds, weight)
    enemies = _known_enemies(force)
    enemy_box = EnemyBox(force)  # around ``enemies`` too: no enemy moves in this move
    own = [s for s in force.alive() if s.id not in assaulting]
    goal = _centroid(enemies) or (state.field.width_in / 2, state.field.depth_in / 6)
    centre = _centroid(own) or goal
    dx, dy = goal[0] - centre[0], goal[1] - centre[1]
    length = hypot(dx, dy) or 1.0
    step = (dx / length * 6, dy / length * 6)
    will_be = _commanders_will_be(state, force, step)
    front = _Front(force, own, goal, step, will_be, enemies, enemy_box, pressed)
    # The front moves first so those behind are not blocked by stands still to move.
    own.sort(key=lambda s: (s.unit.commander, hypot(s.x - goal[0], s.y - goal[1]), s.id))
    for stand in own:
        if not can_move(stand) or stand.hidden:
            continue  # a hidden sniper keeps its place until it fires
        if stand.unit.fires_only_unmoved:
            _move_weapon(state, stand, stand.x + step[0] * 2, stand.y + step[1] * 2)
        elif stand.unit.observer and _has_support_target(state, stand):
            continue  # an FO that moves cannot call a fire mission
        elif stand.unit.commander:
            _keep_command(state, front, stand)
        else:
            _squad_advances(state, front, stand)
    return plans


def _commanders_will_be(
    state: BattleState, force: Force, step: tuple[float, float]
) -> dict[int, tuple[int, int]]:
    """Squads keep within 6" of where their own company's commander will be once it has
    followed them (rulings section 4: each stand answers to its own commander)."""
    will_be: dict[int, tuple[int, int]] = {}
    for company, commander in force.commanders.items():
        if commander is not None and commander.alive and commander in force.stands:
            will_be[company] = reachable_point(
                state, commander, commander.x + step[0], commander.y + step[1]
            )
    return will_be


def _keep_command(state: BattleState, front: _Front, stand: Stand) -> None:
    """A commander follows its own company's squads (else the others, else the goal)."""
    own = front.own
    squads = [s for s in own if s is not stand and s.company == stand.company]
    target = _centroid(squads or [s for s in own if s is not stand]) or front.goal
    end = reachable_point(state, stand, *target)
    if not _too_close(front.force, *end) and not _crowded(front.force, stand, *end):
        _try_move(state, stand, *end, purpose="keeps command")


def _squad_advances(state: BattleState, front: _Front, stand: Stand) -> None:
    """Near the enemy a squad closes to assault range, or holds its cover and fires;
    farther off it steps toward the goal, from cover to cover."""
    cmd = front.will_be.get(stand.company)
    x, y = stand.x, stand.y
    if not front.enemy_box.farther_than(x, y, 12):
        target = _closing_goal(state, stand, front.enemies, front.pressed)
        if target is not None:
            _close_in(state, stand, target, cmd)
            return
        if any(hypot(e.x - x, e.y - y) <= 12 for e in front.enemies):
            return
    gx, gy = front.goal
    end = _best_step(state, stand, gx, gy, front.step, cmd, progress_weight=0.5)
    _try_move(state, stand, *end, purpose="advance")


def hold(state: BattleState, force: Force) -> list[tuple[Stand, list[Stand]]]:
    """The defender's move: counter-attack on good odds, else get out of the open."""
    plans = plan_assaults(state, force, DEFENDER_ASSAULT_ODDS)
    assaulting = _charge(state, plans, DEFENDER_ASSAULT_ODDS)
    enemies = _known_enemies(force)
    for stand in force.alive():
        if stand.id in assaulting or not can_move(stand) or stand.hidden:
            continue
        if stand.unit.fires_only_unmoved or stand.unit.observer:
            continue
        if cover_value(state, stand.x, stand.y) > 0:
            continue
        for e in enemies:
            if state.sees(e, stand)[0]:
                break
        else:
            continue  # not seen: no need to move
        end = _best_step(state, stand, stand.x, stand.y, (0, -4), None, progress_weight=0.0)
        if cover_value(state, *end) > 0:
            _try_move(state, stand, *end, purpose="into cover")
    return plans


def _charge(
    state: BattleState,
    plans: list[tuple[Stand, list[Stand]]],
    threshold: float,
    loss_weight: float = 1.0,
) -> set[str]:
    """Move the assaulting stands into contact; a stand that fails to get there drops out.

    The group's command rolls come first: when a stand fails its roll, the assault goes
    ahead with the rest only if their odds still pass ``threshold`` with a gain, so no
    stand is left to assault alone at odds the plan would not have taken.
    """
    moved: set[str] = set()
    enemies = [s for plan in plans[:1] for s in plan[0].force.stands if s.alive]
    for target, group in plans:
        ready = [s for s in group if _may_move(state, s)]
        if len(ready) < len(group):
            goes = _still_worth(state, ready, target, enemies, threshold, loss_weight)
            group[:] = ready if goes else []
        for stand in list(group):
            point = _contact_point(state, stand, target)
            if point is None or not _try_move(state, stand, *point, purpose=f"assault {target.id}"):
                group.remove(stand)
            else:
                moved.add(stand.id)
    return moved


def _still_worth(
    state: BattleState,
    ready: list[Stand],
    target: Stand,
    enemies: list[Stand],
    threshold: float,
    loss_weight: float,
) -> bool:
    """Does the assault go ahead with the stands that passed their command rolls?"""
    points = [_contact_point(state, s, target) for s in ready]
    if not ready or None in points:
        return False
    chance, gain = _assault_prospect(
        state, ready, [p for p in points if p is not None], target, enemies, loss_weight
    )
    return chance >= threshold and gain > 0


def _has_support_target(state: BattleState, observer: Stand) -> bool:
    mission = available_mission(state, observer.force)
    return (
        mission is not None
        and choose_target(state, observer, mission.weapon, observer.force.side) is not None
    )


def fit_to_fight(force: Force) -> int:
    """A force's fighting strength: its stands on the table alive and not suppressed."""
    return sum(1 for s in force.stands if s.alive and s.status != SUPPRESSED)


def hopeless(state: BattleState, force: Force) -> bool:
    """Pull out when the enemy's fighting strength is three times this side's."""
    ours, theirs = fit_to_fight(force), fit_to_fight(force.enemy)
    return ours == 0 or ours * HOPELESS_RATIO < theirs


def beaten_by_the_clock(state: BattleState, force: Force) -> bool:
    """An attacker that would lose at the turn limit (``time_against``) and has no stand
    able to start an assault within reach of an enemy in the moves left (this one
    included, at the allowance of the going it stands in) cannot win: it withdraws, as a
    player would, rather than wait for the clock. Either way the battle is lost."""
    if not time_against(state, force):
        return False
    left = state.options["turn_limit"] - state.turn + 1
    enemies = [e for e in force.enemy.stands if e.alive]
    for stand in force.stands:
        if not stand.alive or stand.unit.crew_served or stand.unit.fragile_in_contact:
            continue
        square = state.field.square_at(stand.x, stand.y)
        allowance = MOVEMENT[stand.unit.move_class][state._going_grid[square.row][square.col]]
        if not allowance:
            continue
        reach = left * allowance + CONTACT_IN
        if any(stand.distance(e) <= reach for e in enemies):
            return False
    return True


def plan_move(state: BattleState, force: Force) -> list[tuple[Stand, list[Stand]]]:
    if force.key == ATTACKER:
        return advance(state, force)
    return hold(state, force)
