-- Main's series (docs/watching-main.md): every round the watch runs on the default branch, whatever
-- started it (a scheduled drift round, a bisection step, a merge scored against its parent under
-- watch.everyMerge), one row per round, and its score per scenario in main_round_scores. The trend of
-- main per scenario, the change-point method and the web page of main's trend (#42) read these.
CREATE TABLE speedgate.bisections (
  id bigserial PRIMARY KEY,
  repository text NOT NULL,
  good_sha text NOT NULL,
  bad_sha text NOT NULL,
  -- The followed scenario ('' for a round without scenarios).
  scenario text NOT NULL,
  -- What started it: 'drift' (a drift round past watch.maxDrift), 'change-point' (main's series) or 'manual'.
  trigger text NOT NULL CHECK (trigger IN ('drift', 'change-point', 'manual')),
  status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'done', 'abandoned')),
  -- The plan's outcome once it has one (src/watch/plan-bisection.ts's BisectionOutcome), and the commits it indexes.
  outcome jsonb,
  commits jsonb NOT NULL,
  tracking_issue integer,
  started_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
-- One bisection per repository at a time.
CREATE UNIQUE INDEX bisections_one_running ON speedgate.bisections (repository) WHERE status = 'running';

CREATE TABLE speedgate.main_rounds (
  id bigserial PRIMARY KEY,
  repository text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('drift', 'probe', 'parent', 'merge')),
  base_sha text NOT NULL,
  head_sha text NOT NULL,
  -- When the head was committed: the series' x axis (the order main had), not when the round ran.
  head_committed_at timestamptz,
  bisection_id bigint REFERENCES speedgate.bisections (id) ON DELETE SET NULL,
  -- The bisection step's key (probe-8-1), null for a drift or merge round.
  step_key text,
  run_id bigint NOT NULL,
  run_attempt integer NOT NULL,
  -- The run's page, where its card is: each point of the trend links it.
  run_url text,
  runner text,
  gpu text,
  engine text,
  failure_kind text,
  card_created_at timestamptz,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (repository, run_id, run_attempt)
);
CREATE INDEX main_rounds_by_repository ON speedgate.main_rounds (repository, head_committed_at, id);

CREATE TABLE speedgate.main_round_scores (
  round_id bigint NOT NULL REFERENCES speedgate.main_rounds (id) ON DELETE CASCADE,
  -- '' for a round without scenarios.
  scenario text NOT NULL,
  score double precision,
  interval_low double precision,
  interval_high double precision,
  PRIMARY KEY (round_id, scenario)
);

-- A change the change-point method found in main's drift rounds of one scenario: the first round after
-- it, its permutation p-value, and the bisection it started.
CREATE TABLE speedgate.main_change_points (
  id bigserial PRIMARY KEY,
  repository text NOT NULL,
  scenario text NOT NULL,
  first_round_id bigint NOT NULL REFERENCES speedgate.main_rounds (id) ON DELETE CASCADE,
  p_value double precision NOT NULL,
  change double precision NOT NULL,
  bisection_id bigint REFERENCES speedgate.bisections (id) ON DELETE SET NULL,
  found_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (repository, scenario, first_round_id)
);
