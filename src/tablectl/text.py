"""Text that is safe to put on a terminal or in a log line (pure; no I/O)."""

from __future__ import annotations


def printable(text: str) -> str:
    """``text`` with every character that is not printable (controls such as ESC, bidi and other
    format characters) written as a Python escape (``"\\x1b"``): a device's strings reach
    terminals and log lines, and must not drive them."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def escaped(text: str) -> str:
    """*text* with each byte of a file name that is not UTF-8 (a surrogate escape, as
    ``os.fsdecode`` gives it) written as a backslash escape (``ocp\\xff``): what JSON, a UTF-8
    page and a strictly UTF-8 terminal can take."""
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # a surrogate no file name gives
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
