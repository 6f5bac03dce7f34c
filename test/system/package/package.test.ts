/**
 * The package as another repository gets it: `npm run package` (which builds dist/ and packs the
 * package as a release publishes it), installed from the tarball into a fresh consumer project,
 * linted as published packages are (publint, arethetypeswrong), and loaded at runtime with both
 * `import` and `require`. The package is packed and
 * installed once per run for the four files (../support/packed-package.ts), which run apart:
 * ./package.test.ts (what the tarball holds, the lints, loading its entries),
 * ./package-types.test.ts (typechecking), ./package-runtime.test.ts (sandboxes and the front-end
 * entries in Node) and ./package-pages.test.ts (pages bundled and run in a browser).
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { checkPackage, createPackageFromTarballData } from "@arethetypeswrong/core";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import { beforeAll, describe, expect, it } from "vitest";
import { packedPackage } from "../../support/packed-package.js";
import { repoRoot } from "../../support/paths.js";
import { ENTRIES, NAME, run } from "./consumer.js";

let consumer: string;
let tarball: string;
/** what npm printed on stderr installing the tarball (its warnings) */
let installed: string;

beforeAll(async () => {
  ({ consumer, tarball, installed } = await packedPackage());
}, 300_000);

describe("the packed package", () => {
  it("is the tarball docs/package.md says to install, packed and installed by its commands", async () => {
    const guide = await readFile(join(repoRoot, "docs", "package.md"), "utf8");
    const block = /^```sh run-by=test\/system\/package\/package\.test\.ts\n([\s\S]*?)^```$/m.exec(guide)?.[1] ?? "";
    const commands = block.split("\n").map((line) => line.replace(/\s+#.*$/, ""));
    expect(commands[0]).toBe("npm run package -- --pack-destination ..");
    expect(commands[1]).toBe(`npm install ../${basename(tarball)}`);
  });

  it("installs with no npm warning", () => {
    expect(installed.split("\n").filter((line) => /^npm warn/i.test(line))).toEqual([]);
  });

  it("holds dist/, the consumers' README and guides, and a package.json of what consumers read only", async () => {
    const { stdout } = await run("tar", ["-tzf", tarball]);
    const files = stdout.trim().split("\n");
    const changelog = existsSync(join(repoRoot, "CHANGELOG.md")) ? ["package/CHANGELOG.md"] : [];
    expect(files.filter((file) => !file.startsWith("package/dist/")).sort()).toEqual(
      [
        "package/README.md",
        "package/docs/package.md",
        "package/docs/sandbox.md",
        "package/docs/server.md",
        "package/package.json",
        ...changelog,
      ].sort(),
    );
    expect(files).not.toContain("package/dist/.built");
    const readme = await readFile(join(consumer, "node_modules", NAME, "README.md"), "utf8");
    expect(readme).toBe(await readFile(join(repoRoot, "docs", "package-readme.md"), "utf8"));
    for (const entry of [
      "index.js",
      "index.d.ts",
      "validators/index.js",
      "server/index.js",
      "handlers/index.js",
      "client/index.js",
      "openapi.json",
      "json-schemas.js",
      "sandbox/index.js",
      "sandbox/index.d.ts",
      "msw/index.js",
      "query/index.js",
    ]) {
      expect(files).toContain(`package/dist/${entry}`);
    }
    const manifest = JSON.parse(await readFile(join(consumer, "node_modules", NAME, "package.json"), "utf8")) as Record<
      string,
      unknown
    >;
    expect(manifest.dependencies).toBeUndefined();
    expect(Object.keys(manifest)).toEqual([
      "name",
      "version",
      "description",
      "license",
      "type",
      "engines",
      "exports",
      "types",
      "sideEffects",
      "peerDependencies",
      "peerDependenciesMeta",
      "files",
    ]);
    expect(manifest.peerDependencies).toMatchObject({ "@tanstack/react-query": "^5.89.0" });
    expect(manifest.peerDependenciesMeta).toEqual({
      fastify: { optional: true },
      "@fastify/multipart": { optional: true },
      "@fastify/swagger": { optional: true },
      "@fastify/swagger-ui": { optional: true },
      "@electric-sql/pglite": { optional: true },
      kysely: { optional: true },
      pg: { optional: true },
      yaml: { optional: true },
      msw: { optional: true },
      "@tanstack/query-core": { optional: true },
      "@tanstack/react-query": { optional: true },
    });
  });

  it("passes publint, and arethetypeswrong as an ES module package, with nothing to report", async () => {
    const data = await readFile(tarball);
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    const linted = await publint({ pack: { tarball: bytes.slice().buffer }, level: "suggestion", strict: true });
    expect(linted.messages.map((message) => `${message.code}: ${formatMessage(message, linted.pkg)}`)).toEqual([]);
    const analysis = await checkPackage(createPackageFromTarballData(bytes));
    // ES modules only: require() of ESM (Node 20.19+) and TypeScript's node10 resolution, which knows no exports, are not asked of it
    const problems = "problems" in analysis ? analysis.problems : [];
    const asked = problems.filter(
      (problem) => !("resolutionKind" in problem) || !["node10", "node16-cjs"].includes(problem.resolutionKind),
    );
    expect(analysis.types).toEqual({ kind: "included" });
    const entrypoints = "entrypoints" in analysis ? Object.keys(analysis.entrypoints) : [];
    expect(entrypoints.sort()).toEqual([...ENTRIES, "./package.json"].sort());
    expect(asked).toEqual([]);
  });

  it("loads every entry with import", async () => {
    const script = [
      `const root = await import("${NAME}");`,
      `const validators = await import("${NAME}/validators");`,
      `const server = await import("${NAME}/server");`,
      `const spec = (await import("${NAME}/spec", { with: { type: "json" } })).default;`,
      `const { jsonSchemas } = await import("${NAME}/json-schemas");`,
      `const standard = validators.schemas.CreateVenueBody["~standard"].validate({}).issues.length > 0;`,
      `console.log(JSON.stringify([typeof root.createClient, validators.validateVenueCreate({}).valid, typeof server.buildServer, spec.openapi, standard, jsonSchemas.Venue.$ref]));`,
    ].join("\n");
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: consumer });
    expect(JSON.parse(stdout)).toEqual(["function", false, "function", "3.1.0", true, "#/$defs/Venue"]);
  });

  it("loads every entry with require", async () => {
    const script = [
      `const root = require("${NAME}");`,
      `const validators = require("${NAME}/validators");`,
      `const server = require("${NAME}/server");`,
      `const spec = require("${NAME}/spec");`,
      `const { jsonSchemas } = require("${NAME}/json-schemas");`,
      `console.log(JSON.stringify([typeof root.createClient, validators.isVenue({ venue_id: 1 }), typeof server.createMockHandlers, spec.openapi, validators.schemas.Venue["~standard"].version, jsonSchemas.Venue.$ref]));`,
    ].join("\n");
    const { stdout } = await run(process.execPath, ["--no-warnings", "--input-type=commonjs", "-e", script], {
      cwd: consumer,
    });
    expect(JSON.parse(stdout)).toEqual(["function", true, "function", "3.1.0", 1, "#/$defs/Venue"]);
  });
});
