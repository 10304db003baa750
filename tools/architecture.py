"""The diagrams of docs/architecture.md, drawn from the code.

    python tools/architecture.py            rewrite the diagrams in docs/architecture.md
    python tools/architecture.py --check    exit 1 if the doc's diagrams are stale

The import graph comes from grimp (import-linter's library): the project's modules,
gathered into the parts named in ``PARTS``, with an arrow from a part to each part it
imports. The turn's phases come from ``rules.campaign.turn``'s phase tables
(``START_PHASES``, ``FINISH_PHASES``). Both are written as Mermaid between the doc's
``BEGIN``/``END`` markers; everything else in the doc is prose, by hand.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs/architecture.md"
BEGIN = "<!-- BEGIN diagrams: drawn by tools/architecture.py from the code; do not edit -->"
END = "<!-- END diagrams -->"
PACKAGES = ("config", "campaign", "battles", "notifications", "rules")

# The parts of the import graph: (id, label, the modules it holds by prefix). A module
# belongs to the part with its longest matching prefix; one matching none is drawn in
# a part of its own package ("campaign (other)"), so no import goes unseen. Migrations
# are left out.
PARTS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (
        "ways_in",
        "campaign: pages, API, admin, commands",
        (
            "campaign.web",
            "campaign.api",
            "campaign.admin",
            "campaign.admin_history",
            "campaign.admin_home",
            "campaign.forms",
            "campaign.templatetags",
            "campaign.management",
        ),
    ),
    ("tasks", "campaign.tasks (Celery)", ("campaign.tasks",)),
    ("services", "campaign.services", ("campaign.services",)),
    ("models", "campaign.models", ("campaign.models", "campaign.history")),
    (
        "battles_in",
        "battles: pages, API, admin",
        ("battles.web", "battles.api", "battles.admin", "battles.forms"),
    ),
    ("battles_tasks", "battles.tasks (Celery)", ("battles.tasks",)),
    ("battles_services", "battles.services", ("battles.services",)),
    ("battles_models", "battles.models", ("battles.models",)),
    ("notifications", "notifications (app)", ("notifications",)),
    ("config", "config: settings, URLs, Celery, enqueue", ("config",)),
    ("rules_campaign", "rules.campaign: turn, phases, AI", ("rules.campaign",)),
    ("door", "rules.rulesets: the rule-set door", ("rules.rulesets",)),
    ("korona", "rules.korona", ("rules.korona",)),
    ("force_on_force", "rules.forceonforce", ("rules.forceonforce",)),
    ("kernel", "rules.kernel: the battle kernel", ("rules.kernel",)),
    ("rules_shared", "rules: dice, spec, units, table, odds...", ("rules",)),
)
# The parts of rules/ (every other part is a Django app's, or config's).
RULES_SIDE = tuple(
    key for key, _, prefixes in PARTS if all(p.startswith("rules") for p in prefixes)
)


def part_of(module: str) -> tuple[str, str] | None:
    """(id, label) of the part holding ``module``; None for a migration."""
    if ".migrations" in module:
        return None
    best: tuple[int, str, str] | None = None
    for key, label, prefixes in PARTS:
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and (
                best is None or len(prefix) > best[0]
            ):
                best = (len(prefix), key, label)
    if best is not None:
        return best[1], best[2]
    root = module.split(".")[0]
    return f"{root}_other", f"{root} (other)"


def import_edges(pairs: Iterable[tuple[str, str]]) -> tuple[dict[str, str], set[tuple[str, str]]]:
    """The parts and the arrows between them, from (importer, imported) module pairs."""
    labels: dict[str, str] = {}
    edges: set[tuple[str, str]] = set()
    for importer, imported in pairs:
        a, b = part_of(importer), part_of(imported)
        if a is None or b is None:
            continue
        labels[a[0]], labels[b[0]] = a[1], b[1]
        if a[0] != b[0]:
            edges.add((a[0], b[0]))
    return labels, edges


def project_imports() -> list[tuple[str, str]]:
    """Every direct import between the project's own modules."""
    import grimp

    sys.path.insert(0, str(ROOT))
    graph = grimp.build_graph(*PACKAGES)
    return [
        (module, imported)
        for module in sorted(graph.modules)
        for imported in sorted(graph.find_modules_directly_imported_by(module))
    ]


def _order(keys: Iterable[str]) -> list[str]:
    known = [key for key, _, _ in PARTS]
    return sorted(keys, key=lambda k: (known.index(k) if k in known else len(known), k))


def import_diagram(pairs: Iterable[tuple[str, str]]) -> list[str]:
    labels, edges = import_edges(pairs)
    lines = ["```mermaid", "flowchart TD"]
    rules = [k for k in _order(labels) if k in RULES_SIDE or k == "rules_other"]
    django = [k for k in _order(labels) if k not in rules]
    for key, title, keys in (
        ("django", "Django apps and config", django),
        ("plain", "rules/: plain Python, no Django", rules),
    ):
        lines.append(f'    subgraph {key}["{title}"]')
        lines += [f'        {key}["{labels[key]}"]' for key in keys]
        lines.append("    end")
    for a, b in sorted(
        edges, key=lambda e: (_order(labels).index(e[0]), _order(labels).index(e[1]))
    ):
        lines.append(f"    {a} --> {b}")
    return [*lines, "```"]


def phase_diagram() -> list[str]:
    sys.path.insert(0, str(ROOT))
    from rules.campaign.turn import FINISH_PHASES, START_PHASES

    def node(prefix: str, index: int, name: str, function: object) -> str:
        module = getattr(function, "__module__", "").removeprefix("rules.campaign.")
        return f'        {prefix}{index}["{name}<br/>{module}.{getattr(function, "__name__", "")}"]'

    lines = ["```mermaid", "flowchart LR", '    subgraph start["start_turn"]']
    lines += [node("s", i, name, fn) for i, (name, fn) in enumerate(START_PHASES)]
    lines += ["    end", '    subgraph finish["finish_turn"]']
    lines += [node("f", i, name, fn) for i, (name, fn) in enumerate(FINISH_PHASES)]
    lines.append("    end")
    lines += [f"    s{i} --> s{i + 1}" for i in range(len(START_PHASES) - 1)]
    lines.append(
        f'    s{len(START_PHASES) - 1} --> fought(["each battle fought by its rule set,'
        ' or its result entered from the table"]) --> f0'
    )
    lines += [f"    f{i} --> f{i + 1}" for i in range(len(FINISH_PHASES) - 1)]
    return [*lines, "```"]


def diagrams(pairs: Iterable[tuple[str, str]] | None = None) -> str:
    """The block between the markers."""
    body = [
        BEGIN,
        "",
        "How the packages import each other (an arrow: imports):",
        "",
        *import_diagram(project_imports() if pairs is None else pairs),
        "",
        "The phases of a turn, as `rules.campaign.turn` plays them:",
        "",
        *phase_diagram(),
        "",
        END,
    ]
    return "\n".join(body)


def with_diagrams(doc: str, block: str) -> str:
    """The doc with ``block`` between its markers (which it must have)."""
    start, end = doc.find(BEGIN), doc.find(END)
    if start < 0 or end < start:
        raise ValueError(f"{DOC.relative_to(ROOT)} has no {BEGIN!r} ... {END!r} markers")
    return doc[:start] + block + doc[end + len(END) :]


def main(argv: Sequence[str]) -> int:
    doc = DOC.read_text(encoding="utf-8")
    fresh = with_diagrams(doc, diagrams())
    if "--check" in argv:
        if fresh != doc:
            print(
                f"{DOC.relative_to(ROOT)}: its diagrams are stale (the imports or the turn's "
                "phases changed): run python tools/architecture.py",
                file=sys.stderr,
            )
            return 1
        print(f"{DOC.relative_to(ROOT)}: the diagrams match the code")
        return 0
    DOC.write_text(fresh, encoding="utf-8")
    print(f"{DOC.relative_to(ROOT)}: diagrams drawn")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
