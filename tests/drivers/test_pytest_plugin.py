"""The pytest plugin: the same device tests against a simulator or a device at --device-url."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tablectl.simulators.factory import build_device
from tablectl.simulators.serving.pty import PtyServer

pytest_plugins = ["pytester"]

# inner runs load only what they need (hypothesis alone takes a second to import)
QUIET = ("-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-p", "no:benchmark", "-p", "no:pytest_mock")

DEVICE_TESTS = """
import pytest
from tablectl.drivers import events as ev

pytestmark = pytest.mark.device("shoe")

def test_identity(device_driver):
    assert device_driver.identity.kind is ev.DeviceKind.SHOE

def test_needs_the_dealer(device_sim):
    pass

def test_draws_a_card(device_driver, device_actuator, device_events):
    device_actuator.draw(1)
    assert device_events.wait_type(ev.CardDrawn)[0].card is not None

@pytest.mark.requires("teleport")
def test_needs_a_capability(device_driver):
    pass

@pytest.mark.device("csm")
def test_for_a_csm(device_driver):
    pass
"""


@pytest.fixture
def real_shoe() -> Iterator[str]:
    """A device at an address, as real hardware would be (the test does not hold its SimDevice)."""
    with PtyServer(build_device("shoe", seed=3)) as server:
        yield server.address


def test_by_default_each_test_gets_a_simulator(pytester) -> None:
    pytester.makepyfile(DEVICE_TESTS)
    result = pytester.runpytest_inprocess(*QUIET, "-rs")
    result.assert_outcomes(passed=4, skipped=1)
    result.stdout.fnmatch_lines(["*the device lacks teleport*"])


def test_device_url_points_the_same_tests_at_a_real_device(pytester, real_shoe) -> None:
    pytester.makepyfile(DEVICE_TESTS)
    result = pytester.runpytest_inprocess(*QUIET, "-rs", "--device-url", real_shoe, "--device-kind", "shoe")
    result.assert_outcomes(passed=1, skipped=4)
    result.stdout.fnmatch_lines(
        [
            "*needs a simulated device*",
            "*needs an actuator to draw 1 card from the shoe*--device-actuator NAME*--device-operator prompt*",
            "*the device lacks teleport*",
            "*the device under test is a shoe, not a csm*",
        ],
        consecutive=False,
    )


def test_a_real_device_is_tested_one_test_at_a_time_whatever_n_says(pytester, real_shoe) -> None:
    pytester.makepyfile(DEVICE_TESTS)
    result = pytester.runpytest_inprocess(*QUIET, "-n", "2", "--device-url", real_shoe, "--device-kind", "shoe")
    result.assert_outcomes(passed=1, skipped=4)
    assert "workers" not in result.stdout.str() and "[gw" not in result.stdout.str()


def test_an_environment_file_names_the_device(pytester, real_shoe) -> None:
    pytester.makepyfile(DEVICE_TESTS)
    env = pytester.makefile(".toml", rig=f'[device]\nurl = "{real_shoe}"\nkind = "shoe"\n')
    result = pytester.runpytest_inprocess(*QUIET, "--device-env", str(env))
    result.assert_outcomes(passed=1, skipped=4)


def test_sim_transport_runs_each_device_test_over_each_transport(pytester) -> None:
    pytester.makepyfile(
        """
        import pytest
        @pytest.mark.device("shuffler")
        def test_status(device_driver):
            device_driver.request_status()
        """
    )
    result = pytester.runpytest_inprocess(*QUIET, "-v", "--sim-transport", "pty,tcp,usb")
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(["*test_status?pty?*", "*test_status?tcp?*", "*test_status?usb?*"])


def test_a_test_that_leaves_a_driver_running_fails(pytester) -> None:
    pytester.makepyfile(
        """
        from tablectl.drivers.registry import open_device

        def test_leaks(device_address):
            open_device("shoe", device_address, "leaky", lambda *a: None)
        """
    )
    result = pytester.runpytest_subprocess(*QUIET)  # the leaked thread dies with it
    result.stdout.fnmatch_lines(["*driver threads left running*tablectl-driver:leaky*"])
    assert result.ret != 0


# --- actuators: plug-ins, usage errors, the prompt operator on a real terminal ------------------

RELAY_PLUGIN = """
from tablectl.hil import Actuator


class RelayBoard(Actuator):
    \"\"\"A rig that can only switch the device's supply.\"\"\"

    name = "relay"

    def power_cycle(self):
        pass  # the relay would open and close here
"""


def test_a_rig_plugin_is_found_through_its_entry_point_and_skips_what_it_cannot_do(
    pytester, monkeypatch, real_shoe
) -> None:
    site = pytester.mkdir("site")
    (site / "acme_rig.py").write_text(RELAY_PLUGIN)
    dist = site / "acme_rig-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: acme-rig\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[tablectl.actuators]\nrelay = acme_rig:RelayBoard\n")
    monkeypatch.setenv("PYTHONPATH", str(site))
    pytester.makepyfile(DEVICE_TESTS)
    result = pytester.runpytest_subprocess(
        *QUIET, "-rs", "--device-url", real_shoe, "--device-kind", "shoe", "--device-actuator", "relay:board-1"
    )
    result.assert_outcomes(passed=1, skipped=4)
    result.stdout.fnmatch_lines(["*the 'relay' actuator cannot draw 1 card from the shoe*"])


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (("--device-actuator", "nosuch"), "*unknown actuator 'nosuch' (known: control, prompt*"),
        (("--device-operator", "prompt"), "*--device-actuator acts on a real device: give --device-url and --device-kind*"),
        (("--device-actuator", "prompt:soon"), "*the timeout 'soon' is not a number of seconds*"),
        (("--device-actuator", "control:nowhere"), "*expected control:HOST:PORT, got 'nowhere'*"),
    ],
)
def test_a_bad_actuator_is_a_usage_error(pytester, real_shoe, options: tuple[str, ...], message: str) -> None:
    pytester.makepyfile(DEVICE_TESTS)
    device = ("--device-url", real_shoe, "--device-kind", "shoe") if options[0] != "--device-operator" else ()
    result = pytester.runpytest_inprocess(*QUIET, *device, *options)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])


PROMPTED = """
import pytest
from tablectl.drivers import events as ev

pytestmark = pytest.mark.device("shoe")

def test_a_card_the_technician_draws_is_reported(device_driver, device_actuator, device_events):
    device_actuator.draw(1)
    assert device_events.wait_type(ev.CardDrawn)[0].card is not None
"""

#: Runs its arguments with the pty on stdin as the controlling terminal (the session is new).
_WITH_A_TERMINAL = (
    "import fcntl, os, sys, termios; fcntl.ioctl(0, termios.TIOCSCTTY, 0); "
    "os.execv(sys.executable, [sys.executable, *sys.argv[1:]])"
)


class Terminal:
    """A command running on a real pty that is its controlling terminal: read its screen, type."""

    def __init__(self, args: list[str], cwd: Path) -> None:
        self.master, slave = os.openpty()
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _WITH_A_TERMINAL, *args],
            stdin=slave, stdout=slave, stderr=slave, cwd=cwd, start_new_session=True,
        )
        os.close(slave)
        self.screen = ""

    def _read(self, timeout: float) -> bool:
        if not select.select([self.master], [], [], timeout)[0]:
            return True
        try:
            data = os.read(self.master, 65536)
        except OSError:  # EIO: every process holding the terminal has gone
            data = b""
        self.screen += data.decode("utf-8", "replace")
        return bool(data)

    def wait_for(self, text: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.screen:
            left = deadline - time.monotonic()
            assert left > 0 and self._read(left), f"{text!r} never appeared on the terminal:\n{self.screen}"

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def finish(self, timeout: float = 60) -> int:
        """Read to the end; the exit code."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self._read(deadline - time.monotonic()):
            pass
        code = self.proc.wait(timeout=max(1, deadline - time.monotonic()))
        os.close(self.master)
        return code


@pytest.fixture
def shoe_on_the_bench() -> Iterator[tuple[str, Any]]:
    """A shoe served at an address, and the shoe itself for the technician's hands."""
    shoe = build_device("shoe", seed=5)
    with PtyServer(shoe) as server:
        yield server.address, shoe


def prompted_pytest(pytester, address: str, operator: str) -> Terminal:
    pytester.makepyfile(PROMPTED)
    args = ["-m", "pytest", *QUIET, "-rs", f"--device-url={address}", "--device-kind=shoe", f"--device-operator={operator}"]
    return Terminal(args, pytester.path)


def test_the_prompt_operator_waits_for_the_technician_to_act_and_press_enter(pytester, shoe_on_the_bench) -> None:
    address, shoe = shoe_on_the_bench
    terminal = prompted_pytest(pytester, address, "prompt:60")
    terminal.wait_for("draw 1 card from the shoe")
    terminal.wait_for("then press Enter")
    shoe.draw()
    terminal.type("\n")
    assert terminal.finish() == 0, terminal.screen
    assert "1 passed" in terminal.screen


def test_the_prompt_operator_fails_the_test_when_nobody_answers_in_time(pytester, shoe_on_the_bench) -> None:
    address, _ = shoe_on_the_bench
    terminal = prompted_pytest(pytester, address, "prompt:1")
    assert terminal.finish() == 1, terminal.screen
    assert "nobody confirmed 'draw 1 card from the shoe' within 1 s" in terminal.screen
    assert "1 failed" in terminal.screen


def test_the_technician_can_say_an_action_cannot_be_done_here(pytester, shoe_on_the_bench) -> None:
    address, _ = shoe_on_the_bench
    terminal = prompted_pytest(pytester, address, "prompt:60")
    terminal.wait_for("then press Enter")
    terminal.type("s\n")
    assert terminal.finish() == 0, terminal.screen
    assert "the operator could not draw 1 card from the shoe" in terminal.screen
    assert "1 skipped" in terminal.screen
