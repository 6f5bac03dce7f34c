/**
 * The runtime stands alone: every relative import of a runtime module names another runtime
 * module, never a per-spec one (the route table, the handlers, the client class, the document),
 * which the templates render and pass in.
 */
import { describe, expect, it } from "vitest";
import { loadRuntimeFiles } from "../../../../src/emit/runtime-files.js";
import { importsIn } from "../../../support/imports.js";

describe("the runtime", () => {
  it("imports only runtime modules", () => {
    const runtime = loadRuntimeFiles();
    expect(runtime.paths.size).toBeGreaterThan(40);
    const outside = [...runtime.paths].flatMap((path) =>
      importsIn(`runtime/${path}`, runtime.take(path)[0]?.content ?? "")
        .filter((line) => !line.to?.startsWith("runtime/"))
        .map((line) => `${path} → ${line.specifier}`),
    );
    expect(outside).toEqual([]);
  });
});
