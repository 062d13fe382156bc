-- Every card the app posts, for the trend of a pull request's commits, the leaderboard and
-- `speedgate history`. Repositories are stored lower-cased: GitHub's names are case-insensitive.
CREATE TABLE speedgate.cards (
  id bigserial PRIMARY KEY,
  repository text NOT NULL CHECK (repository = lower(repository)),
  pull_request integer NOT NULL CHECK (pull_request > 0),
  head_sha text NOT NULL,
  run_id bigint NOT NULL,
  run_attempt integer NOT NULL DEFAULT 1,
  run_url text,
  round_score double precision,
  interval_low double precision,
  interval_high double precision,
  interval_confidence double precision,
  gate_passed boolean NOT NULL,
  gate_min_round_score double precision NOT NULL,
  gate_use text NOT NULL,
  failure_kind text,
  failure_engine text,
  failure_stage text,
  image_digest text,
  patch_hash text,
  runner text,
  gpu text,
  engine text,
  speedgate_version text,
  card_created_at timestamptz,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (repository, run_id, run_attempt)
);
CREATE INDEX cards_pull_request ON speedgate.cards (repository, pull_request, recorded_at);

-- Whether a pull request is open, from its events: the leaderboard lists open ones only.
CREATE TABLE speedgate.pull_requests (
  repository text NOT NULL CHECK (repository = lower(repository)),
  number integer NOT NULL CHECK (number > 0),
  state text NOT NULL CHECK (state IN ('open', 'closed')),
  head_sha text,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (repository, number)
);

-- The one issue per repository that holds its leaderboard.
CREATE TABLE speedgate.leaderboards (
  repository text PRIMARY KEY CHECK (repository = lower(repository)),
  issue_number integer NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
