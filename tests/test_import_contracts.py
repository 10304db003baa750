"""The import contracts in pyproject.toml name what they must: every module of rules/ is
either public to the Django apps or forbidden to them."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The rules' public modules, as the contract's comment lists them.
PUBLIC = {
    "rules.rulesets", "rules.spec", "rules.names", "rules.units", "rules.battlefield",
    "rules.dice", "rules.ending", "rules.campaign", "rules.refusals", "rules.records",
}  # fmt: skip
CONTRACT = "campaign and battles import only the rules' public modules"


def test_every_module_of_rules_is_public_or_forbidden_to_the_apps() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    (contract,) = [c for c in contracts if c["name"] == CONTRACT]
    forbidden = set(contract["forbidden_modules"])
    modules = {
        f"rules.{path.stem if path.is_file() else path.name}"
        for path in (ROOT / "rules").iterdir()
        if (path.suffix == ".py" and path.stem != "__init__") or (path / "__init__.py").exists()
    }
    assert not PUBLIC & forbidden
    assert modules == PUBLIC | forbidden, (
        modules - PUBLIC - forbidden,
        (PUBLIC | forbidden) - modules,
    )
    assert {"campaign", "battles"} <= set(contract["source_modules"])
