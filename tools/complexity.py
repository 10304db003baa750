"""Functions too long or too tangled to read at a sitting, found with radon.

    python tools/complexity.py [PATH ...]        (default: rules)

Every function, method and nested function under each PATH (a .py file or a folder) is
measured: its length, the line span from ``def`` to its last line, and radon's
cyclomatic complexity (a nested function counts on its own, not in its outer function's
figure). Each one over ``MAX_LINES`` lines or over ``MAX_COMPLEXITY`` is printed in plain
words, and the exit code is 1; with none, 0. ``python3 dev.py test`` runs it on rules/.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from radon.visitors import ComplexityVisitor

MAX_LINES = 60
MAX_COMPLEXITY = 15
ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True, slots=True)
class Measure:
    path: str
    line: int
    name: str  # with its class and outer functions: "Class.method", "outer.inner"
    lines: int
    complexity: int

    @property
    def too_long(self) -> bool:
        return self.lines > MAX_LINES

    @property
    def too_complex(self) -> bool:
        return self.complexity > MAX_COMPLEXITY

    def words(self) -> str:
        faults = []
        if self.too_long:
            faults.append(f"is {self.lines} lines long (at most {MAX_LINES})")
        if self.too_complex:
            faults.append(f"has a complexity of {self.complexity} (at most {MAX_COMPLEXITY})")
        return f"{self.path}:{self.line}: {self.name} {' and '.join(faults)}"


def _ends(tree: ast.AST) -> dict[int, int]:
    """The last line of each function, by the line of its ``def``."""
    return {
        node.lineno: node.end_lineno or node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    }


def _blocks(blocks: Iterable[Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    """radon's functions with their full names, methods and nested functions included."""
    for block in blocks:
        name = f"{prefix}{block.name}"
        if hasattr(block, "methods"):  # a class
            yield from _blocks(block.methods, f"{name}.")
            yield from _blocks(block.inner_classes, f"{name}.")
        else:
            yield name, block
            yield from _blocks(block.closures, f"{name}.")


def measure_source(source: str, path: str) -> list[Measure]:
    """Every function of one module's source."""
    ends = _ends(ast.parse(source))
    visitor = ComplexityVisitor.from_code(source)
    measures = [
        Measure(
            path=path,
            line=block.lineno,
            name=name,
            lines=ends[block.lineno] - block.lineno + 1,
            complexity=block.complexity,
        )
        for name, block in _blocks([*visitor.functions, *visitor.classes])
    ]
    return sorted(measures, key=lambda m: m.line)


def _files(paths: Sequence[Path]) -> Iterator[Path]:
    for path in paths:
        yield from sorted(path.rglob("*.py")) if path.is_dir() else [path]


def _shown(path: Path) -> str:
    """A path relative to the repository when it is inside it, as typed otherwise."""
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def offenders(paths: Sequence[Path]) -> list[Measure]:
    """The functions under ``paths`` over either limit."""
    found = []
    for path in _files(paths):
        for measure in measure_source(path.read_text(encoding="utf-8"), _shown(path)):
            if measure.too_long or measure.too_complex:
                found.append(measure)
    return found


def main(argv: Sequence[str]) -> int:
    paths = [Path(arg) for arg in argv] or [ROOT / "rules"]
    missing = [str(path) for path in paths if not path.exists()]
    if missing:
        print(f"complexity: no such file or folder: {', '.join(missing)}", file=sys.stderr)
        return 2
    found = offenders(paths)
    for measure in found:
        print(measure.words())
    where = ", ".join(_shown(path) for path in paths)
    if found:
        print(
            f"{len(found)} function{'s' if len(found) != 1 else ''} in {where} over "
            f"{MAX_LINES} lines or over complexity {MAX_COMPLEXITY}: split them into "
            "named steps",
            file=sys.stderr,
        )
        return 1
    print(f"every function in {where} is at most {MAX_LINES} lines and complexity {MAX_COMPLEXITY}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
