"""The commit-msg hook `make` installs (tools/git-hooks/commit-msg, issue 54): a subject of at most
72 characters (counted as characters, umlauts included), the story in the body."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

HOOK = Path(__file__).resolve().parents[1] / "tools/git-hooks/commit-msg"


def run_hook(tmp_path: Path, message: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "COMMIT_EDITMSG"
    path.write_text(message, encoding="utf-8")
    return subprocess.run(["sh", str(HOOK), str(path)], capture_output=True, text=True, check=False)


@pytest.mark.parametrize("subject", ["x" * 72, "ä" * 72, "Sessions v2: seat seeds, open seats, reveal at the end"])
def test_a_subject_of_at_most_72_characters_passes(tmp_path, subject):
    assert run_hook(tmp_path, f"{subject}\n\nThe story and the figures.\n").returncode == 0


@pytest.mark.parametrize("subject", ["x" * 73, "ü" * 73])
def test_a_longer_subject_is_refused_with_its_length(tmp_path, subject):
    refused = run_hook(tmp_path, f"{subject}\n\nbody\n")
    assert refused.returncode == 1 and "73 characters" in refused.stderr


def test_comment_lines_are_not_the_subject_and_an_empty_message_is_refused(tmp_path):
    assert run_hook(tmp_path, "# Please enter the commit message\nShort subject\n").returncode == 0
    assert run_hook(tmp_path, "# only comments\n").returncode == 1


def test_make_installs_the_hook():
    assert "git config core.hooksPath tools/git-hooks" in (HOOK.parents[2] / "Makefile").read_text()
