import { describe, expect, it } from "vitest";
import { renderFold } from "../../../src/scorecard/render/render-key-value-table.js";

describe("renderFold", () => {
  it("keeps no backticks in the summary line, where GitHub renders no Markdown and would show them as written", () => {
    expect(renderFold("the base `abc` against `def`", "body `kept`")).toBe(
      "<details><summary>the base abc against def</summary>\n\nbody `kept`\n\n</details>",
    );
  });
});
