import { beforeEach, expect, it } from "vitest";
import { DatabaseHeadPushLog } from "../../../bot/store/database-head-push-log.js";
import { DatabaseRefusalLimiter } from "../../../bot/store/database-refusal-limiter.js";
import type { Database } from "../../../src/store/database.js";
import { describeEachBackend, useTestDatabase } from "../../support/database/database-backends.js";

/*
 * What #12's defences remember, in the database: every replica (each its own limiter or log object on
 * the same tables) sees what another recorded, and a restart (a new object) forgets nothing.
 */
describeEachBackend("the app's shared state in the database", (backend) => {
  const test = useTestDatabase(backend);
  let database: Database;

  beforeEach(async () => {
    database = test.database();
    await database.pool.query("TRUNCATE speedgate.refusal_replies, speedgate.head_pushes");
  });

  it("gives one refusal reply per key and window across replicas, again once the window has passed", async () => {
    let now = Date.parse("2026-01-01T00:00:00Z");
    const clock = (): number => now;
    const replicaA = new DatabaseRefusalLimiter(database.pool, 60_000, clock);
    const replicaB = new DatabaseRefusalLimiter(database.pool, 60_000, clock);
    expect(await replicaA.allowReply("o/r#1:alice", "comment:o/r:1")).toBe(true);
    expect(await replicaB.allowReply("o/r#1:alice", "comment:o/r:2")).toBe(false);
    expect(await replicaB.allowReply("o/r#1:bob", "comment:o/r:3")).toBe(true);
    // A restarted replica forgets nothing.
    expect(await new DatabaseRefusalLimiter(database.pool, 60_000, clock).allowReply("o/r#1:alice")).toBe(false);
    now += 60_000;
    expect(await replicaB.allowReply("o/r#1:alice", "comment:o/r:4")).toBe(true);
  });

  it("lets the work that took the reply take it again (its retry after the reply failed to post), and nobody else", async () => {
    const now = (): number => Date.parse("2026-01-01T00:00:00Z");
    const limiter = new DatabaseRefusalLimiter(database.pool, 60_000, now);
    expect(await limiter.allowReply("o/r#1:alice", "comment:o/r:1")).toBe(true);
    expect(await limiter.allowReply("o/r#1:alice", "comment:o/r:1")).toBe(true);
    expect(await limiter.allowReply("o/r#1:alice", "comment:o/r:2")).toBe(false);
    // No claimant never matches another's.
    expect(await limiter.allowReply("o/r#1:alice")).toBe(false);
  });

  it("gives one reply when ten replicas ask for the same key at the same moment", async () => {
    const now = (): number => Date.parse("2026-01-01T00:00:00Z");
    const answers = await Promise.all(
      Array.from(
        { length: 10 },
        async (_, i) => await new DatabaseRefusalLimiter(database.pool, 60_000, now).allowReply("o/r#2:mallory", `comment:o/r:${i}`),
      ),
    );
    expect(answers.filter(Boolean)).toHaveLength(1);
  });

  it("caps the answers of a scope per window across replicas, never past the cap even when they ask at once", async () => {
    let now = Date.parse("2026-01-01T00:00:00Z");
    const clock = (): number => now;
    const replicas = Array.from({ length: 6 }, () => new DatabaseRefusalLimiter(database.pool, 60_000, clock));
    const answers = await Promise.all(replicas.map(async (replica) => await replica.allowWithin("replies:o/r#3", 3)));
    expect(answers.filter(Boolean).length).toBeLessThanOrEqual(3);
    expect(answers.filter(Boolean).length).toBeGreaterThan(0);
    while (await replicas[0]?.allowWithin("replies:o/r#3", 3));
    expect(await replicas[1]?.allowWithin("replies:o/r#3", 3)).toBe(false);
    // Another scope has its own slots; the window's end frees them all.
    expect(await replicas[1]?.allowWithin("replies:o/r#4", 3)).toBe(true);
    now += 60_000;
    expect(await replicas[2]?.allowWithin("replies:o/r#3", 3)).toBe(true);
  });

  it("keeps the latest time each head arrived, for every replica", async () => {
    const replicaA = new DatabaseHeadPushLog(database.pool);
    const replicaB = new DatabaseHeadPushLog(database.pool);
    await replicaA.record("o/r#1", "a", "2026-01-01T00:10:00Z");
    await replicaB.record("o/r#1", "a", "2026-01-01T00:05:00Z");
    expect(await replicaB.lookup("o/r#1", "a")).toBe("2026-01-01T00:10:00.000Z");
    await replicaB.record("o/r#1", "a", "2026-01-01T00:20:00Z");
    expect(await replicaA.lookup("o/r#1", "a")).toBe("2026-01-01T00:20:00.000Z");
    expect(await replicaA.lookup("o/r#1", "b")).toBeNull();
    expect(await replicaA.lookup("o/r#2", "a")).toBeNull();
  });
});
