"""The pytest plugin: the same device tests against a simulator or a device at --device-url."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tablectl.simulators.factory import build_device
from tablectl.simulators.pty_server import PtyServer

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
    result.assert_outcomes(passed=3, skipped=1)
    result.stdout.fnmatch_lines(["*the device lacks teleport*"])


def test_device_url_points_the_same_tests_at_a_real_device(pytester, real_shoe) -> None:
    pytester.makepyfile(DEVICE_TESTS)
    result = pytester.runpytest_inprocess(*QUIET, "-rs", "--device-url", real_shoe, "--device-kind", "shoe")
    result.assert_outcomes(passed=1, skipped=3)
    result.stdout.fnmatch_lines(
        ["*needs a simulated device*", "*the device lacks teleport*", "*the device under test is a shoe, not a csm*"]
    )


def test_an_environment_file_names_the_device(pytester, real_shoe) -> None:
    pytester.makepyfile(DEVICE_TESTS)
    env = pytester.makefile(".toml", rig=f'[device]\nurl = "{real_shoe}"\nkind = "shoe"\n')
    result = pytester.runpytest_inprocess(*QUIET, "--device-env", str(env))
    result.assert_outcomes(passed=1, skipped=3)


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
