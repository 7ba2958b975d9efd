"""Driver names -> classes: the built-ins, entry-point plug-ins, and one-line errors."""

from __future__ import annotations

import textwrap

import pytest

from tablectl.drivers.csm import CsmDriver
from tablectl.drivers.errors import DeviceUnavailable, UnknownDriver
from tablectl.drivers.registry import ENTRY_POINT_GROUP, driver_class, driver_names, open_device
from tablectl.drivers.shoe import ShoeDriver
from tablectl.drivers.shuffler import BatchShufflerDriver


def test_the_builtin_drivers_are_registered_by_family_name() -> None:
    assert (driver_class("shoe"), driver_class("csm"), driver_class("shuffler")) == (
        ShoeDriver,
        CsmDriver,
        BatchShufflerDriver,
    )


def test_an_unknown_driver_names_the_known_ones() -> None:
    with pytest.raises(UnknownDriver, match=r"^unknown driver 'toaster' \(known: csm, shoe, shuffler\)$"):
        driver_class("toaster")


@pytest.fixture
def plugin_on_path(tmp_path, monkeypatch):
    """An installed distribution declaring a driver in the tablectl.drivers entry-point group."""
    (tmp_path / "acme_drivers.py").write_text(
        textwrap.dedent(
            """
            from tablectl.drivers.shoe import ShoeDriver

            class AcmeShoe(ShoeDriver):
                pass

            class NotADriver:
                pass
            """
        )
    )
    info = tmp_path / "acme_drivers-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: acme-drivers\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        f"[{ENTRY_POINT_GROUP}]\nacme-shoe = acme_drivers:AcmeShoe\nbroken = acme_drivers:NotADriver\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    yield
    import sys

    sys.modules.pop("acme_drivers", None)


def test_an_entry_point_driver_is_listed_and_loaded_by_name(plugin_on_path) -> None:
    assert "acme-shoe" in driver_names()
    cls = driver_class("acme-shoe")
    assert cls.__name__ == "AcmeShoe" and issubclass(cls, ShoeDriver)


def test_an_entry_point_that_is_not_a_driver_is_refused(plugin_on_path) -> None:
    with pytest.raises(UnknownDriver, match="is not a DeviceDriver"):
        driver_class("broken")


def test_open_device_fails_in_one_line_when_the_address_is_bad() -> None:
    with pytest.raises(DeviceUnavailable) as e:
        open_device("shoe", "/dev/ttyTABLECTL-GONE", "shoe1", lambda *_: None)
    assert str(e.value) == "/dev/ttyTABLECTL-GONE: does not exist"
