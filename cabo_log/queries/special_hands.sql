-- special_hands: how often a special hand (Kamikaze 12-12-13-13, online's shoot the moon
-- Q-Q-K-K, golf's kamikaze caller at exactly 0) decides a round.
--
-- Measures: every scored round (rounds ended by forfeits left out), by ruleset.
--
-- How to read: special_rate = special_rounds / rounds. holders counts the players who held
-- one (several can in one round); holders_who_called those of them who had called Cabo.
-- calls_overridden counts rounds whose caller met the Cabo condition but did not hold the
-- special hand, so the call's reward was wiped out by someone else's special hand.
--
-- @param ruleset text from games.ruleset default null  only games of this ruleset (default: every ruleset)
-- @score-sheets counted
-- @chart rate x=ruleset y=special_rate title="Share of rounds decided by a special hand"
-- @chart bar x=ruleset y=special_rounds,holders_who_called,calls_overridden title="Special hands: rounds, callers who held one, calls overridden"
WITH scored AS (
    SELECT *
    FROM rounds
    WHERE end_reason <> 'forfeit'
      AND ($ruleset IS NULL OR ruleset = $ruleset)
)
SELECT ruleset,
       count(*) AS rounds,
       count(*) FILTER (WHERE len(special_holders) > 0) AS special_rounds,
       count(*) FILTER (WHERE len(special_holders) > 0) / count(*) AS special_rate,
       sum(len(special_holders)) AS holders,
       count(*) FILTER (WHERE list_contains(special_holders, caller)) AS holders_who_called,
       count(*) FILTER (WHERE len(special_holders) > 0 AND cabo_success
                          AND NOT list_contains(special_holders, caller)) AS calls_overridden
FROM scored
GROUP BY ruleset
ORDER BY ruleset;
