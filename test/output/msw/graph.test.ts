/**
 * What a page or a Node process serving the sandbox through MSW loads: the module graph of
 * `./msw` and `./sandbox/in-page`, bundled by esbuild as an application bundles it, with default
 * settings and no externals. For the browser it must resolve in full (no `node:` module, no
 * Fastify); for Node, none of the package's own modules on that path may import Fastify or a
 * `node:` module, so MSW over the sandbox runs without Fastify installed.
 */
import { build, type Metafile } from "esbuild";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../support/paths.js";

/** A page's use of both entries, named as a consumer names them (tsconfig.json's paths resolve them). */
const ENTRY = `import { createMswHandlers } from "workforce-scheduling-api/msw";
import { openInPageSandbox } from "workforce-scheduling-api/sandbox/in-page";
export const serve = async (pglite) => createMswHandlers(await openInPageSandbox(pglite));
`;

async function graph(platform: "browser" | "node"): Promise<Metafile> {
  const result = await build({
    stdin: { contents: ENTRY, resolveDir: repoRoot, loader: "js" },
    absWorkingDir: repoRoot,
    bundle: true,
    write: false,
    format: "esm",
    platform,
    metafile: true,
    logLevel: "silent",
  });
  return result.metafile;
}

/** The package's own modules in the graph: generated/ and sandbox/. */
const ours = (path: string): boolean => /^(generated|sandbox)\//.test(path);
const forbidden = (path: string): boolean =>
  /^node:|(^|\/)node_modules\/(fastify|@fastify)\/|^(fastify|@fastify\/)/.test(path);

describe("the module graph of ./msw and ./sandbox/in-page", () => {
  it("bundles for the browser with no externals, and holds no Fastify module", async () => {
    const { inputs } = await graph("browser");
    const files = Object.keys(inputs);
    expect(files.filter(ours).length).toBeGreaterThan(20);
    expect(files.filter(forbidden)).toEqual([]);
    expect(files.some((file) => file.includes("node_modules/msw/"))).toBe(true);
  });

  it("imports neither Fastify nor a node: module from the package's own modules, bundled for Node", async () => {
    const { inputs } = await graph("node");
    const reached = Object.entries(inputs)
      .filter(([file]) => ours(file))
      .flatMap(([file, input]) => input.imports.map((imported) => `${file} -> ${imported.path}`));
    expect(reached.length).toBeGreaterThan(20);
    expect(reached.filter((line) => forbidden(line.split(" -> ")[1] ?? ""))).toEqual([]);
    expect(Object.keys(inputs).filter(forbidden)).toEqual([]);
  });
});
