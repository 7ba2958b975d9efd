-- The initial wagers the game math analyses within [$from, $to], counted by table, seat, dealer,
-- day, wager and stake (bank: who banks the game): the kinds a group's exact tail is taken from
-- (tablectl.analytics.floor.tails). Bets returned as no-action and the bets of voided rounds are left out.
SELECT bets.table_id, bets.seat, coalesce(bets.dealer, '(none)') AS dealer, bets.date,
       coalesce(gb.bank, 'house') AS bank, bets.game, bets.decks, bets.rules_id, bets.wager, bets.stake,
       count(*) AS n
FROM bets
JOIN wager_math m USING (game, decks, rules_id, wager)
LEFT JOIN game_banks gb USING (game)
WHERE bets.date BETWEEN $from AND $to AND m.edge IS NOT NULL
  AND bets.bet = bets.wager AND bets.outcome IS DISTINCT FROM 'no-action'
  AND NOT EXISTS (SELECT 1 FROM rounds v WHERE v.table_id = bets.table_id AND v.round_id = bets.round_id
                  AND v.status = 'voided')
GROUP BY ALL
