"""Check a played turn from its TURN.json alone: ``python -m rules verify TURN.json``.

TURN.json is what the API gives a side for a played turn (``format`` ``korona-turn/1``):
the turn's commitment (published before it was played), the branch seeds and salts the
side may see, its own orders, the records and battles it may read and, when it may see
everything (the GM, or anyone once the campaign has ended), the turn seed, the campaign
as it stood at the start of the turn and every order. From that the check recomputes:

1. each revealed branch seed against its commitment, and the turn's commitment from its
   branches' (and, with the turn seed, each branch from it);
2. every die of every record it can read, from the stream the record names;
3. every battle fought by the rules: its seed from the public branch, then the whole
   battle again, result and log;
4. each of the side's orders against the move the turn made of it;
5. with everything to hand, the whole turn again from the start state, the orders and
   the seed: every record, in order.

No database and no Django: the rules alone, as the server played them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules import names
from rules.campaign import seeds
from rules.campaign.scenario import ScenarioError, parse_scenario
from rules.campaign.state import CampaignState, Order
from rules.campaign.turn import PlannedBattle, TurnPlan, finish_turn, start_turn
from rules.dice import Roller
from rules.records import BattleResult
from rules.refusals import Refusal
from rules.rulesets import resolve_battle
from rules.spec import BattleSpecError, parse_battle

FORMAT = "korona-turn/1"
CAMPAIGN_DIE = 6  # every die of the campaign turn is a d6


class TurnFileError(Refusal):
    """A TURN.json that cannot be checked at all; ``problems`` says what is wrong."""


@dataclass
class Verdict:
    """What the check found: ``differences`` empty means verified."""

    turn: int
    differences: list[str] = field(default_factory=list)
    checked: list[str] = field(default_factory=list)  # what was recomputed, in words
    notes: list[str] = field(default_factory=list)  # what could not be, and why

    @property
    def verified(self) -> bool:
        return not self.differences

    def lines(self) -> list[str]:
        head = (
            f"verified: turn {self.turn} is as published"
            if self.verified
            else f"NOT verified: turn {self.turn} differs from what was published"
        )
        lines = [head]
        lines += [f"  differs: {d}" for d in self.differences]
        lines += [f"  checked: {c}" for c in self.checked]
        lines += [f"  note: {n}" for n in self.notes]
        return lines


def _plain(data: Any) -> Any:
    """As JSON has it (tuples become lists), so two values compare as the file would."""
    return json.loads(json.dumps(data, sort_keys=True))


def _describe(index: int, record: Mapping[str, Any]) -> str:
    text = str(record.get("text", ""))[:120]
    return f'record {index + 1} ({record.get("phase")}, "{text}")'


def _require(data: Any, key: str, kind: type | tuple[type, ...], problems: list[str]) -> Any:
    value = data.get(key) if isinstance(data, Mapping) else None
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        problems.append(f"{key} is missing or not a {getattr(kind, '__name__', kind)}")
    return value


def read_turn_file(data: Any) -> dict[str, Any]:
    """The TURN.json's shape, checked; ``TurnFileError`` lists what is wrong."""
    problems: list[str] = []
    if not isinstance(data, Mapping):
        raise TurnFileError(["a TURN.json is a JSON object"])
    if data.get("format") != FORMAT:
        problems.append(f"format must be {FORMAT!r}, not {data.get('format')!r}")
    _require(data, "turn", int, problems)
    commitment = _require(data, "commitment", dict, problems)
    _require(data, "revealed", dict, problems)
    _require(data, "log", list, problems)
    _require(data, "battles", list, problems)
    _require(data, "orders", list, problems)
    if isinstance(commitment, Mapping):
        _require(commitment, "turn", str, problems)
        _require(commitment, "branches", dict, problems)
    if problems:
        raise TurnFileError(problems)
    return dict(data)


def _plays_a_side(data: Mapping[str, Any]) -> bool:
    """The file's reader plays a side: its view is one of the sides' branches. A
    spectator's view is none of them (it sees the public branch alone)."""
    view = data.get("view")
    branches = data["commitment"]["branches"]
    return view in branches and view not in (seeds.PUBLIC, seeds.INITIATIVE)


def _seed_words(branch: str, view: Any) -> str:
    """A branch's seed as a player reads it: "the public tables' seed", "your side's"."""
    if branch == seeds.PUBLIC:
        return "the public tables' seed"
    if branch == seeds.INITIATIVE:
        return "the initiative seed"
    if branch == view:
        return "your side's seed"
    return f"the {names.side_adjective(branch)} side's seed"


def _matched_words(branches: list[str], view: Any) -> str:
    """ "the public tables' seed and your side's seed match their commitments ..."."""
    order = sorted(branches, key=lambda branch: (branch != seeds.PUBLIC, branch))
    shown = names.join(_seed_words(branch, view) for branch in order)
    if len(order) == 1:
        return f"{shown} matches its commitment published before the turn"
    return f"{shown} match their commitments published before the turn"


def _check_commitments(data: Mapping[str, Any], verdict: Verdict) -> dict[str, int]:
    """The revealed branch seeds that match their commitments (branch -> seed)."""
    commitment = data["commitment"]
    branches: Mapping[str, Any] = commitment["branches"]
    try:
        combined = seeds.turn_commitment(branches)
    except KeyError:
        combined = None
    if combined != commitment["turn"]:
        verdict.differences.append(
            "the turn's commitment is not the SHA-256 of its branches' commitments"
        )
    good: dict[str, int] = {}
    for branch, revealed in sorted(data["revealed"].items()):
        seed, salt = (revealed or {}).get("seed"), (revealed or {}).get("salt")
        if isinstance(seed, bool) or not isinstance(seed, int):
            verdict.differences.append(f"the {branch} seed is not a whole number")
            continue
        try:
            made = seeds.commit(seed, salt)
        except ValueError as bad:
            verdict.differences.append(f"the {branch} salt: {bad}")
            continue
        if made != branches.get(branch):
            verdict.differences.append(
                f"the {branch} seed and salt do not match the {branch} commitment published "
                f"before the turn (SHA-256 gives {made[:16]}..., the commitment is "
                f"{str(branches.get(branch))[:16]}...)"
            )
            continue
        good[branch] = seed
    if good:
        verdict.checked.append(_matched_words(list(good), data.get("view")))
    turn_seed = data.get("turn_seed")
    if turn_seed is not None:
        for branch in branches:
            if branch in good and seeds.branch_seed(turn_seed, branch) != good[branch]:
                verdict.differences.append(f"the {branch} seed does not derive from the turn seed")
    return good


def _dice(count: int) -> str:
    return f"{count} {'die' if count == 1 else 'dice'}"


def _check_dice(data: Mapping[str, Any], known: Mapping[str, int], verdict: Verdict) -> None:
    streams: dict[str, Roller] = {}
    checked = 0
    hidden: dict[str, int] = {}
    for index, record in enumerate(data["log"]):
        dice = record.get("dice") or []
        if not dice:
            continue
        names = record.get("dice_streams")
        if not isinstance(names, list) or len(names) != len(dice):
            verdict.differences.append(
                f"{_describe(index, record)} does not name the stream of each of its dice"
            )
            continue
        for position, (face, name) in enumerate(zip(dice, names, strict=True)):
            branch, label = seeds.split_stream(str(name))
            if branch not in known:
                hidden[branch] = hidden.get(branch, 0) + 1
                continue
            roller = streams.get(name)
            if roller is None:
                roller = streams[name] = Roller(seeds.stream_seed(known[branch], label))
            expected = roller.die(CAMPAIGN_DIE)
            checked += 1
            if face != expected:
                verdict.differences.append(
                    f"{_describe(index, record)}: die {position + 1} is {face}, but the seed "
                    f"gives {expected} (stream {name})"
                )
    verdict.checked.append(f"{_dice(checked)} of the turn recomputed from the seeds")
    for branch, count in sorted(hidden.items()):
        verdict.notes.append(
            _unchecked_words(branch, count, data.get("view"), plays=_plays_a_side(data))
        )


def _unchecked_words(branch: str, count: int, view: Any, *, plays: bool = True) -> str:
    """Dice this file cannot check, in plain words: whose seed, and when it is shown.
    ``plays``: the reader plays a side (a spectator has no initiative die of their own,
    nor an enemy)."""
    rolled = f"{_dice(count)} {'was' if count == 1 else 'were'} rolled"
    them = "it" if count == 1 else "they"
    if branch == seeds.INITIATIVE:
        whose = " (your initiative die)" if plays else ""
        total = "the enemy's initiative total" if plays else "a side's initiative total"
        return (
            f"{rolled} from the initiative seed{whose}, which is kept secret until the "
            f"campaign ends, so {them} cannot be checked until then: its seed would give "
            f"away {total} in a tied round"
        )
    return (
        f"{rolled} from {_seed_words(branch, view)}, which you are not shown, so {them} "
        "cannot be checked until the campaign ends and every seed is shown"
    )


def _battle_seed(known: Mapping[str, int], key: str) -> int | None:
    if seeds.PUBLIC not in known:
        return None
    return seeds.stream_seed(known[seeds.PUBLIC], seeds.battle_label(key))


def _fight(battle: Mapping[str, Any]) -> BattleResult:
    return resolve_battle(parse_battle(battle["spec"]), battle["seed"])


def _first_log_difference(where: str, mine: list[Any], theirs: list[Any], verdict: Verdict) -> None:
    """The first record where a battle's log fought again differs from the published."""
    for index, (a, b) in enumerate(zip(mine, theirs, strict=False)):
        if a != b:
            verdict.differences.append(
                f"{where}: record {index + 1} of its log differs "
                f'(published "{str(b.get("text", b))[:100]}", '
                f'the seed gives "{str(a.get("text", a))[:100]}")'
            )
            return
    if len(mine) != len(theirs):
        verdict.differences.append(
            f"{where}: its log has {len(theirs)} records; fought again it has {len(mine)}"
        )


def _fight_again(
    battle: Mapping[str, Any], published: Mapping[str, Any], where: str, verdict: Verdict
) -> bool:
    """Fight a battle again from its seed and compare its result and log with the
    published ones; False when it cannot be fought from its sheet."""
    try:
        again = _fight(battle)
    except (BattleSpecError, KeyError, TypeError, ValueError) as bad:
        verdict.differences.append(f"{where} cannot be fought again from its sheet: {bad}")
        return False
    log = _plain(again["log"])
    mine = _plain({k: v for k, v in again.items() if k != "log"})
    if mine != _plain({k: v for k, v in published.items() if k != "log"}):
        changed = sorted(
            k for k in mine.keys() | published.keys() if mine.get(k) != _plain(published.get(k))
        )
        verdict.differences.append(
            f"{where}: fought again from its seed, its result differs ({', '.join(changed)})"
        )
    _first_log_difference(where, log, _plain(battle.get("log") or []), verdict)
    return True


def battle_words(key: str) -> str:
    """A battle by its key ("11:Korona:2", the turn's second battle there) as a reader
    says it: "the battle at Korona (the second there)"; a key of another shape as it is."""
    parts = key.split(":")
    if len(parts) < 2 or not parts[1]:
        return f"the battle {key}"
    where = f"the battle at {parts[1]}"
    if len(parts) > 2:
        n = parts[2]
        ordinal = names.ordinal(int(n)) if n.isascii() and n.isdigit() else n
        nth = {"1": "first", "2": "second", "3": "third"}.get(n, ordinal)
        where += f" (the {nth} there)"
    return where


def _check_battles(
    data: Mapping[str, Any], known: Mapping[str, int], verdict: Verdict
) -> dict[str, dict[str, Any]]:
    """The battles' results as the turn used them (re-fought where the rules fought)."""
    results: dict[str, dict[str, Any]] = {}
    fought = 0
    for battle in data["battles"]:
        key = battle.get("key")
        where = battle_words(str(key))
        expected_seed = _battle_seed(known, str(key))
        if expected_seed is not None and battle.get("seed") != expected_seed:
            verdict.differences.append(
                f"{where}: its seed {battle.get('seed')} is not the one the turn's seed gives "
                f"({expected_seed})"
            )
            continue
        published = battle.get("result") or {}
        results[str(key)] = {k: v for k, v in published.items() if k != "log"}
        if battle.get("status") == "entered":
            verdict.notes.append(
                f"{where} was fought at the table and its result entered by the game master: "
                "no dice to check"
            )
            continue
        if _fight_again(battle, published, where, verdict):
            fought += 1
    if data["battles"]:
        verdict.checked.append(fought_again(fought))
    return results


def fought_again(fought: int) -> str:
    """The verdict's line for the battles fought again ('1 battle ... from its seed')."""
    if fought == 1:
        return "1 battle fought again from its seed"
    return f"{fought} battles fought again from their seeds"


def _check_orders(data: Mapping[str, Any], verdict: Verdict) -> None:
    moves = {
        r.get("company"): (index, r)
        for index, r in enumerate(data["log"])
        if r.get("phase") == "movement" and r.get("kind") == "order"
    }
    for order in data["orders"]:
        company = order.get("company")
        found = moves.get(company)
        if found is None:
            verdict.differences.append(f"the order for {company} is not in the turn's log")
            continue
        index, record = found
        if (
            record.get("source") != "order"
            or record.get("order") != order.get("kind")
            or (order.get("kind") != "hold" and record.get("target") != order.get("target"))
        ):
            verdict.differences.append(
                f"the order for {company} ({order.get('kind')}"
                f"{' to ' + str(order.get('target')) if order.get('target') else ''}) is not "
                f"what {_describe(index, record)} played"
            )
    if data["orders"]:
        given = len(data["orders"])
        verdict.checked.append(
            f"{given} order{'' if given == 1 else 's'} against the moves the turn made"
        )


def _start_state(data: Mapping[str, Any], verdict: Verdict) -> CampaignState | None:
    """The campaign before the turn, if the file's start state is one and is before it;
    and whether the turn seed is the campaign seed's."""
    try:
        state = parse_scenario(data["start_state"])
    except ScenarioError as bad:
        verdict.differences.append(f"the start state is not a campaign: {bad}")
        return None
    if state.turn + 1 != data["turn"]:
        verdict.differences.append(
            f"the start state is after turn {state.turn}, not before turn {data['turn']}"
        )
        return None
    if seeds.default_turn_seed(state.seed, data["turn"]) == data.get("turn_seed"):
        verdict.checked.append("the turn seed is the campaign seed's for this turn")
    else:
        verdict.notes.append(
            "the turn seed is not the campaign seed's for this turn: the game master changed it "
            "(the campaign's public log says when and why)"
        )
    return state


def _check_pairing(data: Mapping[str, Any], plan: TurnPlan, verdict: Verdict) -> None:
    """The published battles are those the turn pairs, with their seeds and sheets."""
    published = {b.get("key"): b for b in data["battles"]}
    for planned in plan.battles:
        given = published.get(planned.key)
        if given is None:
            verdict.differences.append(
                f"the turn pairs a battle {planned.key} that is not published"
            )
        elif given.get("seed") != planned.seed or _plain(given.get("spec")) != _plain(planned.spec):
            verdict.differences.append(
                f"{battle_words(planned.key)} is not the battle the turn pairs"
            )
    extra = sorted(set(published) - {b.key for b in plan.battles})
    if extra:
        verdict.differences.append(f"battles published but not paired by the turn: {extra}")


def _check_whole_turn(
    data: Mapping[str, Any], results: Mapping[str, Mapping[str, Any]], verdict: Verdict
) -> None:
    state = _start_state(data, verdict)
    if state is None:
        return
    orders = {
        o["company"]: Order(o["company"], o["kind"], o.get("target"), sniper=o.get("sniper"))
        for o in data["orders"]
    }
    players = set(data.get("players") or [])
    plan: TurnPlan = start_turn(state, orders, seed=data.get("turn_seed"), players=players)
    _check_pairing(data, plan, verdict)
    if verdict.differences:
        return
    battles: list[PlannedBattle] = plan.battles
    outcome = finish_turn(
        TurnPlan(plan.number, plan.state, plan.log, battles, plan.initiative), results
    )
    mine, theirs = _plain(outcome.log), _plain(data["log"])
    for index, (a, b) in enumerate(zip(mine, theirs, strict=False)):
        if a != b:
            verdict.differences.append(
                f'{_describe(index, b)} differs: played again the turn gives "{a.get("text")}"'
            )
            return
    if len(mine) != len(theirs):
        verdict.differences.append(
            f"the turn's log has {len(theirs)} records; played again it has {len(mine)}"
        )
        return
    verdict.checked.append(
        f"the whole turn played again from its start, its orders and its seed: all "
        f"{len(mine)} records as published"
    )


def verify_turn(data: Any) -> Verdict:
    """Check a TURN.json; ``TurnFileError`` if it is not one."""
    data = read_turn_file(data)
    verdict = Verdict(turn=data["turn"])
    try:
        known = _check_commitments(data, verdict)
        _check_dice(data, known, verdict)
        results = _check_battles(data, known, verdict)
        _check_orders(data, verdict)
        if data.get("start_state") is not None and data.get("turn_seed") is not None:
            if not verdict.differences:
                _check_whole_turn(data, results, verdict)
        else:
            whose = (
                "your side's view: the enemy's"
                if _plays_a_side(data)
                else "a spectator's view: each side's"
            )
            verdict.notes.append(
                f"{whose} moves and rolls are checked when the campaign ends, when every "
                "turn's seed and start are shown"
            )
    except (AttributeError, KeyError, TypeError) as bad:
        # A record or battle of the wrong shape: the file was altered or truncated.
        verdict.differences.append(f"the file is not as the server wrote it ({bad!r})")
    return verdict
