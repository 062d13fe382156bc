import { describe, expect, it } from "vitest";
import { resolveDocsBaseUrl } from "../../../src/scorecard/render/resolve-docs-base-url.js";

describe("resolveDocsBaseUrl", () => {
  it("links speedgate's own repository at the ref the workflow used, inside the action", () => {
    expect(resolveDocsBaseUrl({ GITHUB_ACTION_REPOSITORY: "acme/speedgate", GITHUB_ACTION_REF: "v1" })).toBe(
      "https://github.com/acme/speedgate/blob/v1/docs/troubleshooting/",
    );
    expect(
      resolveDocsBaseUrl({
        GITHUB_ACTION_REPOSITORY: "acme/speedgate",
        GITHUB_ACTION_REF: "v1",
        GITHUB_SERVER_URL: "https://ghe.example.com/",
      }),
    ).toBe("https://ghe.example.com/acme/speedgate/blob/v1/docs/troubleshooting/");
  });

  it("prefers SPEEDGATE_DOCS_URL, adding the trailing slash, and ignores one that is not a docs/troubleshooting https URL", () => {
    expect(
      resolveDocsBaseUrl({
        SPEEDGATE_DOCS_URL: "https://github.com/fork/speedgate/blob/main/docs/troubleshooting",
        GITHUB_ACTION_REPOSITORY: "acme/speedgate",
        GITHUB_ACTION_REF: "v1",
      }),
    ).toBe("https://github.com/fork/speedgate/blob/main/docs/troubleshooting/");
    expect(resolveDocsBaseUrl({ SPEEDGATE_DOCS_URL: "http://example.com/" })).toBeNull();
  });

  it(
    "gives null outside the action (a local action, the CLI), so the card " + "names the page instead of linking against the pull request",
    () => {
      expect(resolveDocsBaseUrl({})).toBeNull();
      expect(resolveDocsBaseUrl({ GITHUB_ACTION_REPOSITORY: "", GITHUB_ACTION_REF: "" })).toBeNull();
      expect(resolveDocsBaseUrl({ GITHUB_ACTION_REPOSITORY: "acme/speedgate", GITHUB_ACTION_REF: "v1) [x](y" })).toBeNull();
    },
  );
});
