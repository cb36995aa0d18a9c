"""Every code block in README.md is executed, so the README cannot rot.

Python blocks run as they are, each in a fresh process. Shell blocks run too:
the main-job command as written; ``pip install`` is checked against the extras
in pyproject.toml (installing is CI's first step); ``pytest`` is checked
against .ci/run (this test runs inside it); ``mindjax-run`` starts real workers
of a small script named as in the README.
"""
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
PYTHON_BLOCKS = re.findall(r"```python\n(.*?)```", README, re.S)
SHELL_BLOCKS = re.findall(r"```bash\n(.*?)```", README, re.S)


def _env():
    env = dict(os.environ)
    env.pop("XLA_FLAGS", None)           # blocks set their own device count
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def test_readme_has_the_blocks_this_test_expects():
    assert len(PYTHON_BLOCKS) >= 3 and len(SHELL_BLOCKS) >= 3


@pytest.mark.parametrize("index", range(len(PYTHON_BLOCKS)))
def test_python_block_runs(index, tmp_path):
    script = tmp_path / f"block{index}.py"
    script.write_text(PYTHON_BLOCKS[index])
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=_env(),
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"README python block {index} failed:\n{done.stderr[-3000:]}"


def _commands():
    for block in SHELL_BLOCKS:
        for line in block.strip().splitlines():
            for part in line.split("&&"):
                yield shlex.split(part.strip())


def test_pip_install_commands_name_existing_extras():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    seen = []
    for cmd in _commands():
        if cmd[:2] == ["pip", "install"]:
            spec = cmd[-1]
            assert cmd[2] == "-e" and spec.startswith(".["), cmd
            seen += spec[2:-1].split(",")
    assert set(seen) == {"examples", "test"} and set(seen) <= set(extras)


def test_pytest_command_is_what_ci_runs():
    ci = (ROOT / ".ci" / "run").read_text()
    readme_pytest = [cmd for cmd in _commands() if cmd[:1] == ["pytest"]]
    assert readme_pytest == [["pytest"]]
    assert 'pip install --quiet -e ".[test]"' in ci and re.search(r"^pytest\b", ci, re.M)


def test_main_job_command_runs_as_written(tmp_path):
    [cmd] = [c for c in _commands() if c[:2] == ["python", "examples/lenet/train.py"]]
    done = subprocess.run([sys.executable, *cmd[1:], "--no-progress", "--out", str(tmp_path)],
                          cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    accuracy = float(re.search(r"held-out accuracy ([0-9.]+)", done.stdout).group(1))
    assert accuracy >= 0.97, done.stdout
    assert list(tmp_path.glob("lenet-*/checkpoint/*.ckpt")) and list(tmp_path.glob("lenet-*/curves.png"))


def test_multi_process_command_runs_as_written(tmp_path):
    [cmd] = [c for c in _commands() if c[:1] == ["mindjax-run"]]
    (tmp_path / cmd[-1]).write_text(
        "from mindjax.communication import init, get_rank, get_group_size\n"
        "init()\nprint('rank', get_rank(), 'of', get_group_size())\n")
    port = 20000 + os.getpid() % 20000          # the README's port may be taken on a shared machine
    cmd[cmd.index("--master_port") + 1] = str(port)
    done = subprocess.run([sys.executable, "-m", "mindjax.parallel.launcher", *cmd[1:]], cwd=tmp_path,
                          env=_env(), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "rank 0 of 2" in done.stdout and "rank 1 of 2" in done.stdout
