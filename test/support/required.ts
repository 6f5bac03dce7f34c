/**
 * Inputs some suites need from the machine (the third-party corpus, a Chromium, PostgreSQL's
 * binaries). Outside CI a missing one turns those suites into skips that say why and how to get
 * it; in CI (`CI` set to anything but "" or "false"), where `.ci/run` provides every one of them,
 * a missing one fails the run instead, so no suite can drop out of CI unnoticed.
 */

/** Whether this run is CI's. */
export function inCi(): boolean {
  const ci = process.env.CI;
  return ci !== undefined && ci !== "" && ci !== "false";
}

/**
 * Reports a missing input: throws in CI (failing the test file that needs it), elsewhere writes
 * one line to stderr saying which tests are skipped and why. Does nothing when `missing` is
 * undefined (the input is there).
 */
export function requireInCi(tests: string, missing: string | undefined): void {
  if (missing === undefined) return;
  if (inCi()) throw new Error(`CI must run the ${tests}: ${missing}`);
  process.stderr.write(`${tests} skipped: ${missing}\n`);
}
