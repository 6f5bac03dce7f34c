import { describe, expect, it } from "vitest";
import { GenerationFailed } from "../../src/diagnostics/diagnostic.js";
import { finalizeFiles, gateSyntax } from "../../src/finalize/finalize.js";

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

  it("parses a file's gate text in place of its content, and the content itself when the gate text fails", () => {
    // the data literal is valid by construction: only the template's code around it is parsed
    const data = { path: "routes.ts", content: "export const routes = { a: 1 } as const;\n", gate: "export const routes = {} as const;\n" };
    expect(finalizeFiles([data], "spec.yaml")).toEqual([{ path: "routes.ts", content: expect.stringContaining("export const routes = { a: 1 } as const;") }]);
    const broken = { path: "routes.ts", content: "// line 1\nexport const routes = { a: 1 } as const\n  ;;)\n", gate: "// line 1\nexport const routes = {} as const\n  ;;)\n" };
    const error = failure(() => finalizeFiles([broken], "spec.yaml"));
    // positions are those of the written file, header included
    expect(error.diagnostics.map((diagnostic) => diagnostic.message)).toEqual([expect.stringMatching(/^generated routes\.ts:6:5 is not valid TypeScript: /)]);
    const gateOnly = { path: "routes.ts", content: "export const routes = 1;\n", gate: "export const routes = {;\n" };
    expect(finalizeFiles([gateOnly], "spec.yaml")).toHaveLength(1);
  });

  it("leaves the gate to gateSyntax when asked: the files keep the text it is to parse", () => {
    const files = [
      { path: "server/mock.ts", content: "export const a = { b: 1 };\n", gate: "export const a = {};\n" },
      { path: "server/stubs.ts", content: "export const c = {;\n" },
      { path: "types.ts", content: "export type T = {;\n" },
    ];
    const finalized = finalizeFiles(files, "spec.yaml", new Set(), { gate: false });
    expect(finalized.map((file) => [file.path, file.gate])).toEqual([
      ["server/mock.ts", "export const a = {};\n"],
      ["server/stubs.ts", expect.stringContaining("export const c = {;")],
      ["types.ts", undefined],
    ]);
    const error = failure(() => gateSyntax(finalized));
    expect(error.diagnostics).toEqual([expect.objectContaining({ message: expect.stringMatching(/^generated server\/stubs\.ts:4:/) })]);
    const passed = gateSyntax(finalized.filter((file) => file.path !== "server/stubs.ts"));
    expect(passed.map((file) => Object.keys(file))).toEqual([
      ["path", "content"],
      ["path", "content"],
    ]);
  });
});
