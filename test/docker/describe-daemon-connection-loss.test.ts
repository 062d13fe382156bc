import { describe, expect, it } from "vitest";
import { describeDaemonConnectionLoss } from "../../src/docker/describe-daemon-connection-loss.js";

function socketError(message: string, code: string, syscall?: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code, ...(syscall ? { syscall } : {}) });
}

describe("describeDaemonConnectionLoss", () => {
  it("recognises a refused or missing daemon socket and a connection dropped mid-stream", () => {
    expect(describeDaemonConnectionLoss(socketError("connect ECONNREFUSED /var/run/docker.sock", "ECONNREFUSED", "connect"))).toBe(
      "connect ECONNREFUSED /var/run/docker.sock",
    );
    expect(describeDaemonConnectionLoss(socketError("connect ENOENT /var/run/docker.sock", "ENOENT", "connect"))).toBe(
      "connect ENOENT /var/run/docker.sock",
    );
    expect(describeDaemonConnectionLoss(socketError("aborted", "ECONNRESET"))).toBe("aborted (ECONNRESET)");
    expect(describeDaemonConnectionLoss(new Error("socket hang up"))).toBe("socket hang up");
  });

  it("finds the socket error behind a wrapping error's cause and inside an aggregated message", () => {
    const wrapped = new Error("docker: could not create the baseline container: aborted", { cause: socketError("aborted", "ECONNRESET") });
    expect(describeDaemonConnectionLoss(wrapped)).toBe("aborted (ECONNRESET)");
    expect(
      describeDaemonConnectionLoss(new Error("docker: could not remove 1 resource(s): container abc: connect ECONNREFUSED /x.sock")),
    ).toMatch(/ECONNREFUSED/);
  });

  it("does not mistake what the daemon answered, or a missing file, for a lost daemon", () => {
    expect(describeDaemonConnectionLoss(Object.assign(new Error("(HTTP code 404) no such container"), { statusCode: 404 }))).toBeNull();
    expect(describeDaemonConnectionLoss(socketError("ENOENT: no such file or directory, scandir '/ctx'", "ENOENT", "scandir"))).toBeNull();
    expect(describeDaemonConnectionLoss("ECONNREFUSED")).toBeNull();
  });
});
