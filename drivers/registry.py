"""Driver names -> driver classes, and ``open_device``: the one call the controller makes.

Built-in drivers are ``shoe``, ``csm`` and ``shuffler``. Others plug in through the entry-point
group ``tablectl.drivers`` (name -> ``module:Class``, a ``DeviceDriver`` subclass), loaded only
when asked for by name, as python-can loads its interfaces::

    [project.entry-points."tablectl.drivers"]
    acme-shoe = "acme_tablectl.shoe:AcmeShoeDriver"
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from tablectl.drivers.errors import UnknownDriver

if TYPE_CHECKING:  # imported where a driver is opened: naming the drivers needs none of it
    from tablectl.drivers.driver import DeviceDriver, Sink

ENTRY_POINT_GROUP = "tablectl.drivers"

BUILTIN: dict[str, str] = {
    "shoe": "tablectl.drivers.shoe:ShoeDriver",
    "csm": "tablectl.drivers.csm:CsmDriver",
    "shuffler": "tablectl.drivers.shuffler:BatchShufflerDriver",
}


def _plugins() -> dict[str, Any]:
    from importlib.metadata import entry_points

    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def driver_names() -> list[str]:
    """Every driver name: built-in and installed plug-ins."""
    return sorted(set(BUILTIN) | set(_plugins()))


def is_driver(name: str) -> bool:
    """Whether ``name`` is a driver (the installed plug-ins are looked up only for a name that is
    not built in)."""
    return name in BUILTIN or name in _plugins()


def driver_class(name: str) -> type[DeviceDriver]:
    """The driver class for a name (imports it on first use)."""
    from tablectl.drivers.driver import DeviceDriver

    if name in BUILTIN:
        module, _, attr = BUILTIN[name].partition(":")
        cls = getattr(importlib.import_module(module), attr)
    else:
        ep = _plugins().get(name)
        if ep is None:
            raise UnknownDriver(f"unknown driver {name!r} (known: {', '.join(driver_names())})")
        cls = ep.load()
    if not (isinstance(cls, type) and issubclass(cls, DeviceDriver)):
        raise UnknownDriver(f"driver {name!r} is not a DeviceDriver ({cls!r})")
    return cls


def open_device(
    driver_name: str,
    address: str,
    name: str,
    sink: Sink,
    *,
    usb_backend: Any = None,
    **opts: Any,
) -> DeviceDriver:
    """Connect to a device and start its driver; returns the running driver (its ``identity`` is
    the device's Identify). ``opts`` go to the driver (``resume_after``, ``answer_timeout``, ...).

    Raises ``UnknownDriver`` (bad name) or a ``DriverError`` subclass with a one-line message:
    ``DeviceUnavailable``, ``NoAnswer``, ``VersionMismatch``, ``WrongDevice``, ``DeviceRefused``.
    """
    from tablectl.drivers.transport import transport_for

    cls = driver_class(driver_name)
    driver = cls(name, transport_for(address, usb_backend=usb_backend), sink, **opts)
    driver.start()
    return driver
