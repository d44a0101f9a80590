"""``ecov-eval --config FILE.yaml``: any option of the command, kept in a file (YAML or JSON).

The file is a mapping of option names (``model``, ``max-rounds`` or ``max_rounds``, ...) to values; it is
turned into command-line arguments placed before the ones typed, so that a typed option overrides the
file's (click keeps the last value of a single-valued option). Lists become repeated options
(``task-id: [uart, alu_flags]``), ``true`` a flag, ``false`` or ``null`` nothing; ``n: 3`` is ``-n 3``.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

FLAG = "--config"


def expand_config(args: list[str], command: click.Command) -> list[str]:
    """``args`` with ``--config FILE`` (or ``--config=FILE``) replaced by the file's options."""
    out, i = [], 0
    while i < len(args):
        a = args[i]
        if a == FLAG or a.startswith(FLAG + "="):
            if a == FLAG:
                if i + 1 >= len(args):
                    raise click.BadParameter("needs a file name", param_hint=FLAG)
                path, i = args[i + 1], i + 2
            else:
                path, i = a.split("=", 1)[1], i + 1
            return _from_file(Path(path), command) + out + args[i:]
        out.append(a)
        i += 1
    return out


def _from_file(path: Path, command: click.Command) -> list[str]:
    try:
        text = path.read_text()
    except OSError as e:
        raise click.BadParameter(f"cannot read {path}: {e.strerror or e}", param_hint=FLAG) from None
    try:
        if path.suffix == ".json":
            data = json.loads(text)
        else:
            import yaml  # only a --config run needs it

            data = yaml.safe_load(text)
    except Exception as e:  # noqa: BLE001 - any parse error is the file's fault: one line
        raise click.BadParameter(f"{path} is not valid {'JSON' if path.suffix == '.json' else 'YAML'}: "
                                 f"{str(e).splitlines()[0]}", param_hint=FLAG) from None
    if not isinstance(data, dict):
        raise click.BadParameter(f"{path} must hold a mapping of option names to values", param_hint=FLAG)
    known = {o.lstrip("-"): (p, o) for p in command.params for o in getattr(p, "opts", []) if o.startswith("-")}
    args: list[str] = []
    for key, value in data.items():
        name = str(key).replace("_", "-")
        if name not in known:
            raise click.BadParameter(f"{path}: unknown option {key!r} (known: {', '.join(sorted(known))})",
                                     param_hint=FLAG)
        param, opt = known[name]
        if getattr(param, "is_flag", False):
            if value:
                args.append(opt)
            continue
        if value is None or value is False:
            continue
        for v in value if isinstance(value, list) else [value]:
            args += [opt, str(v)]
    return args
