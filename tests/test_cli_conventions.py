"""One CLI convention (issue 35): -h/--help and --version on all five commands, subcommands in each help,
the README's command table and the error messages' lists taken from what is really registered."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from ecov.harness.benchmark.spec import benchmark_names
from ecov.harness.benchmark.store import BenchmarkNotFound, load_benchmark
from ecov.harness.cli import data as data_cli
from ecov.harness.cli import eval as eval_cli
from ecov.harness.cli import score as score_cli
from ecov.harness.models import UnknownModelError, builtin_names, get_model
from ecov.leaderboard import cli as board_cli
from ecov.trainers import cli as train_cli

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = {
    "ecov-eval": eval_cli.eval_cmd,
    "ecov-score": score_cli.cli,
    "ecov-data": data_cli.main,
    "ecov-leaderboard": board_cli.main,
    "ecov-train": train_cli.main,
}


def _command(name: str) -> click.Command:
    return COMMANDS[name]


@pytest.mark.parametrize("name", sorted(COMMANDS))
@pytest.mark.parametrize("flag", ["-h", "--help", "--version"])
def test_every_cli_takes_help_and_version(name, flag):
    result = CliRunner().invoke(_command(name), [flag], prog_name=name)
    assert result.exit_code == 0, result.output
    if flag == "--version":
        assert re.fullmatch(rf"{name}, version \d+\.\d+\.\d+\n", result.output)
    else:
        assert result.output.startswith(f"Usage: {name}")


def _readme_rows() -> dict[str, str]:
    rows = {}
    for line in (ROOT / "README.md").read_text().splitlines():
        m = re.match(r"\| `(ecov-[a-z]+) ([^`]*)` \|(.*)\|\s*$", line)
        if m:
            rows[m.group(1)] = m.group(2) + " |" + m.group(3)
    return rows


def test_readme_table_names_every_command_and_subcommand():
    rows = _readme_rows()
    assert set(rows) == set(COMMANDS)
    for name in ("ecov-data", "ecov-leaderboard", "ecov-train"):
        group = _command(name)
        listed = set(rows[name].split(" ", 1)[0].replace("\\|", "|").split("|"))
        assert listed == set(group.commands), (name, listed, sorted(group.commands))
    listed = re.search(r"`ecov-eval ([a-z\\|]+)`", rows["ecov-eval"]).group(1).replace("\\|", "|").split("|")
    assert set(listed) == set(eval_cli.SUBCOMMANDS)
    # ... and every registered builtin model, no more
    assert set(re.findall(r"`(builtin/[a-z-]+)`", rows["ecov-eval"])) == set(builtin_names())


def test_eval_help_lists_subcommands_and_builtins():
    out = CliRunner().invoke(eval_cli.eval_cmd, ["-h"], prog_name="ecov-eval").output
    for sub in eval_cli.SUBCOMMANDS:
        assert re.search(rf"^\s+{sub} ", out, re.M), sub
    flat = " ".join(out.split())
    for builtin in builtin_names():
        assert builtin in flat
    assert "docs/evaluation.md" in flat


def test_unknown_model_lists_every_builtin():
    with pytest.raises(UnknownModelError) as e:
        get_model("builtin/randum")
    for builtin in builtin_names():
        assert builtin in str(e.value)


def test_benchmark_typo_suggests_the_nearest_and_ecov_data_list():
    with pytest.raises(BenchmarkNotFound) as e:
        load_benchmark("cvdp-ecvo")
    msg = str(e.value)
    assert "Did you mean 'cvdp-ecov'" in msg
    assert "ecov-data list" in msg
    for name in benchmark_names():
        assert name in msg
    assert "Build one with" not in msg  # cvdp-ecov ships built: nothing to build
