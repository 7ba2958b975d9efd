"""The part-time alternative of the detection statistic (pure): a seat that uses the hidden
information on a share s of its decisions and its own cards on the rest.

Under it a choice has probability s * p_hidden(choice; T) + (1 - s) * p_own(choice; T), both
softmaxes at one temperature T. A hole-carder who sees the card on half the rounds plays the
hidden best there and the own best elsewhere: the pure alternative (s = 1) counts every own-cards
decision where the two differ against him, this one does not.

Like the pure alternative's temperature, (s, T) is fitted only on the decisions *before* each one
(the likeliest on the grid :data:`SHARES` x the temperatures; :data:`FIRST_SHARE` and the first
temperature at the first decision), so the likelihood it gives a seat's decisions is predictable
and the universal-inference argument of ``detection.screen`` holds for it unchanged.
"""

from __future__ import annotations

import numpy as np

#: the shares of decisions taken from the hidden information the mixture is fitted over
SHARES: tuple[float, ...] = (0.1, 0.25, 0.4, 0.55, 0.7, 0.85, 1.0)
#: the share at a seat's first decision (nothing to fit it on yet)
FIRST_SHARE = 0.55
_CHUNK = 2048  # rows per step: memory stays rows x shares x temperatures of this many


def predictable_mixture(own_log: np.ndarray, hidden_log: np.ndarray, first_temperature: int) -> tuple[np.ndarray, int, int]:
    """Each decision's log-probability under the mixture at the (share, temperature) that fits
    the decisions before it best, from log P(choice) under the own and the hidden values (rows x
    temperatures; ``first_temperature``: the column used at the first decision); and the share
    and temperature (indices) that fit all the decisions best."""
    n, k = own_log.shape
    shares = np.asarray(SHARES)
    logs = np.log(shares)[None, :, None]
    rest = np.full(len(shares), -np.inf)
    rest[shares < 1.0] = np.log1p(-shares[shares < 1.0])
    start = int(np.argmin(np.abs(shares - FIRST_SHARE))) * k + first_temperature
    total = np.zeros(len(shares) * k)
    out = np.empty(n)
    for a in range(0, n, _CHUNK):
        b = min(n, a + _CHUNK)
        mix = np.logaddexp(logs + hidden_log[a:b, None, :], rest[None, :, None] + own_log[a:b, None, :]).reshape(b - a, -1)
        run = total[None, :] + np.cumsum(mix, axis=0)
        fit = np.r_[total.argmax(), run[:-1].argmax(axis=1)]
        if a == 0:
            fit[0] = start
        out[a:b] = mix[np.arange(b - a), fit]
        total = run[-1]
    best = int(total.argmax()) if n else start
    return out, best // k, best % k


__all__ = ["FIRST_SHARE", "SHARES", "predictable_mixture"]
