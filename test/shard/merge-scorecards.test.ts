import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/vocabulary/config-error.js";
import { parseScorecard } from "../../src/scorecard/read-scorecard.js";
import type { EngineMetrics } from "../../src/metrics/metrics-schema.js";
import type { Scorecard } from "../../src/scorecard/scorecard-schema.js";
import { assembleScenarioCard } from "../../src/scorecard/assemble-scenario-card.js";
import { mergeScorecards } from "../../src/shard/merge-scorecards.js";
import { selectShard } from "../../src/shard/select-shard.js";
import { SAMPLE_TIME_SPENT } from "../support/make-scenario-round.js";
import { toVersion1 } from "../support/version-one-card.js";
import { type RecordedRound, candidateOom, cardFor, recordRound } from "./synthetic-round.js";
import { concatPatterns } from "../support/concat-patterns.js";

function shardCards(recorded: RecordedRound, count: number, runs = 1): Scorecard[] {
  const prompts = recorded.promptIds.map((id) => ({ id }));
  return Array.from({ length: count }, (_, position) => {
    const shard = { index: position + 1, count };
    return cardFor(
      recorded,
      selectShard(prompts, shard).map((prompt) => prompt.id),
      { shard, runs },
    );
  });
}

/** An engine's metrics without its rates: shards run side by side, so a merged card's rates are per engine instance (spans add up). */
function withoutRates(engine: EngineMetrics): Omit<EngineMetrics, "durationMs" | "outputTokensPerS" | "requestsPerS"> {
  const { durationMs: _durationMs, outputTokensPerS: _tokens, requestsPerS: _requests, ...rest } = engine;
  return rest;
}

/** What must be equal: everything but the time it was written, the shard marker, the listing order of prompts and the rates. */
function comparable(card: Scorecard): unknown {
  const { createdAt: _createdAt, shard: _shard, metrics, ...rest } = card;
  const latencies = metrics && {
    ...metrics,
    baseline: withoutRates(metrics.baseline),
    candidate: withoutRates(metrics.candidate),
    ratio: { ...metrics.ratio, outputTokensPerS: null, requestsPerS: null },
  };
  return { ...rest, metrics: latencies, prompts: rest.prompts.slice().sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)) };
}

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("expected the merge to be refused");
}

describe("mergeScorecards", () => {
  const recorded = recordRound(61);
  const whole = cardFor(recorded, recorded.promptIds);

  it.each([1, 2, 3, 7])("merges %i shards into the card of the unsharded round", (count) => {
    const merged = mergeScorecards(shardCards(recorded, count));
    expect(comparable(merged)).toEqual(comparable(whole));
    expect(merged.shard).toBeNull();
    expect(() => parseScorecard(merged, "merged")).not.toThrow();
  });

  it(
    "pools the shards' latency samples (percentiles of the whole round, not " +
      "averages of shards') and adds up tokens, requests and spans",
    () => {
      const shards = shardCards(recorded, 3);
      const merged = mergeScorecards(shards);
      expect(whole.metrics).not.toBeNull();
      for (const role of ["baseline", "candidate"] as const) {
        const engine = merged.metrics?.[role];
        expect(engine?.tpotMs).toEqual(whole.metrics?.[role].tpotMs);
        expect(engine?.itlMs).toEqual(whole.metrics?.[role].itlMs);
        expect(engine?.distributions).toEqual(whole.metrics?.[role].distributions);
        const spans = shards.reduce((sum, card) => sum + (card.metrics?.[role].durationMs ?? 0), 0);
        expect(engine?.durationMs).toBeCloseTo(spans, 2);
        expect(engine?.outputTokens).toBe(whole.metrics?.[role].outputTokens);
        expect(engine?.outputTokensPerS).toBeCloseTo(((engine?.outputTokens ?? 0) / spans) * 1000, 2);
      }
    },
  );

  it("keeps the metrics of the shards that have them when an older shard card (schema 1) has none", () => {
    const shards = shardCards(recorded, 2);
    const first = shards[0] as Scorecard;
    const second = shards[1] as Scorecard;
    const { metrics: _metrics, gpuState: _gpuState, docsBaseUrl: _docs, ...v1Fields } = first;
    const older = parseScorecard({ ...v1Fields, schemaVersion: 1 }, "shard-1.json");
    const merged = mergeScorecards([older, second]);
    expect(merged.metrics?.prompts).toBe(second.metrics?.prompts);
    expect(merged.promptsScored).toBe(whole.promptsScored);
    expect(merged.schemaVersion).toBe(2);
  });

  it("merges the shards of a round of three runs into the unsharded card, runs and interval included", () => {
    const wholeRuns = cardFor(recorded, recorded.promptIds, { runs: 3 });
    const merged = mergeScorecards(shardCards(recorded, 3, 3));
    expect(comparable(merged)).toEqual(comparable(wholeRuns));
    expect(merged.runs.completed).toBe(3);
    expect(merged.runs.scores).toEqual(wholeRuns.runs.scores);
    expect(merged.scoreInterval).toEqual(wholeRuns.scoreInterval);
  });

  it("recomputes every prompt from its times at k, never from a shard card's own scores", () => {
    const shards = shardCards(recorded, 2).map((card) => ({
      ...card,
      prompts: card.prompts.map((prompt) => ({ ...prompt, score: 9, speedup: 9 })),
    }));
    expect(comparable(mergeScorecards(shards))).toEqual(comparable(whole));
  });

  it("reads version-1 shard cards, converting them, and merges them into the card the old scorer would have given", () => {
    const oldShards = shardCards(recorded, 3).map((card) => parseScorecard(toVersion1(card), "shard.json"));
    const merged = mergeScorecards(oldShards);
    expect(merged.convertedFrom).toBe(1);
    expect(merged.promptsTotal).toBe(61);
    expect(merged.roundScore).toBeCloseTo(whole.roundScore as number, 5);
    expect(merged.gate.passed).toBe(whole.gate.passed);
    // Runners on an older speedgate may finish some shards: a mix merges, the converted shards' scores kept as theirs.
    const mixed = mergeScorecards([oldShards[0]!, ...shardCards(recorded, 3).slice(1)]);
    expect(mixed.convertedFrom).toBe(1);
    expect(mixed.roundScore).toBeCloseTo(whole.roundScore as number, 5);
  });

  it("recomputes the median from all prompts instead of averaging shard scores", () => {
    const shards = shardCards(recorded, 3);
    const average = shards.reduce((sum, card) => sum + (card.roundScore ?? 0), 0) / shards.length;
    const merged = mergeScorecards(shards);
    expect(merged.roundScore).toBe(whole.roundScore);
    expect(merged.roundScore).not.toBe(average);
    expect(merged.promptsTotal).toBe(61);
    expect(merged.belowTolerance + merged.zeroedTotal + merged.excluded + merged.promptsScored).toBe(61);
  });

  it("accepts the shards in any order", () => {
    const shards = shardCards(recorded, 4);
    expect(comparable(mergeScorecards(shards.slice().reverse()))).toEqual(comparable(mergeScorecards(shards)));
  });

  it("accepts images each runner built itself, whose IDs differ for the same inputs", () => {
    const shards = shardCards(recorded, 2).map((card, position) => ({
      ...card,
      provenance: {
        ...card.provenance,
        baselineImage: null,
        baselineImageId: `sha256:built-base-${position}`,
        imageDigest: `sha256:built-${position}`,
      },
    }));
    const merged = mergeScorecards(shards);
    expect(merged.provenance.imageDigest).toBe("sha256:built-0; sha256:built-1");
    expect(merged.provenance.baselineImageId).toBe("sha256:built-base-0; sha256:built-base-1");
  });

  it("says which shard failed", () => {
    const prompts = recorded.promptIds.map((id) => ({ id }));
    const shards = shardCards(recorded, 3);
    const failedShard = { index: 2, count: 3 };
    shards[1] = cardFor(
      recorded,
      selectShard(prompts, failedShard).map((prompt) => prompt.id),
      {
        shard: failedShard,
        candidateFailure: candidateOom,
      },
    );
    const merged = mergeScorecards(shards);
    expect(merged.failure?.kind).toBe("cuda_oom");
    expect(merged.failure?.summary).toMatch(/^shard 2 of 3: torch\.OutOfMemoryError/);
    expect(merged.gate.passed).toBe(false);
    // The failed shard's prompts count as zeroes; the others keep their measurements.
    expect(merged.zeroedTotal).toBeGreaterThanOrEqual(shards[1]?.promptsTotal ?? 0);
    expect(merged.roundScore).not.toBeNull();
  });

  it("puts a baseline failure first, whichever shard it was on", () => {
    const prompts = recorded.promptIds.map((id) => ({ id }));
    const shards = shardCards(recorded, 3);
    shards[0] = cardFor(
      recorded,
      selectShard(prompts, { index: 1, count: 3 }).map((prompt) => prompt.id),
      {
        shard: { index: 1, count: 3 },
        candidateFailure: candidateOom,
      },
    );
    shards[2] = cardFor(
      recorded,
      selectShard(prompts, { index: 3, count: 3 }).map((prompt) => prompt.id),
      {
        shard: { index: 3, count: 3 },
        baselineFailure: { ...candidateOom, engine: "baseline", summary: "baseline died" },
      },
    );
    const merged = mergeScorecards(shards);
    expect(merged.failure?.engine).toBe("baseline");
    expect(merged.failure?.summary).toBe("shard 3 of 3: baseline died (shard 1 of 3 also failed)");
    expect(merged.gate.reason).toMatch(/baseline engine failed, not the patch.*shard 3 of 3/);
  });

  describe("refuses shards that are not of one round", () => {
    const labels = ["a/scorecard.json", "b/scorecard.json", "c/scorecard.json"];

    it("with a different patch", () => {
      const shards = shardCards(recorded, 3);
      const other = shards[2] as Scorecard;
      shards[2] = { ...other, provenance: { ...other.provenance, patchHash: "f".repeat(64) } };
      expect(refusal(() => mergeScorecards(shards, { labels }))).toMatch(
        concatPatterns(
          /c\/scorecard\.json \(shard 3 of 3\): provenance\.patchHash is "f+" but a\/scorecard\.json \(shard 1 of 3\) has "p+"; shards /,
          /of one round must share it/,
        ),
      );
    });

    it.each([
      ["settings", (card: Scorecard): Scorecard => ({ ...card, settings: { ...card.settings, requestIntervalMs: 10 } })],
      ["gate", (card: Scorecard): Scorecard => ({ ...card, gate: { ...card.gate, minRoundScore: 1.1 } })],
      ["engine", (card: Scorecard): Scorecard => ({ ...card, engine: "vllm" })],
      [
        "provenance.baselineImageId",
        (card: Scorecard): Scorecard => ({ ...card, provenance: { ...card.provenance, baselineImageId: "sha256:other" } }),
      ],
      ["provenance.configHash", (card: Scorecard): Scorecard => ({ ...card, provenance: { ...card.provenance, configHash: "x" } })],
      ["provenance.promptsHash", (card: Scorecard): Scorecard => ({ ...card, provenance: { ...card.provenance, promptsHash: "x" } })],
      ["speedgateVersion", (card: Scorecard): Scorecard => ({ ...card, speedgateVersion: "9.9.9" })],
      [
        "source.headSha",
        (card: Scorecard): Scorecard => ({
          ...card,
          source: { repository: null, pullRequest: null, runId: null, runUrl: null, headSha: "a".repeat(40) },
        }),
      ],
      // Base/head mode: a shard scored against another base measured another baseline.
      [
        "commits",
        (card: Scorecard): Scorecard => ({
          ...card,
          commits: {
            base: "b".repeat(40),
            head: "c".repeat(40),
            mergeBase: "b".repeat(40),
            image: null,
            imageRevision: null,
            imageRevisionFrom: null,
            baseline: null,
            candidate: null,
          },
        }),
      ],
    ])("with a different %s", (what, change) => {
      const shards = shardCards(recorded, 3);
      shards[1] = change(shards[1] as Scorecard);
      expect(refusal(() => mergeScorecards(shards, { labels }))).toContain(`b/scorecard.json (shard 2 of 3): ${what} is`);
    });

    it("when a shard is missing", () => {
      const shards = shardCards(recorded, 3);
      expect(refusal(() => mergeScorecards([shards[0] as Scorecard, shards[2] as Scorecard]))).toContain(
        "shard 2 of 3 is missing; expected one card for each of shards 1 to 3",
      );
    });

    it("when a shard is given twice", () => {
      const shards = shardCards(recorded, 3);
      expect(refusal(() => mergeScorecards([...shards, shards[1] as Scorecard], { labels: [...labels, "d/scorecard.json"] }))).toContain(
        "shard 2 of 3 is given 2 times: b/scorecard.json, d/scorecard.json",
      );
    });

    it("when the shard counts differ", () => {
      const shards = [...shardCards(recorded, 2), ...shardCards(recorded, 3).slice(2)];
      expect(refusal(() => mergeScorecards(shards))).toContain("card 3 (shard 3 of 3): shard count is 3 but card 1 (shard 1 of 2) has 2");
    });

    it("when a card is not a shard's", () => {
      expect(refusal(() => mergeScorecards([whole], { labels: ["whole.json"] }))).toContain(
        "whole.json: expected a shard's card (written with shard: i/n), got an unsharded or merged card",
      );
    });

    it("when shards overlap", () => {
      const shards = shardCards(recorded, 2);
      const first = shards[0] as Scorecard;
      const second = shards[1] as Scorecard;
      shards[1] = { ...second, prompts: [...second.prompts, first.prompts[0] as Scorecard["prompts"][number]] };
      expect(refusal(() => mergeScorecards(shards))).toMatch(
        /prompt "p-\d+" is in both card 1 \(shard 1 of 2\) and card 2 \(shard 2 of 2\); shards must not overlap/,
      );
    });

    it("when there is nothing to merge", () => {
      expect(refusal(() => mergeScorecards([]))).toContain("expected at least one shard scorecard.json, got none");
    });
  });
});

describe("mergeScorecards: a round with scenarios", () => {
  const chat = recordRound(61);
  // The same prompt ids, the candidate slower: scenarios may share ids, and this one regresses.
  const prefill: RecordedRound = { promptIds: chat.promptIds.slice(0, 40), baseline: chat.candidate, candidate: chat.baseline };
  const rounds = [
    { name: "chat-rate4", recorded: chat },
    { name: "prefill-c32", recorded: prefill },
  ];

  function scenarioShards(count: number, maxRegression: number | null = 0.97): Scorecard[] {
    return Array.from({ length: count }, (_, position) => {
      const shard = { index: position + 1, count };
      const scenarios = rounds.map(({ name, recorded }) => {
        const ids = selectShard(
          recorded.promptIds.map((id) => ({ id })),
          shard,
        ).map((prompt) => prompt.id);
        return { name, card: cardFor(recorded, ids, { shard }) };
      });
      return assembleScenarioCard(scenarios, maxRegression);
    });
  }
  const wholeRound = assembleScenarioCard(
    rounds.map(({ name, recorded }) => ({ name, card: cardFor(recorded, recorded.promptIds) })),
    0.97,
  );
  const comparableRound = (card: Scorecard): unknown => ({
    ...(comparable({ ...card, scenarios: null }) as object),
    scenarios: card.scenarios?.map(({ name, card: one }) => ({ name, card: comparable(one) })),
  });

  it.each([1, 2, 3])("merges %i shards scenario by scenario into the card of the unsharded round", (count) => {
    const merged = mergeScorecards(scenarioShards(count));
    expect(comparableRound(merged)).toEqual(comparableRound(wholeRound));
    expect(merged.scenarios?.map((scenario) => [scenario.name, scenario.card.promptsTotal, scenario.card.shard])).toEqual([
      ["chat-rate4", 61, null],
      ["prefill-c32", 40, null],
    ]);
    expect(merged.gate).toMatchObject({ passed: false, maxRegression: 0.97 });
    // The synthetic chat round leaves more prompts unscored than gate.maxUnscored allows; the swapped one is slower.
    expect(merged.gate.reason).toBe("0 of 2 scenarios passed; failed: chat-rate4, prefill-c32");
    expect(() => parseScorecard(merged, "merged")).not.toThrow();
  });

  it("re-derives the combined gate, whatever the shards' top levels say", () => {
    const forged = scenarioShards(2).map((card) => ({
      ...card,
      roundScore: 9,
      gate: { ...card.gate, passed: true, reason: "2 of 2 scenarios passed", reasons: [] },
    }));
    expect(comparableRound(mergeScorecards(forged))).toEqual(comparableRound(wholeRound));
  });

  it("keeps the prompts file each scenario's card names through the merge", () => {
    const named = (card: Scorecard): Scorecard => ({
      ...card,
      scenarios: card.scenarios?.map(({ name, card: one }) => ({
        name,
        card: { ...one, settings: { ...one.settings, promptsSource: `prompts/${name}.jsonl` } },
      })),
    });
    const merged = mergeScorecards(scenarioShards(2).map(named));
    expect(merged.scenarios?.map((scenario) => scenario.card.settings.promptsSource)).toEqual([
      "prompts/chat-rate4.jsonl",
      "prompts/prefill-c32.jsonl",
    ]);
    expect(() => parseScorecard(merged, "merged")).not.toThrow();
  });

  it("gives the merged card no record of where the time went: each shard spent its own, side by side", () => {
    const timeSpent = SAMPLE_TIME_SPENT;
    expect(mergeScorecards(scenarioShards(2).map((card) => ({ ...card, timeSpent }))).timeSpent).toBeUndefined();
    expect(mergeScorecards(shardCards(chat, 2).map((card) => ({ ...card, timeSpent }))).timeSpent).toBeUndefined();
  });

  describe("refuses shards", () => {
    const labels = ["a/scorecard.json", "b/scorecard.json"];

    it("one with scenarios and one without, saying to run both with the same round config", () => {
      const shards = [scenarioShards(2)[0] as Scorecard, shardCards(chat, 2)[1] as Scorecard];
      expect(refusal(() => mergeScorecards(shards, { labels }))).toContain(
        "b/scorecard.json (shard 2 of 2): has no scenarios but a/scorecard.json (shard 1 of 2) has scenarios " +
          '["chat-rate4","prefill-c32"]; ' +
          "shards of one round must run the same scenarios in the same order: run every shard with the same round config",
      );
    });

    it("whose scenario lists differ", () => {
      const shards = scenarioShards(2);
      const second = shards[1] as Scorecard;
      shards[1] = { ...second, scenarios: second.scenarios?.slice(0, 1) };
      expect(refusal(() => mergeScorecards(shards, { labels }))).toContain(
        'b/scorecard.json (shard 2 of 2): has scenarios ["chat-rate4"] but a/scorecard.json (shard 1 of 2) has scenarios ' +
          '["chat-rate4","prefill-c32"]',
      );
    });

    it("whose scenario (not only the headline) was run with other settings, naming the scenario", () => {
      const shards = scenarioShards(2);
      const second = shards[1] as Scorecard;
      const scenarios = second.scenarios?.map((scenario, index) =>
        index === 1
          ? { ...scenario, card: { ...scenario.card, settings: { ...scenario.card.settings, requestIntervalMs: 10 } } }
          : scenario,
      );
      expect(refusal(() => mergeScorecards([shards[0] as Scorecard, { ...second, scenarios }], { labels }))).toContain(
        'b/scorecard.json (shard 2 of 2): scenario "prefill-c32": settings is',
      );
    });

    it("with another gate.maxRegression", () => {
      const shards = [scenarioShards(2)[0] as Scorecard, scenarioShards(2, 0.9)[1] as Scorecard];
      expect(refusal(() => mergeScorecards(shards, { labels }))).toContain(
        "b/scorecard.json (shard 2 of 2): gate.maxRegression is 0.9 but a/scorecard.json (shard 1 of 2) has 0.97; shards of one " +
          "round must share it",
      );
    });

    it("whose shares of one scenario overlap", () => {
      const shards = scenarioShards(2);
      const [first, second] = shards as [Scorecard, Scorecard];
      const overlapping = second.scenarios?.map((scenario, index) =>
        index === 1
          ? {
              ...scenario,
              card: {
                ...scenario.card,
                prompts: [...scenario.card.prompts, first.scenarios?.[1]?.card.prompts[0] as Scorecard["prompts"][number]],
              },
            }
          : scenario,
      );
      expect(refusal(() => mergeScorecards([first, { ...second, scenarios: overlapping }]))).toMatch(
        /scenario "prefill-c32": prompt "p-\d+" is in both card 1 \(shard 1 of 2\) and card 2 \(shard 2 of 2\); shards must not overlap/,
      );
    });
  });
});
