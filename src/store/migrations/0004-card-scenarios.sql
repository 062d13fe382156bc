-- A round with scenarios (several workloads in one round): how many it had and how many passed their
-- own bar and gate.maxRegression. Null for cards without scenarios; round_score stays the headline
-- scenario's, so the trend and the leaderboard read what they read before.
ALTER TABLE speedgate.cards ADD COLUMN scenarios_total integer, ADD COLUMN scenarios_passed integer;
