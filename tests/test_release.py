"""The release's digest (``config.release``): the same code gives the same digest, any
change to a code file gives another, and what running the code makes does not count."""

from __future__ import annotations

from pathlib import Path

from config.release import CODE_FOLDERS, code_digest, release


def tree(base: Path) -> Path:
    (base / "app" / "__pycache__").mkdir(parents=True)
    (base / "app" / "views.py").write_text("def page(): ...\n")
    (base / "templates").mkdir()
    (base / "templates" / "map.html").write_text("<nav>Turns</nav>\n")
    return base


def test_the_same_files_give_the_same_digest(tmp_path: Path) -> None:
    base = tree(tmp_path)
    assert code_digest(base, ["app", "templates"]) == code_digest(base, ["app", "templates"])


def test_a_changed_template_or_module_gives_another_digest(tmp_path: Path) -> None:
    base = tree(tmp_path)
    before = code_digest(base, ["app", "templates"])
    (base / "templates" / "map.html").write_text("<nav>Turns · Battles</nav>\n")
    after_template = code_digest(base, ["app", "templates"])
    (base / "app" / "views.py").write_text("def page(): return 1\n")
    after_module = code_digest(base, ["app", "templates"])
    assert len({before, after_template, after_module}) == 3


def test_a_new_or_renamed_file_gives_another_digest(tmp_path: Path) -> None:
    base = tree(tmp_path)
    before = code_digest(base, ["app", "templates"])
    (base / "templates" / "map.html").rename(base / "templates" / "area.html")
    renamed = code_digest(base, ["app", "templates"])
    (base / "app" / "lists.py").write_text("")
    added = code_digest(base, ["app", "templates"])
    assert len({before, renamed, added}) == 3


def test_bytes_moved_from_one_file_to_the_next_give_another_digest(tmp_path: Path) -> None:
    """Each file's path and bytes go in with their lengths: "ab" + "c" is not "a" + "bc"."""
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "a.py").write_text("ab")
    (tmp_path / "app" / "b.py").write_text("c")
    first = code_digest(tmp_path, ["app"])
    (tmp_path / "app" / "a.py").write_text("a")
    (tmp_path / "app" / "b.py").write_text("bc")
    assert code_digest(tmp_path, ["app"]) != first


def test_compiled_files_and_screenshots_are_not_the_release(tmp_path: Path) -> None:
    base = tree(tmp_path)
    before = code_digest(base, ["app", "templates"])
    (base / "app" / "__pycache__" / "views.cpython-311.pyc").write_bytes(b"\x00compiled")
    (base / "app" / "__pycache__" / "stale.py").write_text("left by an editor")
    (base / "templates" / "map.png").write_bytes(b"\x89PNG")
    assert code_digest(base, ["app", "templates"]) == before


def test_the_release_is_of_this_projects_code() -> None:
    assert set(CODE_FOLDERS) >= {"campaign", "battles", "templates"}
    assert release() == release()
    assert len(release().split("|")[0]) == 64
