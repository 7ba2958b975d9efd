"""Device drivers: the open tablectl wire protocol, transports and one driver per device family.

Installed as ``tablectl.drivers``.
"""
