-- multi_replacement_outcomes: what happens when players swap several equal cards at once.
--
-- Measures: every `replace` event listing at least $min_cards positions (golf allows only
-- one), by ruleset, number of cards listed, and whether the player knew every one of them
-- before placing the drawn card.
--
-- How to read: success_rate = successes / attempts (a failure leaves the chosen cards face up
-- and adds the drawn card to the row; with 3+ cards a penalty card too: `penalties`).
-- avg_row_delta is the mean change of the player's hand total caused by the replacement
-- (negative = the hand got better). A knowing player can only fail by misjudging a value, so
-- knew_all = false rows show the price of guessing.
--
-- @param ruleset text from games.ruleset default null  only games of this ruleset (default: every ruleset)
-- @param min_cards int 1..52 default 2  the fewest positions a replacement must list to be counted
-- @score-sheets left out: a score sheet records no replacements
-- @chart rate x=cards y=success_rate series=ruleset,knew_all title="Success of replacements listing several cards"
-- @chart bar x=cards y=attempts series=ruleset,knew_all title="Attempts"
SELECT ruleset,
       len(positions) AS cards,
       known_chosen = len(positions) AS knew_all,
       count(*) AS attempts,
       count(*) FILTER (WHERE success) AS successes,
       count(*) FILTER (WHERE success) / count(*) AS success_rate,
       avg(row_delta) AS avg_row_delta,
       count(penalty) AS penalties
FROM events
WHERE type = 'replace'
  AND len(positions) >= $min_cards
  AND ($ruleset IS NULL OR ruleset = $ruleset)
GROUP BY ruleset, len(positions), known_chosen = len(positions)
ORDER BY ruleset, cards, knew_all;
