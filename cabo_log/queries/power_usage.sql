-- power_usage: how often each power is used when earned, what peeks and spies saw, and what
-- swaps gained.
--
-- Measures: every power earned (a 7-12 discarded from the deck; in golf any card put on the
-- discard pile), by ruleset and power, and what became of it:
--   used    - a `power` event followed;
--   skipped - an explicit `skip` event;
--   passed  - the next turn (or a snap, or a forfeit) started without it;
--   lapsed  - the log ended while it could still be used.
--
-- How to read: use_rate = used / earned. avg_value_seen is the mean value of the card looked
-- at by peek (own card) or spy (another player's). For swaps that involve the user's own row
-- (every swap, except edition1 swaps between two other players): avg_given_value and
-- avg_received_value are the values that left and came into the user's row, avg_gain their
-- difference (positive = the user's hand total went down by that much), improved_rate the share
-- of those swaps with a positive gain. knew_given_rate / knew_received_rate: how often the user
-- knew the card they gave / got before swapping (a blind swap is a gamble).
--
-- @param ruleset text from games.ruleset default null  only games of this ruleset (default: every ruleset)
-- @score-sheets left out: a score sheet records no powers
-- @chart rate x=power y=use_rate series=ruleset title="Share of earned powers that were used"
-- @chart rate x=power y=improved_rate series=ruleset where=power:swap title="Share of own swaps that lowered the hand"
-- @chart bar x=power y=earned series=ruleset title="Powers earned"
SELECT ruleset,
       power,
       count(*) AS earned,
       count(*) FILTER (WHERE outcome = 'used') AS used,
       count(*) FILTER (WHERE outcome = 'skipped') AS skipped,
       count(*) FILTER (WHERE outcome = 'passed') AS passed,
       count(*) FILTER (WHERE outcome = 'lapsed') AS lapsed,
       count(*) FILTER (WHERE outcome = 'used') / count(*) AS use_rate,
       avg(seen_value) AS avg_value_seen,
       count(*) FILTER (WHERE user_involved) AS own_swaps,
       avg(given_value) FILTER (WHERE user_involved) AS avg_given_value,
       avg(received_value) FILTER (WHERE user_involved) AS avg_received_value,
       avg(gain) FILTER (WHERE user_involved) AS avg_gain,
       avg(CASE WHEN gain > 0 THEN 1.0 ELSE 0.0 END) FILTER (WHERE user_involved)
           AS improved_rate,
       avg(CASE WHEN knew_given THEN 1.0 ELSE 0.0 END) FILTER (WHERE user_involved)
           AS knew_given_rate,
       avg(CASE WHEN knew_received THEN 1.0 ELSE 0.0 END) FILTER (WHERE user_involved)
           AS knew_received_rate
FROM powers
WHERE $ruleset IS NULL OR ruleset = $ruleset
GROUP BY ruleset, power
ORDER BY ruleset, CASE power WHEN 'peek' THEN 0 WHEN 'spy' THEN 1 ELSE 2 END;
