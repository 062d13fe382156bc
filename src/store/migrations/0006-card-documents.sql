-- Each round's whole card (#42): the comment folds and cuts it to GitHub's limits, the card page shows
-- all of it. One row per run's attempt, a pull request's or main's (pull_request null), under a random
-- 128-bit id that is the card page's URL: stable (a redelivery keeps it) and not guessable, so a
-- private repository's card is never reachable by counting. The calibration the card's gate used is
-- kept beside it for the runner page (noise floor and smallest detectable speedup over time).
CREATE TABLE speedgate.card_documents (
  id text PRIMARY KEY,
  repository text NOT NULL,
  run_id bigint NOT NULL,
  run_attempt integer NOT NULL,
  pull_request integer,
  head_sha text NOT NULL,
  -- The card's JSON, gzip-compressed: a card at the artifact's limits is tens of megabytes of repetitive text.
  card bytea NOT NULL,
  runner text,
  gpu text,
  calibration_runner text,
  calibration_gpu text,
  calibration_measured_at text,
  noise_floor double precision,
  detectable_speedup double precision,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (repository, run_id, run_attempt)
);
CREATE INDEX card_documents_calibrations ON speedgate.card_documents (repository, calibration_measured_at)
  WHERE calibration_measured_at IS NOT NULL;
