import { describe, expect, it } from "vitest";
import { findUnknownPlaceholders } from "../../src/config/find-unknown-placeholders.js";

describe("findUnknownPlaceholders", () => {
  it("accepts what each runtime fills, {host} in a process round included", () => {
    expect(
      findUnknownPlaceholders(
        ["llama-server", "--host", "{host}", "--port", "{port}", "-c", "{contextLimit}", "--alias", "{model}"],
        "process",
      ),
    ).toEqual([]);
    expect(findUnknownPlaceholders(["{node}", "{speedgate}", "sim-engine"], "process")).toEqual([]);
    expect(findUnknownPlaceholders(["serve", "--host={host}"], "docker")).toEqual([]);
  });

  it("names a misspelled placeholder, the argument it is in and the one meant", () => {
    const found = findUnknownPlaceholders(["llama-server", "--host", "{hots}", "--port", "{port}"], "process");
    expect(found).toHaveLength(1);
    expect(found[0]?.index).toBe(2);
    expect(found[0]?.problem).toContain("{hots} is none of them (did you mean {host}?)");
  });

  it("refuses the process runtime's host paths in a container, and leaves a shell's ${VAR} and JSON alone", () => {
    expect(findUnknownPlaceholders(["{node}", "server.js"], "docker")[0]?.problem).toContain("{node} is the process runtime's");
    expect(findUnknownPlaceholders(["sh", "-c", 'exec serve --port {port} --home "${HOME}"'], "docker")).toEqual([]);
    expect(findUnknownPlaceholders(["--override", '{"a": 1}'], "process")).toEqual([]);
  });
});
