/**
 * The package's types as a consumer compiles them: an import of every entry and the consumers'
 * samples of the docs with moduleResolution node16 and bundler, and each entry alone with only
 * its own peers installed, with skipLibCheck off. The package is packed and
 * installed once per run for the four files (../support/packed-package.ts), which run apart:
 * ./package.test.ts (what the tarball holds, the lints, loading its entries),
 * ./package-types.test.ts (typechecking), ./package-runtime.test.ts (sandboxes and the front-end
 * entries in Node) and ./package-pages.test.ts (pages bundled and run in a browser).
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { packedPackage } from "../../support/packed-package.js";
import { consumerCheck, consumerSamples, ENTRIES, ENTRY_PEERS, NAME, projectWith } from "./consumer.js";

let consumer: string;

beforeAll(async () => {
  ({ consumer } = await packedPackage());
}, 300_000);

describe("the packed package", () => {
  it.each([
    ["node16", { module: "node16", moduleResolution: "node16" }],
    ["bundler", { module: "esnext", moduleResolution: "bundler" }],
  ])("typechecks an import of every entry with moduleResolution %s", async (label, options) => {
    const source = [
      `import { createClient, routes, type Venue, type CreateVenueBody } from "${NAME}";`,
      `import { validateVenueCreate, isVenue, schemas, type StandardSchemaV1, type ValidationError } from "${NAME}/validators";`,
      `import { jsonSchemas } from "${NAME}/json-schemas";`,
      `import { buildServer, createMockHandlers, type Handlers } from "${NAME}/server";`,
      `import { createSandbox, type Caller, type Sandbox, type Seed } from "${NAME}/sandbox";`,
      `type Spec = typeof import("${NAME}/spec");`,
      `const body: CreateVenueBody = { name: "Hall", address: "1 Road", city: "Town", zip: "1" };`,
      `const venue: Venue | undefined = isVenue(body) ? body : undefined;`,
      `const errors: ValidationError[] | undefined = validateVenueCreate(body).errors;`,
      `const handlers: Handlers = createMockHandlers();`,
      `const openapi: Spec["openapi"] = "3.1.0";`,
      `const standard: StandardSchemaV1<CreateVenueBody> = schemas.CreateVenueBody;`,
      `const venueSchema: "object" = jsonSchemas.Venue.$defs.Venue.type;`,
      `const seed: Seed = { companies: [{ company_id: 1, name: "Co", api_keys: [{ key: "k", personnel_id: 1 }], personnel: [{ personnel_id: 1, name: "Ann" }] }] };`,
      `const sandbox: Promise<Sandbox> = createSandbox({ database: "memory", seed });`,
      `const sandboxHandlers = async (s: Sandbox): Promise<Handlers<Caller>> => s.handlers;`,
      `export const used = [createClient, routes, venue, errors, handlers, buildServer, openapi, standard, venueSchema, sandbox, sandboxHandlers];`,
    ].join("\n");
    const dir = join(consumer, label);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "check.ts"), source);
    // the consumers' samples of the README and the package guide, each a module of its own
    const samples = await consumerSamples();
    for (const [i, sample] of samples.entries())
      await writeFile(join(dir, `sample-${i}.ts`), `${sample}\nexport {};\n`);
    const files = ["check.ts", ...samples.map((_sample, i) => `sample-${i}.ts`)];
    const compilerOptions = {
      ...options,
      strict: true,
      noEmit: true,
      target: "es2022",
      types: ["node"],
      lib: ["es2023", "dom"],
      resolveJsonModule: true,
      skipLibCheck: false,
    };
    await writeFile(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files }));
    const { checked, errors } = consumerCheck(join(dir, "tsconfig.json"));
    expect(samples).toHaveLength(5);
    expect(checked.filter((file) => file.endsWith(".d.ts")).length).toBeGreaterThan(10);
    expect(errors).toEqual([]);
  });
});

describe("each entry's types, with only its own peers installed", () => {
  it.each(ENTRIES)("%s typechecks with skipLibCheck off", async (entry) => {
    const peers = ENTRY_PEERS[entry] ?? [];
    // the entries with the same peers share a project, each in a folder of its own
    const dir = join(await projectWith(consumer, peers), entry === "." ? "root" : entry.slice(2).replaceAll("/", "-"));
    await mkdir(dir);
    const specifier = entry === "." ? NAME : `${NAME}/${entry.slice(2)}`;
    const source =
      entry === "./spec"
        ? `import spec from "${specifier}" with { type: "json" };\nexport const title: string = spec.info.title;\n`
        : `import * as entry from "${specifier}";\nexport const names: string[] = Object.keys(entry);\n`;
    await writeFile(join(dir, "check.ts"), source);
    const compilerOptions = {
      module: "nodenext",
      moduleResolution: "nodenext",
      target: "es2022",
      strict: true,
      noEmit: true,
      lib: ["es2023", "dom"],
      types: peers.includes("@types/node") ? ["node"] : [],
      resolveJsonModule: true,
      skipLibCheck: false,
    };
    await writeFile(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["check.ts"] }));
    const { checked, errors } = consumerCheck(join(dir, "tsconfig.json"));
    expect(errors).toEqual([]);
    expect(checked.length).toBeGreaterThan(entry === "./spec" ? 0 : 1);
  });
});
