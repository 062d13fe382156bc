import { describe, expect, it } from "vitest";
import { findCompilerError } from "../../src/failure/find-compiler-error.js";

describe("findCompilerError", () => {
  it("gives GCC's first error with its file and line, not the caret line it ends with", () => {
    // g++ 14's output for a missing semicolon and an unknown name.
    const gcc = [
      "bad.cpp: In function ‘int main()’:",
      "bad.cpp:2:12: error: expected ‘,’ or ‘;’ before ‘return’",
      "    2 |   int x = 1",
      "      |            ^",
      "      |            ;",
      "    3 |   return y;",
      "      |   ~~~~~~",
      "bad.cpp:3:10: error: ‘y’ was not declared in this scope",
      "    3 |   return y;",
      "      |          ^",
    ];
    expect(findCompilerError(gcc)).toBe("bad.cpp:2:12: error: expected ‘,’ or ‘;’ before ‘return’");
  });

  it.each([
    [
      "tools/server/server.cpp:42:1: fatal error: missing.h: No such file or directory",
      "tools/server/server.cpp:42:1: fatal error: missing.h: No such file or directory",
    ],
    ['src/kernel.cu(88): error: identifier "half3" is undefined', 'src/kernel.cu(88): error: identifier "half3" is undefined'],
    ["C:\\src\\a.cpp(7,3): error C2065: 'y': undeclared identifier", "C:\\src\\a.cpp(7,3): error C2065: 'y': undeclared identifier"],
  ])("%s", (line, expected) => {
    expect(findCompilerError(["make[2]: entering", line, "make: *** [all] Error 2"])).toBe(expected);
  });

  it("puts rustc's location before its error", () => {
    expect(
      findCompilerError([
        "error[E0425]: cannot find value `y` in this scope",
        " --> src/main.rs:3:12",
        "error: aborting due to 1 previous error",
      ]),
    ).toBe("src/main.rs:3:12: error[E0425]: cannot find value `y` in this scope");
  });

  it("finds nothing in output without a compiler error", () => {
    expect(findCompilerError(["pip install failed", "make: *** [all] Error 2"])).toBeNull();
  });
});
