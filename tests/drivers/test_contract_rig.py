"""The whole contract suite on a rig: each device a separate ``tablectl sim`` process, reached
only through its address and acted on only through the ``control`` actuator, as a rig's own
actuator plug-in would act on real hardware."""

from __future__ import annotations

import socket
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: Every contract test of each family (a new contract test must run on a rig too).
CONTRACT_TESTS = {"shoe": 10, "csm": 10, "shuffler": 11}
SIM_OPTIONS = {"shoe": ["--decks", "1"], "csm": ["--decks", "1"], "shuffler": []}
#: What the last session left: a one-deck shoe and CSM dealt down to 12 cards, every device jammed.
LEFT_OVER = {"shoe": ["draw 40", "fault jam"], "csm": ["draw 40", "fault jam"], "shuffler": ["fault jam"]}


def control(address: str, line: str) -> str:
    host, port = address.rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=10) as s, s.makefile("rw") as f:
        f.write(line + "\n")
        f.flush()
        return f.readline().strip()


@pytest.fixture
def rig() -> Iterator[dict[str, tuple[str, str]]]:
    """kind -> (device address, control channel) of three simulators running as processes."""
    procs: list[subprocess.Popen[str]] = []
    served: dict[str, tuple[str, str]] = {}
    try:
        for kind, options in SIM_OPTIONS.items():
            p = subprocess.Popen(
                [sys.executable, "-m", "tablectl", "sim", kind, "--seed", "11", *options,
                 "--tcp", "127.0.0.1:0", "--control", "127.0.0.1:0"],
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
            )
            procs.append(p)
            assert p.stdout is not None
            served[kind] = (p.stdout.readline().strip(), p.stdout.readline().strip())
            assert served[kind][0].startswith("socket://"), f"tablectl sim {kind} did not start"
        yield served
    finally:
        for p in procs:
            p.terminate()
            p.wait(10)
            assert p.stdout is not None
            p.stdout.close()


def outcomes(junit: Path) -> dict[str, list[str]]:
    """passed / failed / skipped -> test names (skipped with their reasons)."""
    out: dict[str, list[str]] = {"passed": [], "failed": [], "skipped": []}
    for case in ET.parse(junit).iter("testcase"):
        skipped = case.find("skipped")
        if skipped is not None:
            out["skipped"].append(f"{case.get('name')}: {skipped.get('message')}")
        elif case.find("failure") is not None or case.find("error") is not None:
            out["failed"].append(case.get("name", ""))
        else:
            out["passed"].append(case.get("name", ""))
    return out


def test_every_contract_test_runs_on_a_rig_driven_only_through_the_actuator(
    rig: dict[str, tuple[str, str]], tmp_path: Path
) -> None:
    for kind, (address, channel) in rig.items():
        for line in LEFT_OVER[kind]:
            assert control(channel, line).startswith("ok ")
    runs = {}
    for kind, (address, channel) in rig.items():
        runs[kind] = subprocess.Popen(
            [sys.executable, "-m", "pytest", f"tests/drivers/test_contract_{kind}.py", "-p", "no:cacheprovider",
             "--device-url", address, "--device-kind", kind, "--device-actuator", f"control:{channel}",
             f"--junitxml={tmp_path / kind}.xml", "-q"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
    for kind, run in runs.items():
        output, _ = run.communicate(timeout=300)
        result = outcomes(tmp_path / f"{kind}.xml")
        assert result["failed"] == [] and result["skipped"] == [], f"{kind}:\n{output}"
        assert len(result["passed"]) == CONTRACT_TESTS[kind], f"{kind}:\n{output}"
        assert run.returncode == 0
        assert control(rig[kind][1], "status").endswith("faults=")  # the strategy cleared the jam (and loaded)
