import { describe, expect, it } from "vitest";
import { isTransientGitHubError, retryDelivery } from "../../bot/retry-delivery.js";

function httpError(status: number, message = "failed"): Error {
  return Object.assign(new Error(message), { status });
}

describe("retryDelivery", () => {
  it("tries once more per delay, then throws the last error", async () => {
    const retried: number[] = [];
    let calls = 0;
    const attempt = retryDelivery({ delaysMs: [1, 1, 1], budgetMs: 60_000 }, { onRetry: (n) => retried.push(n) }, () => {
      calls++;
      return Promise.reject(httpError(503, `down ${calls}`));
    });
    await expect(attempt).rejects.toThrow("down 4");
    expect(retried).toEqual([1, 2, 3]);
  });

  it("returns the value and the attempt that produced it", async () => {
    let calls = 0;
    const result = await retryDelivery({ delaysMs: [1, 1], budgetMs: 60_000 }, { onRetry: () => undefined }, () =>
      ++calls < 2 ? Promise.reject(httpError(502)) : Promise.resolve("posted"),
    );
    expect(result).toEqual({ value: "posted", attempts: 2 });
  });

  it("starts no attempt past the time budget", async () => {
    let calls = 0;
    const attempt = retryDelivery({ delaysMs: [50_000, 1], budgetMs: 10_000 }, { onRetry: () => undefined }, () => {
      calls++;
      return Promise.reject(httpError(500));
    });
    await expect(attempt).rejects.toThrow();
    expect(calls).toBe(1);
  });

  it("does not retry an error that is not a passing GitHub outage", async () => {
    let calls = 0;
    const attempt = retryDelivery({ delaysMs: [1, 1], budgetMs: 60_000 }, { onRetry: () => undefined }, () => {
      calls++;
      return Promise.reject(new TypeError("x is undefined"));
    });
    await expect(attempt).rejects.toThrow(TypeError);
    expect(calls).toBe(1);
  });

  it.each([
    [httpError(500), true],
    [httpError(502), true],
    [httpError(429), true],
    [httpError(403, "You have exceeded a secondary rate limit"), true],
    [httpError(403, "Resource not accessible by integration"), false],
    [httpError(404), false],
    [httpError(422), false],
    [new Error("no status"), false],
  ] as const)("classifies %s as transient: %s", (error, transient) => {
    expect(isTransientGitHubError(error)).toBe(transient);
  });
});
