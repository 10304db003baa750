"""tools/complexity.py, the step of ``python3 dev.py test`` that refuses a function in
rules/ over 60 lines or over cyclomatic complexity 15."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "complexity_under_test", ROOT / "tools/complexity.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


tool = load_tool()


def function_of(name: str, lines: int) -> str:
    """A function spanning exactly ``lines`` lines (def and a closing bracket included)."""
    body = "".join(f"    x{i} = {i}\n" for i in range(lines - 3))
    return f"def {name}():\n{body}    return [\n        x0]\n"


def branches(name: str, ifs: int) -> str:
    """A function of complexity 1 + ``ifs``."""
    body = "".join(f"    if a == {i}:\n        return {i}\n" for i in range(ifs))
    return f"def {name}(a):\n{body}    return -1\n"


def test_a_function_over_60_lines_is_named_and_one_of_60_is_not(tmp_path: Path) -> None:
    source = function_of("long_one", 61) + "\n\n" + function_of("just_fits", 60)
    measures = {m.name: m for m in tool.measure_source(source, "m.py")}
    assert measures["long_one"].lines == 61  # the span to its last line, the bracket's
    assert measures["just_fits"].lines == 60
    (tmp_path / "m.py").write_text(source)
    assert [m.name for m in tool.offenders([tmp_path])] == ["long_one"]


def test_complexity_over_15_is_named_and_15_is_not(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(branches("tangled", 15) + "\n\n" + branches("fits", 14))
    found = tool.offenders([tmp_path / "m.py"])
    assert [(m.name, m.complexity) for m in found] == [("tangled", 16)]
    assert found[0].words().endswith("tangled has a complexity of 16 (at most 15)")


def test_methods_and_nested_functions_count_on_their_own(tmp_path: Path) -> None:
    """A nested function's branches are its own, not its outer function's; each is
    named with what holds it."""
    nested = textwrap.indent(branches("inner", 16), "    ")
    method = textwrap.indent(function_of("method", 62), "    ")
    source = f"def outer(a):\n{nested}    return inner(a)\n\n\nclass Board:\n{method}"
    (tmp_path / "m.py").write_text(source)
    found = {m.name: m for m in tool.offenders([tmp_path])}
    assert set(found) == {"outer.inner", "Board.method"}
    assert found["outer.inner"].complexity == 17
    assert found["Board.method"].lines == 62


def test_the_command_lists_each_offender_in_words_and_fails(tmp_path: Path) -> None:
    (tmp_path / "long.py").write_text(function_of("resolve", 70))
    (tmp_path / "both.py").write_text("\n" + branches("activate", 60))
    (tmp_path / "fine.py").write_text(branches("small", 3))
    run = subprocess.run(
        [sys.executable, str(ROOT / "tools/complexity.py"), str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 1
    assert run.stdout.splitlines() == [
        f"{tmp_path}/both.py:2: activate is 122 lines long (at most 60) and has a "
        "complexity of 61 (at most 15)",
        f"{tmp_path}/long.py:1: resolve is 70 lines long (at most 60)",
    ]
    assert "2 functions" in run.stderr


def test_the_command_passes_code_within_the_limits(tmp_path: Path) -> None:
    # Complexity 15 and 60 lines: at the limits, not over them.
    (tmp_path / "fine.py").write_text(branches("small", 14) + "\n\n" + function_of("f", 60))
    run = subprocess.run(
        [sys.executable, str(ROOT / "tools/complexity.py"), str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (run.returncode, run.stdout.count("at most 60 lines")) == (0, 1)


def test_a_path_that_is_not_there_is_an_error_not_a_pass(tmp_path: Path) -> None:
    assert tool.main([str(tmp_path / "no-such-folder")]) == 2


def test_dev_py_test_runs_the_check_on_rules_before_pytest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests.test_dev import load_dev

    dev = load_dev()
    seen: list[list[tuple[str, list[str]]]] = []

    def steps(given: list[tuple[str, list[str]]]) -> int:
        seen.append(list(given))
        return 0

    monkeypatch.setattr(dev, "run_steps", steps)
    assert dev.command_test(["-x"]) == 0  # type: ignore[attr-defined]
    names = [name for name, _ in seen[0]]
    assert names.index("complexity") < names.index("pytest")
    command = dict(seen[0])["complexity"]
    assert command[1:] == [str(ROOT / "tools/complexity.py"), "rules"]
