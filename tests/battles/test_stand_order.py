"""Stands are listed in their units' own order (``rules.names.unit_rank``: the commander
first, then the rifle squads, then the support weapons), never in the order a spec or a
log comes back from PostgreSQL's jsonb (its keys shortest first)."""

from __future__ import annotations

from battles.forms import ResultForm
from battles.web import battleview
from battles.web.forces import stands_words

# A Japanese rifle company in jsonb's order.
SCRAMBLED = {"hmg": 1, "commander": 1, "rifle_squad": 9, "small_mortar": 1}
IN_ORDER = ["commander", "rifle_squad", "hmg", "small_mortar"]


def test_a_companys_stands_in_words_start_with_its_commander() -> None:
    assert stands_words(SCRAMBLED) == "1 commander, 9 rifle squads, 1 HMG and 1 small mortar"


def test_the_result_form_asks_for_the_losses_in_the_units_order() -> None:
    spec = {
        key: {"side": side, "stands": SCRAMBLED}
        for key, side in (("attacker", "japanese"), ("defender", "australian"))
    }
    form = ResultForm(spec=spec, forces={"attacker": "1st Company", "defender": "B Company"})
    assert form.units["attacker"] == IN_ORDER
    asked = [name.split("__")[1] for name in form.fields if name.startswith("defender__")]
    assert asked == IN_ORDER


def test_the_set_up_positions_list_the_stands_in_their_units_order() -> None:
    table = battleview.Table(3, 3, [], "seed")
    positions = {
        stand: [4, 4]
        for stand in (
            "a.hmg.1",
            "a.commander.1",
            "a.rifle_squad.10",
            "a.rifle_squad.2",
            "a.small_mortar.1",
        )
    }
    log = [{"kind": "deploy", "turn": 0, "phase": "deployment", "positions": positions}]
    listed = [p["mark"] for p in battleview.deploy_positions(log, table)["attacker"]]
    assert listed == ["C", "R2", "R10", "MG", "M"]
