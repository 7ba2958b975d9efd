"""tablectl: an open, vendor-neutral controller for casino table hardware."""

__version__ = "0.1.0"
