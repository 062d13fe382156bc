-- Durable work: what a delivery asked for is stored before the delivery is acknowledged.
-- The job itself lives in graphile-worker's own schema; these tables hold what must outlive it.

-- One row per unit of work ever accepted, keyed by what the payload identifies (a comment id, a
-- workflow run id and attempt, a check run id and action). The queue forgets a job once it is done,
-- so a redelivery of the same payload a day later is refused here, not by the queue.
CREATE TABLE speedgate.work_receipts (
  job_key text PRIMARY KEY,
  task text NOT NULL,
  lane text,
  delivery_id text,
  received_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX work_receipts_received_at ON speedgate.work_receipts (received_at);

-- Side effects GitHub cannot de-duplicate (a workflow dispatch): recorded as pending before the
-- request is sent, so a retry after a crash between the two finds the record and does not send again.
CREATE TABLE speedgate.side_effects (
  effect_key text PRIMARY KEY,
  kind text NOT NULL,
  state text NOT NULL CHECK (state IN ('pending', 'done', 'failed', 'uncertain')),
  sends integer NOT NULL DEFAULT 0,
  result jsonb,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Each running worker pool beats here under the id it locks jobs with (graphile-worker's locked_by);
-- a pool that stopped beating died with its jobs locked, and any replica hands them back to the queue.
CREATE TABLE speedgate.worker_heartbeats (
  owner_id text PRIMARY KEY,
  beat_at timestamptz NOT NULL DEFAULT now()
);

-- Failed deliveries this app asked GitHub to send again, so several replicas starting together ask
-- once, and a delivery that keeps failing is not asked for forever.
CREATE TABLE speedgate.redeliveries (
  guid text PRIMARY KEY,
  delivery_id bigint NOT NULL,
  event text NOT NULL,
  requests integer NOT NULL DEFAULT 1,
  last_requested_at timestamptz NOT NULL DEFAULT now()
);
