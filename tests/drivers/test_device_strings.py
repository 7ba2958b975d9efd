"""A device's strings reach terminals and log lines only as printable text: the protocol decoder
writes every control or format character of a string a device sent (ESC, BEL, CR, bidi
overrides) as a Python escape, so a hostile or broken device cannot drive the terminal of
``devices watch``, the display or whoever reads a log."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from tablectl.drivers import events as ev
from tablectl.drivers import messages as msg
from tablectl.simulators.factory import build_device
from tablectl.simulators.serving.tcp import TcpServer

HOSTILE = "\x1b]0;owned\x07\x1b[2J\r\u202eok"
ESCAPED = "\\x1b]0;owned\\x07\\x1b[2J\\r\\u202eok"
EXE = str(Path(sys.executable).with_name("tablectl")) if Path(sys.executable).with_name("tablectl").exists() else (shutil.which("tablectl") or "tablectl")  # the tablectl of this interpreter, not one earlier on PATH


def test_a_fault_detail_with_escape_sequences_decodes_escaped() -> None:
    fault = msg.decode(*msg.encode(ev.Fault(7, ev.FaultKind.JAM, False, HOSTILE)))
    assert isinstance(fault, ev.Fault) and fault.detail == ESCAPED


def test_identify_strings_with_control_characters_decode_escaped() -> None:
    ident = msg.decode(*msg.encode(ev.Identify(ev.DeviceKind.SHOE, "m\x1b[1m", "SN\x1b[31m1", "fw\n2", 1, frozenset(), 0)))
    assert isinstance(ident, ev.Identify)
    assert (ident.model, ident.serial, ident.firmware) == ("m\\x1b[1m", "SN\\x1b[31m1", "fw\\n2")


def test_printable_strings_are_unchanged() -> None:
    assert msg.printable("tablectl-sim 1.0 · Größe ♠") == "tablectl-sim 1.0 · Größe ♠"


def test_devices_watch_shows_no_escape_sequence_a_device_sent() -> None:
    device = build_device("shoe", seed=3, serial="SN\x1b[2J\x1b]0;x\x07")
    device.model_name = "shoe\rEVIL"
    with TcpServer(device) as server:
        proc = subprocess.Popen(
            [EXE, "devices", "watch", "shoe", server.address, "--count", "1"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "COLUMNS": "200"},
        )
        try:
            deadline = time.monotonic() + 30
            while not device.streaming and proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.02)  # polling the device's state, not timing it
            device.draw()
            out, err = proc.communicate(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert proc.returncode == 0, err
    assert not any(c in out + err for c in "\x1b\x07\r"), repr(out + err)
    assert "serial SN\\x1b[2J\\x1b]0;x\\x07" in err
    assert "shoe\\rEVIL" in err
    assert "card_drawn" in out
