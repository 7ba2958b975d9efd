"""``usbserial:VID:PID[:SERIAL]``: a USB-serial adapter found by its USB ids through
``serial.tools.list_ports`` at every open, whatever tty name it got this time."""

from __future__ import annotations

import pytest
from serial.tools.list_ports_common import ListPortInfo

from tablectl.config import check_address
from tablectl.drivers.errors import DeviceUnavailable
from tablectl.drivers.transport_serial import resolve_usb_serial


def _port(device: str, vid: int, pid: int, serial_number: str) -> ListPortInfo:
    info = ListPortInfo(device, skip_link_detection=True)
    info.vid, info.pid, info.serial_number = vid, pid, serial_number
    return info


PORTS = [_port("/dev/ttyUSB0", 0x0403, 0x6001, "FT1"), _port("/dev/ttyUSB1", 0x0403, 0x6001, "FT2"),
         _port("/dev/ttyACM0", 0x1209, 0x7AB1, "SN7")]


def test_the_adapter_is_found_by_vid_pid_and_serial_number() -> None:
    assert resolve_usb_serial("usbserial:0403:6001:FT2", PORTS) == "/dev/ttyUSB1"


def test_vid_and_pid_alone_are_enough_when_one_adapter_matches() -> None:
    assert resolve_usb_serial("usbserial:1209:7ab1", PORTS) == "/dev/ttyACM0"


def test_two_matching_adapters_ask_for_the_serial_number() -> None:
    with pytest.raises(DeviceUnavailable, match="2 ports match .*add the serial number"):
        resolve_usb_serial("usbserial:0403:6001", PORTS)


def test_an_adapter_that_is_not_plugged_in_is_named_in_the_error() -> None:
    with pytest.raises(DeviceUnavailable, match="usbserial:0403:6001:FT9: no USB-serial port"):
        resolve_usb_serial("usbserial:0403:6001:FT9", PORTS)


def test_the_config_accepts_a_usb_serial_address_and_refuses_a_bad_one() -> None:
    assert check_address("usbserial:0403:6001:FT1") == "usbserial:0403:6001:FT1"
    with pytest.raises(ValueError, match="hexadecimal"):
        check_address("usbserial:xyz:6001")
