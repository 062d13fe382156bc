import { describe, expect, it } from "vitest";
import { describeVerdict } from "../../../src/scorecard/render/describe-card.js";
import { parseScorecardJson } from "../../../src/scorecard/read-scorecard.js";
import { renderCommitsSection, renderCommitsText } from "../../../src/scorecard/render/render-commits-section.js";
import { renderMarkdown } from "../../../src/scorecard/render/render-markdown.js";
import { renderText } from "../../../src/scorecard/render/render-text.js";
import type { CardCommits, Scorecard } from "../../../src/scorecard/scorecard-schema.js";
import { imageBaseMismatch } from "../../../src/failure/image-base-mismatch.js";
import { makeCard } from "../../../harness/make-card.js";

const BASE = "b".repeat(40);
const HEAD = "c".repeat(40);
const IMAGE_COMMIT = "a".repeat(40);

const commits: CardCommits = {
  base: BASE,
  head: HEAD,
  mergeBase: BASE,
  image: "lmsysorg/sglang:dev",
  imageRevision: IMAGE_COMMIT,
  imageRevisionFrom: "file /sgl-workspace/sglang/.git/HEAD",
  baseline: {
    commit: BASE,
    imageId: "sha256:1111",
    overlayFiles: 12,
    overlayPaths: ["python/sglang/srt/a.py", "python/sglang/srt/b.py"],
    overlayMs: 4200,
    cache: "miss",
    leftOut: 0,
    build: {
      ran: true,
      reason: "the candidate builds, so the baseline is built by the same commands",
      ms: 61_000,
      cache: "warm",
      hit: true,
    },
  },
  candidate: {
    commit: HEAD,
    imageId: "sha256:2222",
    overlayFiles: 1,
    overlayPaths: ["sgl-kernel/csrc/gemm.cu"],
    overlayMs: 900,
    cache: null,
    leftOut: 2,
    build: { ran: true, reason: "the pull request changes compiled code (sgl-kernel/csrc/gemm.cu)", ms: 95_000, cache: "warm", hit: false },
  },
};

function withCommits(card: Scorecard, value: CardCommits): Scorecard {
  return { ...card, commits: value };
}

describe("the card's commits section (base/head mode)", () => {
  it("names the image, both commits, the cache and each engine's overlay and build", () => {
    const section = renderCommitsSection(withCommits(makeCard([{ speedup: 1.2 }]), commits));
    // Folded, its summary saying what was compared and what was built; the facts line has the commits in short.
    expect(section).toContain(
      "<details><summary>Commits, baseline cache and build: the base bbbbbbbbbbbb against the head cccccccccccc; built: baseline and " +
        "candidate</summary>",
    );
    expect(section).toContain("| Engine image | lmsysorg/sglang:dev at `aaaaaaaaaaaa` (file `/sgl-workspace/sglang/.git/HEAD`) |");
    expect(section).toContain("| Baseline | the base `bbbbbbbbbbbb` |");
    expect(section).toContain("| Baseline image | built for this base in 4.2 s and cached for the next pull request on it |");
    expect(section).toContain(
      "| Candidate build | ran in 95.0 s; build cache warm, missed: the pull request changes compiled code (`sgl-kernel/csrc/gemm.cu`) |",
    );
    expect(section).toContain("| Baseline build | ran in 61.0 s; build cache warm, hit: the candidate builds");
    expect(section).toContain("| Candidate files left out | 2 changed files outside `source.paths` |");
  });

  it("says a cached baseline was reused, and a head behind its base is merged onto it", () => {
    const cached: CardCommits = {
      ...commits,
      mergeBase: "d".repeat(40),
      baseline: {
        ...commits.baseline!,
        cache: "hit",
        overlayFiles: null,
        overlayMs: null,
        build: { ran: false, reason: "built by an earlier round", ms: null, cache: null, hit: null },
      },
    };
    const section = renderCommitsSection(withCommits(makeCard([{ speedup: 1.2 }]), cached));
    expect(section).toContain("| Baseline image | cached baseline for this base, reused (no overlay build) |");
    expect(section).toContain("(branched off at `dddddddddddd`; its changes since then are applied on the base)");
    expect(renderCommitsText(withCommits(makeCard([{ speedup: 1.2 }]), cached)).join("\n")).toContain(
      "merged onto the base from dddddddddddd",
    );
  });

  it("is absent from a fixed-baseline card, and both renderers carry it for a base/head card", () => {
    const plain = makeCard([{ speedup: 1.2 }]);
    expect(renderCommitsSection(plain)).toBe("");
    expect(renderMarkdown(plain)).not.toContain("Commits, baseline cache and build");
    expect(renderMarkdown(plain)).not.toContain(" → head ");
    const card = withCommits(plain, commits);
    expect(renderMarkdown(card)).toContain("<details><summary>Commits, baseline cache and build");
    expect(renderMarkdown(card)).toContain(`· base ${BASE.slice(0, 7)} → head ${HEAD.slice(0, 7)} ·`);
    expect(renderText(card)).toContain(`Commits: baseline = base ${BASE.slice(0, 12)}, candidate = head ${HEAD.slice(0, 12)}`);
  });

  it("escapes what an artifact could forge in its paths", () => {
    const forged: CardCommits = {
      ...commits,
      candidate: { ...commits.candidate!, overlayPaths: ["x.py | <img src=x> [a](https://evil.invalid)"] },
    };
    const section = renderCommitsSection(withCommits(makeCard([{ speedup: 1.2 }]), forged));
    expect(section).not.toContain("<img");
    expect(section).not.toMatch(/\[a\]\(https:/);
  });

  it("reads a card with commits, and still reads one from before base/head mode", () => {
    const card = withCommits(makeCard([{ speedup: 1.2 }]), commits);
    expect(parseScorecardJson(JSON.stringify(card), "card").commits).toEqual(commits);
    const { commits: _dropped, ...old } = card;
    expect(parseScorecardJson(JSON.stringify(old), "card").commits).toBeUndefined();
    expect(() => parseScorecardJson(JSON.stringify({ ...card, commits: { ...commits, base: "main" } }), "card")).toThrow();
  });

  it("gives an image_base_mismatch card a headline blaming the image, not the engine or the patch", () => {
    const failure = imageBaseMismatch({
      image: "lmsysorg/sglang:dev",
      imageRevision: IMAGE_COMMIT,
      base: BASE,
      reason: "the image's commit is not an ancestor of the base",
    });
    const card = { ...makeCard([{ speedup: 1.2 }]), failure: { ...failure, run: null } };
    expect(describeVerdict(card)).toEqual({
      passed: false,
      outcome: "none",
      headline:
        `⚠️ No verdict: the engine image does not fit the base commit, neither engine nor the patch failed (lmsysorg/sglang:dev ` +
        `(source at aaaaaaaaaaaa) cannot be brought to the base bbbbbbbbbbbb)`,
    });
    expect(renderMarkdown(card)).toContain("docs/troubleshooting/image_base_mismatch.md");
  });
});
