"""Whether a seat plays from hidden information: statistics on plain rows of judged decisions
(``screen``, the likelihood-ratio test and its mixture), the rows made from a judged round
(``rows``), and the family-wise corrections (``multiple``). Below both review (one seat's
decisions) and analytics (every seat of a floor)."""
