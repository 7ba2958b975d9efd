-- The floor report by dealer: rounds, handle, win, hold; on the wagers the game math analyses, their
-- hold, the expected hold and its exact standard deviation, z (win below expected: negative);
-- violations and holds per 100 rounds, device faults, mean penetration (deepest card per shoe).
SELECT dealer, @floor_rollup
FROM cells
GROUP BY dealer
ORDER BY z NULLS LAST, dealer
