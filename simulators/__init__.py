"""Byte-level simulators for every device family, with fault injection.

Installed as ``tablectl.simulators``. docs/simulators.md is the guide. The modules, each with
one job:

- ``shoe``, ``csm``, ``shuffler``: the pure device models (``ShoeModel``, ``CsmModel``,
  ``ShufflerModel``) over ``model.DeviceModel``; ``nvstore``: the non-volatile event counter and
  unpersisted-event store; ``shuffling``: uniform shuffles, GSR riffles, order files;
  ``deckcheck``: composition counts.
- ``faults``: fault specs and seeded fault plans; ``linefaults``: line faults on the byte stream.
- ``device``: ``SimDevice`` (model + device-end link + faults; byte and control interfaces).
- ``pty_server``, ``tcp_server``, ``usb_backend``: serving a ``SimDevice`` on a pty, on loopback
  TCP, and as a pyusb backend; ``control``: the dealer control channel; ``autodeal``: the
  self-dealing virtual dealer; ``factory.build_device``: a device from plain options.
- ``minihost``: a minimal host end, for testing the simulators without the real drivers.
"""
