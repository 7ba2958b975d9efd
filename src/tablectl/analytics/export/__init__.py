"""Verified logs into the dataset: review a log, refuse a tampered one, turn its rounds into rows
(``rows``, with ``judging``, ``sightings`` and ``bank_cover``), and add only what is new
(``logs``, ``resume``, ``workers``)."""
