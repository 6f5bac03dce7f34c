/**
 * The runtime stands alone: every relative import of a runtime module names another runtime
 * module, never a per-spec one (the route table, the handlers, the client class, the document),
 * which the templates render and pass in.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadRuntimeFiles, RUNTIME_DIR } from "../../src/emit/runtime-files.js";

const IMPORT = /(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g;

describe("the runtime", () => {
  it("imports only runtime modules", () => {
    const runtime = loadRuntimeFiles();
    const outside = [...runtime.paths].flatMap((path) => {
      const text = runtime.take(path)[0]?.content ?? "";
      return [...text.matchAll(IMPORT)]
        .map((match) => match[1] ?? "")
        .filter((target) => !existsSync(join(RUNTIME_DIR, dirname(path), target.replace(/\.js$/, ".ts"))))
        .map((target) => `${path} → ${target}`);
    });
    expect(outside).toEqual([]);
  });
});
