"""x"""

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from analyzer.compute.runner import observed
from tests.paths import RECORDS, ROOT, hands_file
from tests.test_hostile import assert_one_error, run_cli

pytestmark = pytest.mark.cli


@pytest.mark.parametrize("where", ["missing-folder", "parent-is-a-file", "read-only"])
def test_unwritable_outputs_fail_before_any_work(tmp_path, where):
    f = hands_file(tmp_path)
    if where == "missing-folder":
        base = tmp_path / "nowhere"
    elif where == "parent-is-a-file":
        base = f
    else:
        base = tmp_path / "locked"
        base.mkdir()
        base.chmod(0o500)
        if os.access(base, os.W_OK):  # root writes anywhere: use a folder nobody can write
            base = Path("/proc")
    commands = [
        ["evaluate", str(f), "--variant", "knock", "--deals", "50", "-o", str(base / "o.csv")],
        ["table", "--variant", "knock", "--deals", "200", "-o", str(base / "t")],
        ["report", "--variant", "knock", "--deals", "200", "-o", str(base / "r.html")],
        ["review", str(RECORDS / "knock_misplay.json"), "--call-deals", "50", "-o",
         str(base / "d.csv")],
    ]
    chunks = []  # every chunk of work any of them ran (the runner's progress hook)
    with observed(lambda done, total: chunks.append(done), threading.Event()):
        for args in commands:
            line = assert_one_error(args)
            assert str(base) in line or "/proc" in line, line
        assert chunks == []  # refused before the work, not after
        # the hook does see work: the same evaluate with an output it can write
        assert run_cli(commands[0][:-1] + [str(tmp_path / "o.csv")])[0] == 0
    assert chunks
    assert not (tmp_path / "nowhere").exists()


def test_outputs_are_written_whole(tmp_path, monkeypatch):
    """A crash while writing leaves the old file, not half a new one."""
    from analyzer.outputs import written_whole

    target = tmp_path / "r.html"
    target.write_text("old")
    with pytest.raises(RuntimeError), written_whole(target) as tmp:
        tmp.write_text("half")
        raise RuntimeError("crash")
    assert target.read_text() == "old" and list(tmp_path.iterdir()) == [target]


def test_a_closed_pipe_is_not_an_error():
    done = subprocess.run(f"{sys.executable} -m analyzer review "
                          f"{RECORDS / 'knock_misplay.json'} --call-deals 0 | head -1",
                          shell=True, capture_output=True, text=True, cwd=ROOT,
                          executable="/bin/bash", env=dict(os.environ, SHELLOPTS="pipefail"))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
