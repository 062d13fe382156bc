import { describe, expect, it } from "vitest";
import { parseRescoreCommand } from "../../src/github/parse-rescore-command.js";

describe("parseRescoreCommand: /rescore as GitHub renders the comment", () => {
  it.each([
    ["/rescore", null],
    ["/rescore please\nthanks", null],
    ["   /rescore", null],
    ["/rescore\n\nmore text", null],
    ["/rescore abc1234", "abc1234"],
    ["/rescore ABC1234DEF0 now", "abc1234def0"],
    ["/rescore --sha 0000000000000000000000000000000000000000", null],
  ])("reads %j as the command (named SHA: %s)", (body, sha) => {
    expect(parseRescoreCommand(body)).toEqual({ sha });
  });

  it.each([
    "    /rescore",
    "\t/rescore",
    "```\n/rescore\n```",
    "~~~\n/rescore\n~~~",
    "> /rescore",
    "`/rescore`",
    "*/rescore*",
    "- /rescore",
    "# /rescore",
    "<!-- x -->\n/rescore",
    "looks good\n/rescore",
    "/rescorex",
    "/rescore;id",
  ])("does not read %j as the command", (body) => {
    expect(parseRescoreCommand(body)).toBeNull();
  });
});
