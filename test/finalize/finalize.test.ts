import { describe, expect, it } from "vitest";
import { GenerationFailed } from "../../src/diagnostics/diagnostic.js";
import { finalizeFiles } from "../../src/finalize/finalize.js";

function failure(run: () => unknown): GenerationFailed {
  try {
    run();
  } catch (error) {
    if (error instanceof GenerationFailed) return error;
    throw error;
  }
  throw new Error("expected GenerationFailed");
}

describe("finalizeFiles", () => {
  it("puts the header on TypeScript files and normalises whitespace", () => {
    const [file] = finalizeFiles([{ path: "a.ts", content: "export const a = 1;  \r\n\n\n\nexport const b = 2;" }], "spec/openapi.yaml");
    expect(file?.content).toMatch(/^\/\/ Generated from spec\/openapi\.yaml by `npm run generate`\./);
    expect(file?.content.endsWith("export const a = 1;\n\nexport const b = 2;\n")).toBe(true);
  });

  it("reports rendered TypeScript that does not parse, by file, line and column", () => {
    const error = failure(() => finalizeFiles([{ path: "server/plugin.ts", content: "export const a = {;\n" }], "spec.yaml"));
    expect(error.diagnostics).toEqual([expect.objectContaining({ code: "TEMPLATE_FAILED", message: expect.stringMatching(/^generated server\/plugin\.ts:\d+:\d+ is not valid TypeScript: /) })]);
  });

  it("leaves printed files and runtime copies out of the syntax gate", () => {
    const broken = "export const a = {;\n";
    const files = [
      { path: "types.ts", content: broken },
      { path: "client/runtime.ts", content: broken },
    ];
    expect(finalizeFiles(files, "spec.yaml", new Set(["client/runtime.ts"]))).toHaveLength(2);
  });
});
