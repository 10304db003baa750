"""The Force on Force AI: the attacker advances from cover to cover and fires, the
defender holds its cover, reacts to what it sees and watches over the ground.

The AI rolls no dice of its own: it only chooses, so a seed still replays the battle.
"""

from __future__ import annotations

from math import cos, hypot, radians, sin

from rules.battlefield import SQUARE_IN
from rules.forceonforce import fire as f
from rules.forceonforce import tables as t
from rules.forceonforce.combat import (
    SUPPRESSING,
    Spot,
    optimum_reach,
    shot_for,
    spots_away_nearest,
)
from rules.forceonforce.state import ATTACKER, BattleState, Force, Unit

SPACING_IN = 3
HOPELESS_RATIO = 3  # as the Korona AI: pull out against three times this side's strength
HARMLESS = 0.5  # expected hits below which a unit cannot hurt the unit it would react to
HEAVY_FIRE = 1.5  # expected hits of incoming fire that make a unit in the open run for it
_DIRECTIONS = [(cos(radians(a)), sin(radians(a))) for a in (0, 35, -35, 70, -70)]
_STEPS = [12 * frac for frac in (1.0, 0.66, 0.33)]  # a whole, two thirds and a third of 12"
_ROUNDED_OFF = 0.75  # over what a step loses to its end rounded to whole inches (0.707")
FRIEND_GAP_IN = 2  # a step never ends nearer than this to a friend


def _within(reach: float) -> tuple[tuple[int, int], ...]:
    """The whole-inch offsets nearer than ``reach`` to a spot: ``_near`` as a set lookup
    (positions are whole inches)."""
    span = range(-int(reach), int(reach) + 1)
    return tuple((dx, dy) for dx in span for dy in span if hypot(dx, dy) < reach)


_WITHIN_SPACING = _within(SPACING_IN)


def _p(die: int) -> float:
    return (die - t.SUCCESS + 1) / die


_P: dict[int, float] = {die: _p(die) for die in t.DIE_LADDER}  # _p of each die, read by worth


# firepower_dice's answers by shot: a pure function of a small domain, and the AI weighs
# the same few shots over and over (issue 17).
_SHOT_DICE: dict[f.Shot, int] = {}


def worth(state: BattleState, shooter: Unit, target: Unit) -> float:
    """Rough expected hits of a shot: dice x chance of a 4+, less what the defence saves."""
    die = shooter.current_tq
    if die is None:
        return 0.0
    return _worth_of(state, _P[die], target, _shot_dice(state, shooter, target))


def _shot_dice(state: BattleState, shooter: Unit, target: Unit) -> int:
    """``firepower_dice`` of the shooter's plain shot at ``target``, from the table."""
    shot = shot_for(state, shooter, target)
    dice = _SHOT_DICE.get(shot)
    if dice is None:
        dice = _SHOT_DICE[shot] = f.firepower_dice(shot)
    return dice


def _worth_of(state: BattleState, hit: float, target: Unit, dice: int) -> float:
    """``worth`` of a shot of ``dice`` dice by a shooter who hits on a die with ``hit``'s
    chance (its Troop Quality die's ``_P``)."""
    if dice == 0:
        return 0.0
    cover = 0
    if target.in_cover:
        cover += 1
    if state.solid_cover(target):
        cover += 1
    # min and max spelt out: each call of either costs as much as the rest (issue 17).
    healthy = target.healthy
    dfn = (healthy if healthy <= dice else dice) + cover
    value = dice * hit - 0.6 * dfn * _P[target.current_tq or 6]
    # Finish weakened units; pinned ones first; support weapons are worth more.
    value += 0.3 * (t.FIGURES_PER_STAND - target.healthy) + (0.3 if target.pinned else 0)
    value += 0.4 if target.profile.support in ("medium", "heavy") else 0
    return value if value >= 0.05 else 0.05


def visible_enemies(state: BattleState, unit: Unit) -> list[Unit]:
    return state.seen_of(unit, unit.force.enemy.units)


def hidden_enemies(state: BattleState, unit: Unit) -> list[Unit]:
    reach = f.optimum_range(unit.tq)
    return [
        e
        for e in unit.force.enemy.units
        if e.hidden and e.fighting and unit.id not in e.spotted_by
        and unit.distance(e) <= reach and state.sees(unit, e)
    ]  # fmt: skip


def best_target(state: BattleState, unit: Unit) -> Unit | None:
    """The visible enemy (``visible_enemies``) worth most to ``unit`` (``worth``), the first
    of them on a tie; None if it cannot fire or no enemy is worth more than nothing."""
    die = unit.current_tq
    # unit.can_fire, spelt out but for its current_tq, which is the die (issue 17).
    if die is None or unit.lost or unit.healthy <= 0 or unit.merged_into is not None:
        return None
    return _best_seen(state, unit, _P[die]) if unit.profile.fires else None


def _best_seen(state: BattleState, unit: Unit, hit: float) -> Unit | None:
    """``best_target`` of a unit that hits with ``hit``'s chance (its die's ``_P``)."""
    # One shooter's shots differ by the target only in what the key holds: their dice are
    # worked out once a key (issue 17), and the same as worth's. What the shooter brings
    # to each (its chance to hit, its reach: band's) is asked once.
    dice_by: dict[tuple[str, bool, bool, bool], int] = {}
    night = state.night
    dark = night and not unit.force.night_vision
    reach, always = optimum_reach(unit, night=night), unit.profile.always_optimum
    ux, uy, exposed, sees, me = unit.x, unit.y, state.exposed, state.sees, unit.id
    best, best_value = None, 0.0
    for enemy in unit.force.enemy.units:
        # visible_enemies' test in the same loop (issue 17): Unit.fighting spelt out,
        # known to the unit (not Hidden, or spotted by it), seen.
        if enemy.lost or enemy.healthy <= 0 or enemy.merged_into is not None:
            continue
        if (enemy.hidden and me not in enemy.spotted_by) or not sees(unit, enemy):
            continue
        within = hypot(ux - enemy.x, uy - enemy.y) <= reach
        key = (
            "optimum" if always or within else "beyond",  # band(unit, enemy, night)
            dark and not within,
            exposed(enemy.x, enemy.y) and not enemy.smoke,
            enemy.movement == "rapid",
        )
        dice = dice_by.get(key)
        if dice is None:
            dice = dice_by[key] = _shot_dice(state, unit, enemy)
        value = _worth_of(state, hit, enemy, dice)
        if value > best_value:
            best, best_value = enemy, value
    return best


# --- deployment -------------------------------------------------------------------------


def deploy_defender(state: BattleState, force: Force) -> None:
    """In cover in its third of the table, 3" apart; stealthy units (the sniper) and, with
    the option ``defender_hidden``, every unit in woods sets up Hidden."""
    field = state.field
    spots = _defender_spots(state)
    # The spots within 3" of a unit placed, as a set: the best spot free of them is the
    # first not in it. A spot passed over stays taken, so the next unit looks on from the
    # last one's (issue 17: the same spots as a search from the top).
    taken: set[tuple[int, int]] = set()
    free = 0
    for unit in force.units:
        while free < len(spots) and spots[free] in taken:
            free += 1
        unit.x, unit.y = spots[free] if free < len(spots) else (field.width_in // 2, 1)
        ux, uy = unit.x, unit.y
        taken |= {(ux + dx, uy + dy) for dx, dy in _WITHIN_SPACING}
        unit.in_cover = not state.exposed(unit.x, unit.y)
        in_woods = field.square_at(unit.x, unit.y).wooded
        if in_woods and (unit.profile.stealthy or state.options["defender_hidden"]):
            unit.hidden = True


def _defender_spots(state: BattleState) -> list[tuple[int, int]]:
    """The defender's spots on a 2" grid in its third of the table, best first: out of the
    open, on high ground, in woods, back from the front and near the middle."""
    field = state.field
    width, depth = field.width_in, field.depth_in
    zone = max(depth // 3, 2)
    xs = range(1, width, 2)
    # What each score adds up, asked once a square, a row, a column (issue 17); the sums are
    # made in the same order, so they are the same floats.
    off_centre = [0.02 * abs(x - width / 2) for x in xs]
    candidates = []
    for y in range(1, zone + 1, 2):
        # field.square_at's squares: whole inches on the table.
        ground = [
            (1 if s.blocks_sight else 0, 0.8 if s.wooded else 0)
            for s in field.squares[y // SQUARE_IN]
        ]
        back = 0.6 * y / zone
        for x, exposed, side in zip(xs, state.exposed_row(xs, y), off_centre, strict=True):
            high, woods = ground[x // SQUARE_IN]
            score: float = (0 if exposed else 2) + high
            score += woods
            score += back - side
            candidates.append((-score, y, x))
    candidates.sort()
    return [(x, y) for _, y, x in candidates]


def deploy_attacker(state: BattleState, force: Force) -> None:
    """In a line of 3"-spaced groups along its own table edge, 3" in."""
    field = state.field
    width, depth = field.width_in, field.depth_in
    per_row = max(1, (width - 2) // SPACING_IN)
    for i, unit in enumerate(force.units):
        row, col = divmod(i, per_row)
        count = min(per_row, len(force.units) - row * per_row)
        span = (count - 1) * SPACING_IN
        unit.x = int(width / 2 - span / 2 + col * SPACING_IN)
        unit.y = max(0, depth - 3 - row * SPACING_IN)
        unit.x = min(max(unit.x, 0), width - 1)


# --- choices ----------------------------------------------------------------------------


def goal(state: BattleState, unit: Unit) -> tuple[float, float]:
    """Where the nearest enemy fighting and not Hidden stands (the least (distance, id)),
    else the middle of the defender's edge."""
    ux, uy = unit.x, unit.y
    nearest: Unit | None = None
    least = 0.0
    # One loop, Unit.fighting spelt out, the id compared only on a tie (issue 17).
    for e in unit.force.enemy.units:
        if e.lost or e.healthy <= 0 or e.merged_into is not None or e.hidden:
            continue
        away = hypot(ux - e.x, uy - e.y)  # unit.distance(e)
        if nearest is None or away < least or (away == least and e.id < nearest.id):
            nearest, least = e, away
    if nearest is None:
        return state.field.width_in / 2, 1.0
    return nearest.x, nearest.y


def wants_to_advance(state: BattleState, unit: Unit) -> bool:
    if unit.force.key != ATTACKER or unit.profile.mover is None:
        return False
    if unit.pinned or unit.suppressed or unit.regrouping or unit.react_only:
        return False
    if not unit.profile.fires:
        return unit.distance(_friend_centre(unit)) > 6
    enemies = unit.force.enemy.units
    if unit.profile.support in ("medium", "heavy"):
        return not state.sees_any(unit, enemies)  # a weapon with a target stays and fires
    return not state.sees_any(unit, enemies, optimum_reach(unit))


def _friend_centre(unit: Unit) -> Unit:
    """The friend that fires with the least id off the unit's spot, else with the least id
    (the least of their (on the spot, id)); the unit itself with no friend that fires."""
    x, y = unit.x, unit.y
    best: Unit | None = None
    best_on_spot = True
    for u in unit.force.units:
        if not u.profile.fires or not u.fighting:
            continue
        on_spot = u.x == x and u.y == y  # abs(u.y - y) + abs(u.x - x) == 0, on whole inches
        if best is None or (on_spot, u.id) < (best_on_spot, best.id):
            best, best_on_spot = u, on_spot
    return unit if best is None else best


def plan_move(state: BattleState, unit: Unit) -> tuple[tuple[int, int], str] | None:
    """Where to move and at what speed: toward the nearest known enemy, from cover to
    cover; Rapid while no enemy sees the ground ahead (and no wounded slow the unit)."""
    gx, gy = goal(state, unit)
    dist = hypot(gx - unit.x, gy - unit.y)
    if dist < 1:
        return None
    # Whether an enemy sees it (the dear part, issue 17) is asked last.
    rapid_ok = (
        unit.wounded_light == 0
        and unit.pending == 0
        and unit.profile.support != "heavy"
        and not state.sees_fighting(unit, unit.force.enemy.units)
    )
    speed = "rapid" if rapid_ok else "tactical"
    if speed == "rapid":
        going = state.going(unit.x, unit.y, int(gx), int(gy))
        if state.move_allowance(unit, speed, going) <= 0:
            speed = "tactical"
    best = _best_step(state, unit, (gx, gy), dist, speed)
    if best is None:
        return None
    return best, speed


def _best_step(
    state: BattleState, unit: Unit, goal_at: tuple[float, float], dist: float, speed: str
) -> tuple[int, int] | None:
    """The spot within the unit's move toward ``goal_at`` (``dist`` away) that gains most,
    out of the open and on high ground first; never within 2" of a friend."""
    field = state.field
    gx, gy = goal_at
    best: tuple[int, int] | None = None
    best_score = -1e9
    # Whether the move reaches a spot is asked by its allowances first, by the going along
    # the way (the dear part) last, only of a spot that would be the best so far: the same
    # best (issue 17).
    least, most = state.move_bounds(unit, speed)
    # A spot next to a friend is asked after the gain (both only pass a spot over), and only
    # of the friends that could be next to a spot within the move: the others are over
    # FRIEND_GAP_IN from all of them (with an inch to spare for the rounding).
    ux, uy = unit.x, unit.y
    friends = _friends_within(unit, most + FRIEND_GAP_IN + 1)
    squares = field.squares
    for x, y in _step_spots(state, unit, goal_at, dist, most):
        away = hypot(x - ux, y - uy)
        if away > most:
            continue
        progress = dist - hypot(gx - x, gy - y)
        if progress + 3 + 1.5 <= best_score:
            continue  # not even out of the open and on high ground would it gain more
        if _near(x, y, friends, FRIEND_GAP_IN):
            continue
        score = progress + (0 if state.exposed(x, y) else 3)
        # field.square_at's square: the spots are whole inches on the table.
        square = squares[y // SQUARE_IN][x // SQUARE_IN]
        score += 1.5 if square.blocks_sight else 0
        if score > best_score and (
            away <= least
            or away <= state.move_allowance(unit, speed, state.going(unit.x, unit.y, x, y))
        ):
            best, best_score = (x, y), score
    return best


def _friends_within(unit: Unit, reach: float) -> list[tuple[int, int]]:
    """Where the unit's friends still fighting stand nearer than ``reach`` to it."""
    ux, uy = unit.x, unit.y
    return [
        (u.x, u.y)
        for u in unit.force.units
        if u is not unit
        and hypot(u.x - ux, u.y - uy) < reach
        and not (u.lost or u.healthy <= 0 or u.merged_into is not None)  # u.fighting
    ]


def _step_spots(
    state: BattleState, unit: Unit, goal_at: tuple[float, float], dist: float, most: float
) -> list[tuple[int, int]]:
    """The spots on the table a step toward ``goal_at`` may end on, in the order tried:
    five directions about the goal's, each a whole, two thirds and a third of 12"; but
    not the steps too long to end within ``most`` of the unit: the step's end rounded to
    whole inches is nearer by half an inch's diagonal (0.71") at most (issue 17)."""
    gx, gy = goal_at
    px, py = unit.x, unit.y
    ux, uy = (gx - px) / dist, (gy - py) / dist
    width, depth = state.field.width_in, state.field.depth_in
    position = unit.position
    short = dist - 1.5
    reach = most + _ROUNDED_OFF
    steps = []
    for step in _STEPS:
        step = short if short <= step else step  # min, spelt out
        if step <= reach:
            steps.append(step)
    spots = []
    for c, s in _DIRECTIONS:
        dx, dy = ux * c - uy * s, ux * s + uy * c
        for step in steps:
            x = round(px + dx * step)  # round of a float is an int
            y = round(py + dy * step)
            # Never true: Unit.position is a list, and a tuple never equals a list. Making
            # it compare would change battles: left for a fix of its own, named as such.
            here = (x, y) == position  # type: ignore[comparison-overlap]
            if 0 <= x < width and 0 <= y < depth and not here:
                spots.append((x, y))
    return spots


def _near(x: int, y: int, spots: list[tuple[int, int]], reach: float) -> bool:
    """Whether a spot of ``spots`` is nearer than ``reach`` to ``(x, y)``."""
    for sx, sy in spots:  # noqa: SIM110 (a loop, not a generator a call: issue 17)
        if hypot(x - sx, y - sy) < reach:
            return True
    return False


def overwatch(state: BattleState, unit: Unit) -> bool:
    """3.16: Regulars of D8 or better, of the side with initiative; the AI watches with a
    unit that has nothing to shoot at now and does not mean to move."""
    force = unit.force
    if not (force.regular and unit.tq >= 8 and unit.can_fire) or unit.regrouping:
        return False
    if wants_to_advance(state, unit):
        return False
    return best_target(state, unit) is None


def reacts(state: BattleState, reactor: Unit, actor: Unit, fired_on: bool) -> bool:
    """Whether a non-initiative unit reacts with fire to ``actor``'s activation."""
    if not reactor.may_react or not reactor.can_fire:  # the attribute before the property
        return False
    if (reactor.regrouping or reactor.react_only) and not fired_on:
        return False  # 5.2 regrouping, 5.3 "may only react to fire": only return fire
    if not reactor.force.regular and reactor.reacted:
        return False  # 3.14: Irregulars react once a turn
    # sees, its memo read first: the reactor has looked at the actor already (issue 17).
    seen = state.known_sight.get((reactor.x, reactor.y, actor.x, actor.y))
    if not (state.sees(reactor, actor) if seen is None else seen):
        return False  # 3.11b: only to units in their line of sight
    if reactor.hidden and not fired_on:
        # Hidden units spring an ambush (4.1) within twice their Troop Quality.
        return reactor.distance(actor) <= t.AMBUSH_RANGE_FACTOR * reactor.tq
    if fired_on:
        return True
    return worth(state, reactor, actor) >= 1.0


def opportunity_fire(state: BattleState, unit: Unit, reactor: Unit, moving: bool) -> bool:
    """3.15: whether an initiative unit not yet activated gives up its activation to fire at
    ``reactor``'s reaction. The AI does so only at a unit making a reaction move (only
    Overwatch or Opportunity Fire may hit it, 3.13: else it gets away), with a unit that
    would not advance this turn and whose shot is worth 1 expected hit or more. Against
    reaction fire it keeps its activation: it would fire then anyway."""
    if (
        not moving
        or unit.activated
        or unit.overwatch
        or unit.react_only
        or unit.regrouping  # 5.2: may not initiate fire
        or not unit.can_fire
        or reactor.hidden
        or not state.sees(unit, reactor)
        or wants_to_advance(state, unit)
    ):
        return False
    return worth(state, unit, reactor) >= 1.0


def reaction_move(
    state: BattleState, reactor: Unit, actor: Unit
) -> tuple[tuple[int, int], str] | None:
    """3.13: whether ``reactor``, fired on by ``actor``, reacts by moving rather than by
    fire, and where to. The AI moves a unit that cannot hurt the actor (under 0.5 expected
    hits) out of its sight, or into cover if it stands in the open; and a unit in the open
    (Exposed and not In Cover) under heavy fire (1.5 expected hits or more, more than it
    can return) out of sight or into cover. Tactically if that reaches, else Rapidly."""
    if not _may_move_in_reaction(state, reactor, actor):
        return None
    in_open = state.exposed(reactor.x, reactor.y) and not reactor.in_cover
    if not _better_moved(state, reactor, actor, in_open):
        return None
    carrying_wounded = reactor.wounded_light > 0 or reactor.pending > 0  # no Rapid (5.3)
    # 2.2: "may not fire and then make a Rapid move".
    rapid_ok = not carrying_wounded and reactor.fires == 0
    for speed in ("tactical", "rapid") if rapid_ok else ("tactical",):
        spot = _reaction_spot(state, reactor, actor, speed, into_cover=in_open)
        if spot is not None:
            return spot, speed
    return None


def _may_move_in_reaction(state: BattleState, reactor: Unit, actor: Unit) -> bool:
    """Once a turn (3.13), able to react and to move, not hidden, in sight of the actor; an
    Irregular unit that has reacted already may not."""
    return not (
        reactor.reaction_moved
        or not reactor.may_react
        or reactor.hidden
        or reactor.regrouping  # 5.2: regrouping units may not move
        or reactor.react_only  # may only return fire this turn
        or reactor.profile.mover is None
        or (reactor.reacted and not reactor.force.regular)
        or not state.sees(reactor, actor)
    )


def _better_moved(state: BattleState, reactor: Unit, actor: Unit, in_open: bool) -> bool:
    """Harmless to the actor, or in the open under heavy fire it cannot match."""
    ours = worth(state, reactor, actor) if reactor.can_fire else 0.0
    if ours < HARMLESS:
        return True
    if not in_open:
        return False
    theirs = worth(state, actor, reactor)
    return not (theirs < HEAVY_FIRE or theirs <= ours)


def _reaction_spot(
    state: BattleState, unit: Unit, actor: Unit, speed: str, *, into_cover: bool
) -> tuple[int, int] | None:
    """The best spot within the move, never toward ``actor``: out of its sight first, then
    out of the open (only if ``into_cover``), then the nearest."""
    mover = unit.profile.mover
    assert mover is not None
    reach = (t.TACTICAL_MOVE_IN if speed == "tactical" else t.RAPID_MOVE_IN)[mover]
    # The spots best first: out of the open, then the nearest, then in the order found (a
    # best found later never replaced one found first). The first out of sight that the
    # move reaches is the best; failing one, the first out of the open it reaches. The
    # sight (the dear part, issue 17) is asked no further, and whether a spot is out of
    # the open no further than the first out of it and of sight (the nearest come first:
    # those in the open are kept for after the others).
    exposed = state.exposed
    in_sight: tuple[int, int] | None = None  # the best in sight, out of the open
    in_open = []
    for dist, x, y in spots_away_nearest(state, unit, actor, reach):
        if exposed(x, y):
            in_open.append((dist, x, y))
        elif state.sees(actor, Spot(x, y)):
            if in_sight is None and into_cover and state.within_move(unit, speed, x, y, dist):
                in_sight = (x, y)
        elif state.within_move(unit, speed, x, y, dist):
            return x, y
    for dist, x, y in in_open:
        if not state.sees(actor, Spot(x, y)) and state.within_move(unit, speed, x, y, dist):
            return x, y
    return in_sight


SPLIT_DICE_PER_FIGURE = 2  # figures' dice the AI leaves on a nearly finished target


def split_fire(state: BattleState, unit: Unit, target: Unit) -> list[tuple[Unit, int, bool]] | None:
    """3.6: whether the AI splits ``unit``'s fire, and how: [(target, figures' dice, with
    the support weapon's dice)]. It splits where the main target has too few figures left
    to use the unit's whole fire (Basic Defense is its figures or the attack, whichever is
    less, and it can lose no more figures than it has): two figures' dice per figure it
    has left, and the support weapon, stay on it; two or more left over go to the next
    target worth most that the unit may engage, if its Troop Quality allows two targets."""
    if t.SPLIT_FIRE_TARGETS[unit.tq] < 2 or not unit.can_fire or not unit.profile.small_arms:
        return None
    keep = SPLIT_DICE_PER_FIGURE * target.healthy
    spare = unit.healthy - keep
    if spare < 2:
        return None
    others = [e for e in visible_enemies(state, unit) if e is not target]
    if not others:
        return None
    second = max(others, key=lambda e: (worth(state, unit, e), e.id))
    allotments = [keep, spare]
    if f.check_split(unit.tq, allotments, 0 if unit.profile.support else None):
        return None
    return [(target, keep, True), (second, spare, False)]


def suppression_fire(state: BattleState, shooter: Unit, target: Unit) -> bool:
    """3.7: whether the AI declares Suppression Fire (2 dice fewer; it may Suppress with
    a single 4+). Medium and heavy weapons always suppress and need no declaration. It
    declares it against a target it could suppress (not High Confidence, not already
    Pinned or Suppressed, and for a Confident target with 3+ dice left) when normal fire
    could not hurt it (under 0.5 expected hits), or to cover a move: the target sees a
    friendly unit still to activate this turn that means to advance, and normal fire
    would not be heavy (under 1.5 expected hits)."""
    if not _could_suppress(state, shooter, target):
        return False
    hurt = worth(state, shooter, target)
    if hurt < HARMLESS:
        return True
    if hurt >= HEAVY_FIRE:
        return False
    return _covers_a_move(state, shooter, target)


def _could_suppress(state: BattleState, shooter: Unit, target: Unit) -> bool:
    """A shooter that must declare it, at a target it could suppress (3.7)."""
    if shooter.profile.support in t.ALWAYS_SUPPRESSING or not shooter.can_fire:
        return False
    confidence = target.force.confidence
    if confidence == "high" or target.pinned or target.suppressed:
        return False
    shot = shot_for(state, shooter, target, SUPPRESSING)
    suppressing = _SHOT_DICE.get(shot)
    if suppressing is None:
        suppressing = _SHOT_DICE[shot] = f.firepower_dice(shot)
    return suppressing > 0 and not (
        confidence == "confident" and suppressing < t.SUPPRESSION_MIN_FIREPOWER
    )


def _covers_a_move(state: BattleState, shooter: Unit, target: Unit) -> bool:
    """The target sees a friend of the shooter still to activate that means to advance."""
    if state.initiative is not shooter.force:
        return False  # no friend of the shooter is still to activate (asked once: issue 17)
    return any(
        friend is not shooter
        and friend.fighting
        and not friend.activated
        and wants_to_advance(state, friend)
        and state.sees(target, friend)
        for friend in shooter.force.units
    )


def hopeless(state: BattleState, force: Force) -> bool:
    ours = _firing(force.units)
    return ours == 0 or ours * HOPELESS_RATIO < _firing(force.enemy.units)


def fit_to_fight(force: Force) -> int:
    """A force's fighting strength, as ``hopeless`` counts it: its units fighting that fire."""
    return _firing(force.units)


def _firing(units: list[Unit]) -> int:
    """How many of ``units`` are fighting and fire: a loop, Unit.fighting spelt out, not a
    sum over a generator (issue 17)."""
    count = 0
    for u in units:
        if not (u.lost or u.healthy <= 0 or u.merged_into is not None) and u.profile.fires:
            count += 1
    return count
