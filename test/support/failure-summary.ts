/**
 * A reporter printing, after vitest's own summary, what failed in a few lines: each failed test
 * and each error outside a test (an unhandled rejection, a failed hook), with its message and the
 * first frames of its stack in the repository. vitest prints these in full above its summary,
 * which a log cut to its last lines (a CI system's excerpt) loses; these lines come last. The very
 * last is the run's count in the plain form a CI system reads whatever the runner
 * (`vitest: 5197 passed, 0 failed`, then `, N skipped` when some were): vitest's own summary is
 * not among the forms such systems know, and a run they cannot read is judged by its exit code
 * alone. An error outside a test counts as a failure there.
 */
import type { Reporter, TestModule, TestRunEndReason } from "vitest/node";

/** The most characters of a message, and the most frames of a stack, shown per error. */
const MOST_CHARACTERS = 400;
const MOST_FRAMES = 3;

interface ShownError {
  readonly name?: string;
  readonly message: string;
  readonly stack?: string;
  readonly cause?: unknown;
}

export default class FailureSummary implements Reporter {
  onTestRunEnd(
    modules: ReadonlyArray<TestModule>,
    unhandled: ReadonlyArray<ShownError>,
    _reason: TestRunEndReason,
  ): void {
    const lines: string[] = [];
    for (const module of modules) {
      for (const error of module.errors()) lines.push(`${module.relativeModuleId}: ${shown(error)}`);
      for (const test of module.children.allTests("failed"))
        for (const error of test.result().errors ?? [])
          lines.push(`${module.relativeModuleId} > ${test.fullName}: ${shown(error)}`);
    }
    for (const error of unhandled) lines.push(`outside a test${origin(error)}: ${shown(error)}`);
    if (lines.length > 0)
      process.stdout.write(`\n── what failed (${lines.length}) ──\n${lines.map((line) => `- ${line}`).join("\n")}\n`);
    process.stdout.write(`\n${closingLine(modules, unhandled.length)}\n`);
  }
}

/**
 * The run's count as a line of its own: the tests that passed, those that failed (with the errors
 * outside a test: a file that did not load, a failed hook, an unhandled rejection), and those
 * skipped, when there are any.
 */
export function closingLine(modules: ReadonlyArray<TestModule>, errorsOutside: number): string {
  const count = { passed: 0, failed: errorsOutside, skipped: 0 };
  for (const module of modules) {
    count.failed += module.errors().length;
    for (const test of module.children.allTests()) {
      const state = test.result().state;
      if (state === "passed" || state === "failed" || state === "skipped") count[state]++;
    }
  }
  const skipped = count.skipped === 0 ? "" : `, ${count.skipped} skipped`;
  return `vitest: ${count.passed} passed, ${count.failed} failed${skipped}`;
}

/** An error in a line or a few: its name and message, its cause's, and its first frames here. */
export function shown(error: ShownError): string {
  const name = (error.name ?? "Error").replace(/^Caused by: /, "");
  const message = `${name}: ${error.message}`.replace(/\s+/g, " ");
  const cut = message.length > MOST_CHARACTERS ? `${message.slice(0, MOST_CHARACTERS)}…` : message;
  const frames = (error.stack ?? "")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.startsWith("at ") && !/node_modules|node:internal|\(<anonymous>\)/.test(line))
    .map((line) => line.replace(`${process.cwd()}/`, ""))
    .slice(0, MOST_FRAMES);
  const cause = error.cause as ShownError | undefined;
  const caused = typeof cause?.message === "string" ? ` (caused by ${shown(cause)})` : "";
  return `${cut}${frames.length === 0 ? "" : ` ${frames.join(" ")}`}${caused}`;
}

/** The test file vitest names an error outside a test by, when it does. */
function origin(error: ShownError): string {
  const file = (error as { VITEST_TEST_PATH?: unknown }).VITEST_TEST_PATH;
  const test = (error as { VITEST_TEST_NAME?: unknown }).VITEST_TEST_NAME;
  if (typeof file !== "string") return "";
  return ` (while ${file.replace(/^.*?\/test\//, "test/")} ran${typeof test === "string" ? `, last "${test}"` : ""})`;
}
