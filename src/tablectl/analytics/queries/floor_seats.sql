-- Each seat's result against the same math: the players' net (+ = the seat won), what the math
-- expects them to lose on the analysed wagers, and z of the bank's result (negative: the seat
-- wins more than the math allows).
SELECT b.table_id, b.seat,
       count(DISTINCT b.round_id) AS rounds,
       sum(b.stake) FILTER (WHERE b.bet = b.wager AND b.outcome IS DISTINCT FROM 'no-action') AS handle,
       sum(b.net) AS player_net,
       -sum(b.stake * m.edge) FILTER (WHERE b.bet = b.wager AND b.outcome IS DISTINCT FROM 'no-action' AND m.edge IS NOT NULL) AS expected_player_net,
       (sum(-b.net) FILTER (WHERE m.edge IS NOT NULL) - sum(b.stake * m.edge) FILTER (WHERE b.bet = b.wager AND b.outcome IS DISTINCT FROM 'no-action' AND m.edge IS NOT NULL))
         / nullif(sqrt(sum(b.stake::DOUBLE * b.stake * m.variance) FILTER (WHERE b.bet = b.wager AND b.outcome IS DISTINCT FROM 'no-action' AND m.edge IS NOT NULL)), 0) AS z
FROM bets b LEFT JOIN wager_math m USING (game, decks, rules_id, wager)
WHERE b.date BETWEEN $from AND $to
  AND NOT EXISTS (SELECT 1 FROM rounds v WHERE v.table_id = b.table_id AND v.round_id = b.round_id AND v.status = 'voided')
GROUP BY ALL
ORDER BY z NULLS LAST, b.table_id, b.seat
