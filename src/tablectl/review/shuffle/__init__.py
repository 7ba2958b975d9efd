"""Shuffle quality from the logged card sequences: the analyses (``analyses``: card positions,
guessing with feedback, ...), their shared pieces (``common``), the extraction from a log
(``quality``) and reference good and bad shufflers (``models``)."""
