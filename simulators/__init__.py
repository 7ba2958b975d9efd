"""Byte-level simulators for every device family, with fault injection.

Installed as ``tablectl.simulators``.
"""
