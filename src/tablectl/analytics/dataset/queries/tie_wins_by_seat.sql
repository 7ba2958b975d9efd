-- How often each seat's Tie wager (One Card Poker) wins, against the rate the math gives
-- (expected_rate: the chance the seat's card ties the Designated Player's, (4d-1)/(52d-1) with d
-- decks: about 7.4% at six decks): a seat far above it is worth a look.
SELECT table_id, seat, count(*) AS tie_wagers, count(*) FILTER (WHERE net > 0) AS won,
       count(*) FILTER (WHERE net > 0) / count(*) AS win_rate,
       (4.0 * any_value(decks) - 1) / (52.0 * any_value(decks) - 1) AS expected_rate
FROM bets WHERE bet = 'tie' AND date BETWEEN $from AND $to
GROUP BY table_id, seat, decks ORDER BY win_rate DESC, table_id, seat
