"""Serving a simulated device where a driver reaches it: a pty, TCP on loopback, an RFC 2217
server in front of a serial port, or a pyusb backend; what the servers share (``server``)."""
