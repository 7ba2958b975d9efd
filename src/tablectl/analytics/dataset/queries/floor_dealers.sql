-- The floor report by dealer and bank: a dealer's house-banked rounds in one row (tested as the
-- house's bank, its win below expected), the rounds dealt at player-banked tables in another (the
-- bank is a player's: tested either way, never as the house's): rounds, handle, win, hold; on the
-- wagers the game math analyses, their hold, the expected hold and its exact standard deviation, z
-- (win below expected: negative); violations and holds per 100 rounds, device faults, mean
-- penetration (deepest card per shoe).
SELECT dealer, bank, @floor_rollup
FROM cells
GROUP BY dealer, bank
ORDER BY z NULLS LAST, dealer, bank
