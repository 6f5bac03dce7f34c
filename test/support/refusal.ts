import { expect } from "vitest";
import { GenerationFailed } from "../../src/diagnostics/diagnostic.js";

/** The diagnostics a load or a generation is refused with, each as "CODE message"; fails the test if it succeeds. */
export async function refusalMessages(promise: Promise<unknown>): Promise<string[]> {
  const error = await promise.then(
    () => expect.fail("the document loaded"),
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(GenerationFailed);
  return (error as GenerationFailed).diagnostics.map((d) => `${d.code} ${d.message}`);
}
