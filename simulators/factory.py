"""Build a ``SimDevice`` from plain options (what the ``tablectl sim`` CLI and test fixtures use)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from pathlib import Path

from tablectl.cards import cards as parse_cards
from tablectl.drivers import messages as msg
from tablectl.drivers.events import DeviceKind
from tablectl.files import MIB, read_regular
from tablectl.simulators.csm import CsmModel
from tablectl.simulators.device import SimDevice
from tablectl.simulators.faults import DEVICE_FAULTS, LINE_FAULTS, FaultPlan, FaultSpec, parse_fault_spec
from tablectl.simulators.linefaults import LineFaults
from tablectl.simulators.model import DeviceModel
from tablectl.simulators.nvstore import NvStore
from tablectl.simulators.shoe import DEFAULT_PENETRATION, ShoeModel
from tablectl.simulators.shuffler import ShufflerModel
from tablectl.simulators.shuffling import ShuffleQuality

#: an order file lists at most 255 decks of cards, a few bytes each
MAX_ORDER_BYTES = 1 * MIB

MODELS: dict[str, type[DeviceModel]] = {"shoe": ShoeModel, "csm": CsmModel, "shuffler": ShufflerModel}
KIND_NAMES: dict[DeviceKind, str] = {DeviceKind.SHOE: "shoe", DeviceKind.CSM: "csm", DeviceKind.SHUFFLER: "shuffler"}


def read_order(path: str | Path) -> list[int]:
    """The explicit card order in the file ``path``: whitespace-separated card texts, the first to
    come out first; ``#`` starts a comment running to the end of its line. A FIFO, a device or a
    file over :data:`MAX_ORDER_BYTES` is refused (``OSError``) without waiting on it or reading it
    whole; a card text that is not a card raises ``CardError``."""
    text = read_regular(path, "card order file", MAX_ORDER_BYTES).decode("utf-8")
    tokens = [token for line in text.splitlines() for token in line.split("#", 1)[0].split()]
    return [int(c) for c in parse_cards(tokens)]


def build_device(
    kind: str | DeviceKind,
    *,
    decks: int | None = None,
    seed: int | None = None,
    order: Iterable[int] | str | Path | None = None,
    faults: Iterable[str | FaultSpec] = (),
    penetration: float = DEFAULT_PENETRATION,
    quality: str | ShuffleQuality = "good",
    riffles: int = 3,
    csm_lag: int = 8,
    protocol_version: int = msg.PROTOCOL_VERSION,
    mute: bool = False,
    serial: str | None = None,
    both_ways: bool = True,
    retransmit_after: float = 0.05,
    load: bool | None = None,
    first_event_no: int = 1,
) -> SimDevice:
    """A simulated ``kind`` device (``"shoe"``, ``"csm"``, ``"shuffler"`` or a ``DeviceKind``).

    ``seed`` None picks a random seed (read it back from ``device.model.seed``). ``order`` is an
    explicit card order (cards, or the path of an order file). ``faults`` are specs such as
    ``"jam=0.01"``, ``"drop@40"``. ``load`` (default: True for a shoe) loads the shoe at once. ``first_event_no``: where the
    device's non-volatile event counter stands (a simulator standing in for a device the table
    has already logged events of carries on from there, as the real device's NV memory would).
    """
    name = KIND_NAMES[kind] if isinstance(kind, DeviceKind) else kind
    if name not in MODELS:
        raise ValueError(f"unknown device kind {name!r} (shoe, csm or shuffler)")
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 31)
    specs = [parse_fault_spec(f) if isinstance(f, str) else f for f in faults]
    cards: list[int] | None
    if isinstance(order, (str, Path)):
        cards = read_order(order)
    else:
        cards = None if order is None else list(order)
    q = quality if isinstance(quality, ShuffleQuality) else ShuffleQuality.named(quality, riffles=riffles, lag=csm_lag)
    kw: dict[str, object] = dict(
        decks=decks,
        seed=seed,
        order=cards,
        faults=FaultPlan.from_specs(specs, DEVICE_FAULTS, seed),
        quality=q,
        store=NvStore(first_no=first_event_no),
    )
    if name == "shoe":
        kw["penetration"] = penetration
    model = MODELS[name](**kw)  # type: ignore[arg-type]
    if load if load is not None else name == "shoe":
        model.load()
    line = LineFaults(FaultPlan.from_specs(specs, LINE_FAULTS, f"{seed}/line"), both_ways=both_ways)
    return SimDevice(
        model,
        serial=serial,
        protocol_version=protocol_version,
        mute=mute,
        line=line,
        retransmit_after=retransmit_after,
    )
