/**
 * Emitters are pure: none writes into the document or the model it is given (they are shared by
 * every emitter). Run on deep-frozen inputs, any write throws.
 */
import { describe, expect, it } from "vitest";
import { MAIN_LANE } from "../../src/emit/main-lane.js";
import { runLane } from "../../src/emit/run-lane.js";
import { SIDE_LANE } from "../../src/emit/side-lane.js";
import { TYPES_LANE } from "../../src/emit/types-lane.js";
import { buildModel, DEFAULT_TEMPLATES_DIR, loadSpec } from "../../src/index.js";

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

describe("every emitter", () => {
  it.each(["discriminator", "read-write", "multipart", "parameters"])("leaves the document and the model of %s untouched", async (fixture) => {
    const loaded = await loadSpec(`test/fixtures/${fixture}/openapi.yaml`);
    const document = deepFreeze(structuredClone(loaded.document));
    const model = deepFreeze(buildModel(loaded, `test/fixtures/${fixture}/openapi.yaml`).model);
    const lane = { model, document, templatesDir: DEFAULT_TEMPLATES_DIR, formats: "assert" as const };
    const files = [...(await runLane(MAIN_LANE, lane)), ...(await runLane(SIDE_LANE, lane)), ...(await runLane(TYPES_LANE, lane))];
    expect(files.length).toBeGreaterThan(10);
  });
});
