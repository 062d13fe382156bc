import { findFreePort } from "../../src/engine/find-free-port.js";

/** A loopback port that was free a moment ago, so parallel test files never fight over one. */
export const getFreePort = findFreePort;
