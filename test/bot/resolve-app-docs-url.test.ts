import { describe, expect, it } from "vitest";
import { DEFAULT_APP_DOCS_URL, resolveAppDocsUrl } from "../../bot/resolve-app-docs-url.js";

describe("resolveAppDocsUrl", () => {
  it("uses speedgate's own pages at the app's version unless SPEEDGATE_DOCS_URL names others", () => {
    expect(resolveAppDocsUrl({})).toBe(DEFAULT_APP_DOCS_URL);
    expect(DEFAULT_APP_DOCS_URL).toMatch(/^https:\/\/github\.com\/speedgate\/speedgate\/blob\/v\d+\.\d+\.\d+\/docs\/troubleshooting\/$/);
    expect(resolveAppDocsUrl({ SPEEDGATE_DOCS_URL: "https://ghe.example.com/tools/speedgate/blob/main/docs/troubleshooting" })).toBe(
      "https://ghe.example.com/tools/speedgate/blob/main/docs/troubleshooting/",
    );
  });

  it("refuses a setting that is not an https docs/troubleshooting/ URL, naming it", () => {
    expect(() => resolveAppDocsUrl({ SPEEDGATE_DOCS_URL: "javascript:alert(1)" })).toThrow(
      "SPEEDGATE_DOCS_URL: expected an https URL ending in /docs/troubleshooting/",
    );
  });
});
