import { describe, expect, it } from "vitest";
import { GenerationFailed } from "../../../../src/diagnostics/diagnostic.js";
import { checkTemplateSyntax, finalizeFiles } from "../../../../src/finalize/finalize.js";

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
    const [file] = finalizeFiles(
      [{ path: "a.ts", content: "export const a = 1;  \r\n\n\n\nexport const b = 2;" }],
      "spec/openapi.yaml",
    );
    expect(file?.content).toMatch(/^\/\/ Generated from spec\/openapi\.yaml by `npm run generate`\./);
    expect(file?.content.endsWith("export const a = 1;\n\nexport const b = 2;\n")).toBe(true);
  });
});

describe("checkTemplateSyntax", () => {
  it("reports rendered TypeScript that does not parse, by file, line and column, as written", () => {
    const files = finalizeFiles(
      [{ path: "server/plugin.ts", content: "// line 1\nexport const a = {;\n" }],
      "spec.yaml",
    );
    const error = failure(() => checkTemplateSyntax(files, new Set()));
    // positions are those of the written file, header included
    expect(error.diagnostics).toEqual([
      expect.objectContaining({
        code: "TEMPLATE_FAILED",
        message: expect.stringMatching(/^generated server\/plugin\.ts:5:19 is not valid TypeScript: /),
      }),
    ]);
  });

  it("leaves printed files, runtime copies and files other than TypeScript out", () => {
    const broken = "export const a = {;\n";
    const files = [
      { path: "types.ts", content: broken },
      { path: "client/runtime.ts", content: broken },
      { path: "openapi.json", content: broken },
      { path: "server/stubs.ts", content: "export const a = { b: 1 };\n" },
    ];
    expect(() => checkTemplateSyntax(files, new Set(["client/runtime.ts"]))).not.toThrow();
  });
});
