"""`layercast serve`'s options as its users meet them: `--help` byte for byte (serve-help.txt, taken
from the binary before the options moved into one Configuration), the README's usage block
agreeing with it, and each refused value's message and exit status."""
import os
import re
import subprocess
from pathlib import Path

import pytest

from conftest import BINARY, REPO, _require_binary

HELP = Path(__file__).with_name("serve-help.txt")


def serve(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    _require_binary()
    environment = {k: v for k, v in os.environ.items() if not k.startswith("LAYERCAST_")}
    environment.update(env or {})
    return subprocess.run([str(BINARY), "serve", *args], capture_output=True, text=True, timeout=30,
                          env=environment, cwd="/tmp")


def test_help_is_unchanged():
    result = serve("--help")
    assert result.returncode == 0
    assert result.stdout == HELP.read_text()


def readme_usage() -> str:
    text = (REPO / "README.md").read_text()
    start = text.index("    layercast serve [")
    return text[start:text.index("\n\n", start)]


def test_readme_usage_agrees_with_help():
    help_text = HELP.read_text()
    # each option of the help, with its default when it shows one
    defaults = {}
    for block in re.split(r"\n(?=  --)", help_text):
        name = re.match(r"  (--[a-z0-9-]+)", block)
        if name:
            default = re.search(r"\(default: ([^)]+)\)", block.replace("\n", " ").replace("  ", " "))
            defaults[name.group(1)] = default.group(1) if default else None
    usage = readme_usage()
    named = re.findall(r"\[(--[a-z0-9-]+)(?: ([^\]]+))?\]", usage)
    assert len(named) >= 40
    for flag, value in named:
        if flag == "--no-permessage-deflate":
            assert "--permessage-deflate/--no-permessage-deflate" in help_text
            continue
        assert flag in defaults, f"README names {flag}, which serve --help does not"
        if value and defaults[flag] is not None and re.fullmatch(r"[a-z0-9.x]+", value):
            same = defaults[flag] == value or (re.fullmatch(r"[0-9.]+", value) and float(defaults[flag]) == float(value))
            assert same, f"README: {flag} {value}; help: {defaults[flag]}"
    own = set(re.findall(r"^  (--[a-z0-9-]+)", help_text, re.M)) - {"--help", "--version"}
    missing = own - {flag for flag, _ in named} - {"--permessage-deflate", "--drop-frames-every"}
    assert not missing, f"serve --help has options the README's usage block leaves out: {missing}"


@pytest.mark.parametrize("args, env, message", [
    (["--fps", "0"], {}, "--fps must be between 1 and 120"),
    (["--port", "70000"], {}, "--port must be between 0 and 65535"),
    (["--max-clients", "0"], {}, "--max-clients must be at least 1"),
    (["--max-rooms", "0"], {}, "--max-rooms must be at least 1"),
    (["--max-particles", "100001"], {}, "--max-particles must be between 0 and 100000"),
    (["--room-idle=-1"], {}, "--room-idle must be a finite number ≥ 0"),
    (["--stall-timeout", "0"], {}, "--stall-timeout must be a finite number > 0"),
    (["--body-timeout", "0"], {}, "--body-timeout must be above 0 and at most 3600 seconds"),
    (["--head-timeout", "4000"], {}, "--head-timeout must be above 0 and at most 3600 seconds"),
    (["--host-tap-rate", "0"], {},
     "--host-connections, --host-anonymous-joins and --host-tap-rate must be at least 1"),
    (["--cluster", "http://x"], {}, "--cluster: the cluster address must be redis://HOST:PORT[/DB], not http://x"),
    ([], {"LAYERCAST_CLUSTER": "http://x"},
     "--cluster: the cluster address must be redis://HOST:PORT[/DB], not http://x"),
    (["--node-id", "a/b"], {}, "--node-id must be 1…64 letters, digits, '.', '_' or '-'"),
    (["--workers", "2"], {}, "--workers needs --cluster: the workers are nodes of one cluster"),
    (["--workers", "2", "--cluster", "redis://127.0.0.1:1", "--port", "0"], {}, "--workers needs a fixed --port (they share it)"),
    (["--workers", "65"], {}, "--workers must be between 1 and 64"),
    (["--ledger-deadline", "3"], {}, "--ledger-deadline must be between 0.05 and 2 seconds"),
    (["--ledger-queue", "0"], {}, "--ledger-queue must be between 1 and 100000"),
    (["--ledger", "nope://x"], {},
     "--ledger: the ledger must be a URL postgres://USER@HOST:PORT/DB (or postgresql://) or memory:, not \"nope://x\"; "
     "leave it out for SQLite under --data"),
    (["--ledger", "memory:", "--cluster", "redis://127.0.0.1:1"], {},
     "--ledger memory: cannot serve a cluster: its nodes share one ledger, and a memory ledger is one process's own"),
    (["--admin-token", "short"], {}, "--admin-token must be at least 16 characters"),
    ([], {"LAYERCAST_ADMIN_TOKEN": "short"}, "--admin-token must be at least 16 characters"),
    ([], {"LAYERCAST_TOKEN_SECRET": "short"}, "--token-secret must be at least 16 characters"),
    (["--player-id-secret", "short"], {}, "--player-id-secret must be at least 16 characters"),
    (["--drop-frames-every", "1"], {}, "--drop-frames-every must be 0 (off) or at least 2"),
    (["--fps", "x"], {}, "The value 'x' is invalid for '--fps <fps>'"),
])
def test_a_refused_value_is_named_and_exits_64(args, env, message):
    result = serve(*args, env=env)
    assert result.returncode == 64, result.stderr
    assert result.stderr.splitlines()[0] == f"Error: {message}"
    assert result.stdout == ""
