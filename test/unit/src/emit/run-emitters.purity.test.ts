/**
 * Emitters are pure: none writes into the document or the model it is given (they are shared by
 * every emitter). Run on deep-frozen inputs, any write throws.
 */
import { describe, expect, it } from "vitest";
import { EMITTERS } from "../../../../src/emit/emitters.js";
import { runEmitters } from "../../../../src/emit/run-emitters.js";
import { buildModel, DEFAULT_TEMPLATES_DIR, loadSpec } from "../../../../src/index.js";

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

describe("every emitter", () => {
  it.each(["discriminator", "read-write", "multipart", "parameters"])(
    "leaves the document and the model of %s untouched",
    async (fixture) => {
      const loaded = await loadSpec(`test/fixtures/${fixture}/openapi.yaml`);
      const document = deepFreeze(structuredClone(loaded.document));
      const model = deepFreeze(buildModel(loaded, `test/fixtures/${fixture}/openapi.yaml`).model);
      const files = await runEmitters(EMITTERS, {
        model,
        document,
        templatesDir: DEFAULT_TEMPLATES_DIR,
        formats: "assert",
        paging: [],
      });
      expect(files.length).toBeGreaterThan(10);
    },
  );
});
