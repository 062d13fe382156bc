import { describe, expect, it } from "vitest";
import { DEFAULT_DELIVERY_HOLD, readDeliveryHold } from "../../bot/app-readiness.js";

describe("SPEEDGATE_DELIVERY_HOLD_MS", () => {
  it("holds a delivery within GitHub's 10 s by default, 0 answers 503 at once, and a bad value says what it expects", () => {
    expect(readDeliveryHold({})).toEqual(DEFAULT_DELIVERY_HOLD);
    expect(DEFAULT_DELIVERY_HOLD.maxMs).toBeLessThan(10_000);
    expect(readDeliveryHold({ SPEEDGATE_DELIVERY_HOLD_MS: "0" }).maxMs).toBe(0);
    expect(readDeliveryHold({ SPEEDGATE_DELIVERY_HOLD_MS: " 2500 " }).maxMs).toBe(2_500);
    expect(() => readDeliveryHold({ SPEEDGATE_DELIVERY_HOLD_MS: "8s" })).toThrow(
      /SPEEDGATE_DELIVERY_HOLD_MS: expected a whole number of milliseconds.* got "8s"/,
    );
  });
});
