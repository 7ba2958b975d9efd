-- The floor report by table (bank: who banks its game, the house or a player): rounds, handle, win, hold; on the wagers the game math analyses, their
-- hold, the expected hold and its exact standard deviation, z (win below expected: negative);
-- violations and holds per 100 rounds, device faults, mean penetration (deepest card per shoe).
SELECT table_id, game, bank, @floor_rollup
FROM cells
GROUP BY table_id, game, bank
ORDER BY z NULLS LAST, table_id, game
