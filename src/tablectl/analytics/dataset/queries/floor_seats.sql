-- Each seat's result against the same math: the players' net (+ = the seat won), what the math
-- expects them to lose on the analysed wagers, and z of the bank's result (negative: the seat
-- wins more than the math allows); its variance counts the covariance of the seat's wagers in a round.
-- Bets returned as no-action and the bets of voided rounds are no handle.
-- theo_win: what the house expects to win from the seat given its wagers and the decisions it made
-- (the expected win under the math's strategy plus its decisions' cost; NULL when a decision of the
-- seat is not valued), win: its actual result for the house, edge_as_played: -theo_win / handle.
WITH b AS (
    SELECT bets.*, CASE WHEN m.stake_limited AND EXISTS (SELECT 1 FROM stake_binds s WHERE s.table_id = bets.table_id AND s.round_id = bets.round_id) THEN NULL ELSE m.edge END AS edge, m.variance FROM bets LEFT JOIN wager_math m USING (game, decks, rules_id, wager)
    WHERE bets.date BETWEEN $from AND $to
      AND NOT EXISTS (SELECT 1 FROM rounds v WHERE v.table_id = bets.table_id AND v.round_id = bets.round_id AND v.status = 'voided')
),
initial AS (
    SELECT table_id, round_id, game, decks, rules_id, seat, wager, stake FROM b
    WHERE bet = wager AND edge IS NOT NULL AND outcome IS DISTINCT FROM 'no-action'
),
pairs AS (
    SELECT i.table_id, i.seat, sum(i.stake::DOUBLE * j.stake * c.covariance) AS covariance
    FROM initial i
    JOIN initial j ON j.table_id = i.table_id AND j.round_id = i.round_id AND j.seat = i.seat AND j.wager <> i.wager
    JOIN wager_cov c ON c.game = i.game AND c.decks = i.decks AND c.rules_id = i.rules_id AND c.wager_a = i.wager
         AND c.wager_b = j.wager AND c.seats = 'same'
    GROUP BY ALL
),
judged AS (
    SELECT d.table_id, d.seat, sum(d.cost) AS cost, count(*) FILTER (WHERE d.cost IS NULL) AS unjudged
    FROM decisions d
    WHERE d.date BETWEEN $from AND $to AND NOT d.banker
      AND NOT EXISTS (SELECT 1 FROM rounds v WHERE v.table_id = d.table_id AND v.round_id = d.round_id AND v.status = 'voided')
    GROUP BY ALL
),
seat AS (
    SELECT table_id, seat,
           count(DISTINCT round_id) AS rounds,
           sum(stake) FILTER (WHERE bet = wager AND outcome IS DISTINCT FROM 'no-action') AS handle,
           sum(net) AS player_net,
           -sum(stake * edge) FILTER (WHERE bet = wager AND outcome IS DISTINCT FROM 'no-action' AND edge IS NOT NULL) AS expected_player_net,
           sum(-net) FILTER (WHERE edge IS NOT NULL)
             - sum(stake * edge) FILTER (WHERE bet = wager AND outcome IS DISTINCT FROM 'no-action' AND edge IS NOT NULL) AS excess,
           sum(stake::DOUBLE * stake * variance) FILTER (WHERE bet = wager AND outcome IS DISTINCT FROM 'no-action' AND edge IS NOT NULL) AS variance
    FROM b GROUP BY ALL
)
SELECT s.table_id, s.seat, s.rounds, s.handle, s.player_net, s.expected_player_net,
       s.excess / nullif(sqrt(s.variance + coalesce(p.covariance, 0)), 0) AS z,
       CASE WHEN coalesce(j.unjudged, 0) = 0 THEN -s.expected_player_net + coalesce(j.cost, 0) END AS theo_win,
       -s.player_net AS win,
       (s.expected_player_net - coalesce(j.cost, 0)) / nullif(s.handle, 0) * CASE WHEN coalesce(j.unjudged, 0) = 0 THEN 1 END AS edge_as_played
FROM seat s LEFT JOIN pairs p USING (table_id, seat) LEFT JOIN judged j USING (table_id, seat)
ORDER BY z NULLS LAST, s.table_id, s.seat
