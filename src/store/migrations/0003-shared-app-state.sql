-- What the app's defences against abuse (issue #12) remember, shared by every replica and kept across
-- restarts: it was in each process's memory before.

-- A refused /rescore is answered with one reply per person and pull request per window; later ones get
-- a reaction. `claimant` is the work that took the reply, so a retry of that same work may still post it.
CREATE TABLE speedgate.refusal_replies (
  reply_key text PRIMARY KEY,
  claimant text,
  until timestamptz NOT NULL
);
CREATE INDEX refusal_replies_until ON speedgate.refusal_replies (until);

-- When each head of a pull request became its head, by GitHub's clock in the pull_request delivery:
-- what a later /rescore is compared with (bot/head-push-log.ts).
CREATE TABLE speedgate.head_pushes (
  pull text NOT NULL,
  head_sha text NOT NULL,
  pushed_at timestamptz NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (pull, head_sha)
);
CREATE INDEX head_pushes_recorded_at ON speedgate.head_pushes (recorded_at);

-- When GitHub first tried to deliver a delivery the app asked to be sent again: a /rescore's age is
-- judged at that time, not at the redelivery after an outage.
ALTER TABLE speedgate.redeliveries ADD COLUMN first_delivered_at timestamptz;

-- Whether the leaderboard issue was pinned (GraphQL pinIssue), so it is pinned once, not on every update.
ALTER TABLE speedgate.leaderboards ADD COLUMN pinned boolean NOT NULL DEFAULT false;
