-- cabo_call_success: how often a Cabo call succeeds, by ruleset, by turn of the round and by
-- how much of their own row the caller knew.
--
-- Measures: every Cabo call whose round was scored with the caller still in it (a call in an
-- unfinished round, or by a caller who then forfeited, has no outcome and is left out).
-- A call succeeds when the caller's hand total met the ruleset's condition at the end of the
-- round (strictly lowest, or not beaten where ties suffice), whatever a special hand then did
-- to the points.
--
-- How to read: one row per (ruleset, dimension, bucket).
--   dimension 'all'   - every call of the ruleset (bucket 'all');
--   dimension 'turn'  - by the round's turn number at the call (1 = the round's first turn),
--                       in buckets of $turn_width turns, labelled 'first-last';
--   dimension 'known' - by how many of their own cards the caller knew at the call,
--                       labelled 'known/cards in the row' (e.g. '3/4').
-- success_rate = successes / calls. avg_points is what callers scored that round (lower is
-- better); avg_total_at_end their final hand total; avg_known_total what they knew they held.
-- A bucket with few calls is noise: look at `calls` before reading a rate.
-- special_hand_calls counts the calls of rounds a special hand (Kamikaze, shoot the moon)
-- decided: there the points came from the hand, not from the call, so a Kamikaze caller's
-- "failure" (12 12 13 13 is no low hand) did not cost them anything.
--
-- @param ruleset text from games.ruleset default null  only games of this ruleset (default: every ruleset)
-- @param turn_width int 1..100 default 5  width of the turn buckets
-- @score-sheets left out of the 'turn' and 'known' rows (counted in 'all'): a score sheet shows no turns and nothing of what the caller knew
-- @chart rate x=ruleset y=success_rate where=dimension:all title="How often does a Cabo call succeed?"
-- @chart line x=bucket y=success_rate series=ruleset where=dimension:turn title="Success by the turn of the round the call came on"
-- @chart bar x=bucket y=calls series=ruleset where=dimension:turn title="How many calls each turn bucket holds (read the rates above with these)"
WITH calls AS (
    SELECT *
    FROM cabo_calls
    WHERE success IS NOT NULL
      AND ($ruleset IS NULL OR ruleset = $ruleset)
),
by_bucket AS (
    SELECT ruleset, 'all' AS dimension, 'all' AS bucket, 0 AS bucket_order,
           count(*) AS calls, count(*) FILTER (WHERE success) AS successes,
           avg(points) AS avg_points, avg(total_at_end) AS avg_total_at_end,
           avg(known_total) AS avg_known_total,
           count(*) FILTER (WHERE special_round) AS special_hand_calls
    FROM calls
    GROUP BY ruleset
    UNION ALL
    SELECT ruleset, 'turn',
           format('{}-{}', (turn - 1) // $turn_width * $turn_width + 1,
                  (turn - 1) // $turn_width * $turn_width + $turn_width),
           (turn - 1) // $turn_width,
           count(*), count(*) FILTER (WHERE success),
           avg(points), avg(total_at_end), avg(known_total),
           count(*) FILTER (WHERE special_round)
    FROM calls
    WHERE turn IS NOT NULL   -- a score sheet's call: no turn, no knowledge
    GROUP BY ruleset, (turn - 1) // $turn_width
    UNION ALL
    SELECT ruleset, 'known',
           coalesce(known_cards::VARCHAR, '?') || '/' || hand_cards::VARCHAR,
           hand_cards * 100 + coalesce(known_cards, 99),
           count(*), count(*) FILTER (WHERE success),
           avg(points), avg(total_at_end), avg(known_total),
           count(*) FILTER (WHERE special_round)
    FROM calls
    WHERE turn IS NOT NULL
    GROUP BY ruleset, known_cards, hand_cards
)
SELECT ruleset, dimension, bucket, calls, successes,
       successes / calls AS success_rate,
       avg_points, avg_total_at_end, avg_known_total, special_hand_calls
FROM by_bucket
ORDER BY ruleset,
         CASE dimension WHEN 'all' THEN 0 WHEN 'turn' THEN 1 ELSE 2 END,
         bucket_order;
