import { describe, expect, it } from "vitest";
import { MemoryDeliveryLedger } from "../../bot/delivery-ledger.js";
import { readWebhookBodyLimits } from "../../bot/guard-webhook-body.js";
import { MemoryHeadPushLog } from "../../bot/head-push-log.js";
import { MemoryRefusalLimiter } from "../../bot/refusal-limiter.js";

describe("the app's in-memory stores (the interfaces a database-backed store will implement)", () => {
  it("MemoryRefusalLimiter allows one reply per key per window, and again once the window has passed", async () => {
    let now = 0;
    const limiter = new MemoryRefusalLimiter(60_000, () => now);
    expect(await limiter.allowReply("o/r#1:alice")).toBe(true);
    expect(await limiter.allowReply("o/r#1:alice")).toBe(false);
    expect(await limiter.allowReply("o/r#1:bob")).toBe(true);
    now = 60_000;
    expect(await limiter.allowReply("o/r#1:alice")).toBe(true);
  });

  it("MemoryRefusalLimiter caps the answers of a scope per window", async () => {
    let now = 0;
    const limiter = new MemoryRefusalLimiter(60_000, () => now);
    expect(await Promise.all([1, 2, 3, 4].map(async () => await limiter.allowWithin("replies:o/r#1", 3)))).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect(await limiter.allowWithin("replies:o/r#2", 3)).toBe(true);
    now = 60_000;
    expect(await limiter.allowWithin("replies:o/r#1", 3)).toBe(true);
  });

  it("MemoryDeliveryLedger claims all keys or none, and a release lets a redelivery through", async () => {
    const ledger = new MemoryDeliveryLedger();
    expect(await ledger.claim(["delivery:1", "issue_comment:o/r:9"])).toBe(true);
    // A replay under a new delivery id shares the comment's key: refused, and its own id is not claimed.
    expect(await ledger.claim(["delivery:2", "issue_comment:o/r:9"])).toBe(false);
    expect(await ledger.claim(["delivery:2"])).toBe(true);
    await ledger.release(["delivery:1", "issue_comment:o/r:9"]);
    expect(await ledger.claim(["delivery:1", "issue_comment:o/r:9"])).toBe(true);
  });

  it("MemoryHeadPushLog keeps the latest time a head arrived", async () => {
    const heads = new MemoryHeadPushLog();
    await heads.record("o/r#1", "a", "2026-01-01T00:10:00Z");
    await heads.record("o/r#1", "a", "2026-01-01T00:05:00Z");
    expect(await heads.lookup("o/r#1", "a")).toBe("2026-01-01T00:10:00Z");
    expect(await heads.lookup("o/r#1", "b")).toBeNull();
  });

  it("reads the webhook body limits from the environment, naming a wrong one", () => {
    const MiB = 1024 * 1024;
    expect(readWebhookBodyLimits({})).toEqual({
      maxBytes: 25 * MiB,
      timeoutMs: 10_000,
      maxBufferedBytes: 100 * MiB,
      reservedBytes: 16 * MiB,
      smallBodyBytes: MiB,
      maxPeerBufferedBytes: 50 * MiB,
      graceMs: 1_000,
      maxIncompleteBodies: 256,
      maxPeerIncompleteBodies: 64,
      minBytesPerSecond: 64 * 1024,
    });
    expect(readWebhookBodyLimits({ WEBHOOK_MAX_BODY_BYTES: "1024" }).maxBytes).toBe(1024);
    expect(() => readWebhookBodyLimits({ WEBHOOK_BODY_TIMEOUT_MS: "30s" })).toThrow(
      'WEBHOOK_BODY_TIMEOUT_MS: expected a positive whole number, got "30s"',
    );
    // Limits that contradict each other stop the app, saying which to change.
    expect(() => readWebhookBodyLimits({ WEBHOOK_RESERVED_BYTES: String(90 * MiB) })).toThrow(
      /WEBHOOK_RESERVED_BYTES \(94371840\) leaves 10485760 bytes .* less than one body of WEBHOOK_MAX_BODY_BYTES/,
    );
    expect(() => readWebhookBodyLimits({ WEBHOOK_MAX_PEER_BUFFERED_BYTES: String(MiB) })).toThrow(
      /WEBHOOK_MAX_PEER_BUFFERED_BYTES \(1048576\) must hold at least one body/,
    );
    expect(() => readWebhookBodyLimits({ WEBHOOK_SMALL_BODY_BYTES: String(20 * MiB) })).toThrow(
      /WEBHOOK_SMALL_BODY_BYTES \(20971520\) and its connection \(16384\) must fit in WEBHOOK_RESERVED_BYTES/,
    );
    // A body of the largest size is charged its connection too: a peer's share of exactly that is too small.
    expect(() => readWebhookBodyLimits({ WEBHOOK_MAX_PEER_BUFFERED_BYTES: String(25 * MiB) })).toThrow(
      /must hold at least one body of WEBHOOK_MAX_BODY_BYTES \(26214400\) and its connection/,
    );
    expect(() => readWebhookBodyLimits({ WEBHOOK_MAX_PEER_INCOMPLETE_BODIES: "300" })).toThrow(
      "WEBHOOK_MAX_PEER_INCOMPLETE_BODIES (300) must be at most WEBHOOK_MAX_INCOMPLETE_BODIES (256)",
    );
  });
});
