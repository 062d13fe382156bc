/*
 * The flags Chromium needs on a machine with no internet: without the background-networking ones it
 * opens connections the network refuses, many at a time. One list for the screenshots (this folder)
 * and the browser tests (test/support/launch-chromium.ts), so a flag one needs reaches the other.
 */
export const CLOSED_NETWORK_CHROMIUM_FLAGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
