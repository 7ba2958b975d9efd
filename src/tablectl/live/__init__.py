"""The floor, live: every table's signed log streamed through NATS JetStream to surveillance.

- ``broker``: start and supervise a ``nats-server`` with JetStream (one node or a loopback cluster).
- ``stream``: subject names, message ids, the stream's and the collector's consumer's configuration.
- ``publish``: a table's publisher, following its fsynced log files; the log is the outbox.
- ``collect``: surveillance's collector, writing verified copies of every table's log.

The table's controller never imports this package: the publisher only reads the log files the
controller writes, so the network can never hold a card. Design: docs/live.md.
"""
