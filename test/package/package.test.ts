/**
 * The package as another repository gets it: `npm run package` (which builds dist/ and packs the
 * package as a release publishes it), installed from the tarball into a fresh consumer project,
 * each entry typechecked with moduleResolution node16 and bundler, and alone with only its own
 * peers installed, loaded at runtime with both `import` and `require`, and linted as published
 * packages are (publint, arethetypeswrong).
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { copyFile, cp, mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { promisify } from "node:util";
import { checkPackage, createPackageFromTarballData } from "@arethetypeswrong/core";
import { type BuildOptions, build } from "esbuild";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import ts from "typescript";
import { build as viteBuild } from "vite";
import { beforeAll, describe, expect, it } from "vitest";
import { chromiumPath, launchBrowser, noBrowserMessage, requireBrowserInCi } from "../support/browser.js";
import { makeTempDir, repoRoot } from "../support/paths.js";
import { sharingHost } from "../support/typecheck.js";
import { type PageServer, servePage } from "./page/serve.js";

const run = promisify(execFile);
const NAME = "workforce-scheduling-api";

/**
 * Every entry, with the packages a consumer of it installs for its types (the optional peers its
 * declarations import): none for the client, the validators and the API without a server.
 */
const ENTRY_PEERS: Readonly<Record<string, readonly string[]>> = {
  ".": [],
  "./validators": [],
  "./json-schemas": [],
  "./spec": [],
  "./handlers": [],
  "./query": ["@tanstack/query-core"],
  "./msw": ["msw"],
  "./sandbox/in-page": ["@electric-sql/pglite", "kysely"],
  "./server": ["fastify", "@types/node"],
  "./sandbox": ["@electric-sql/pglite", "kysely", "fastify", "@types/node"],
};
const ENTRIES = Object.keys(ENTRY_PEERS);
let consumer: string;
let tarball: string;
/** what npm printed on stderr installing the tarball (its warnings) */
let installed: string;

async function npm(args: string[], cwd: string): Promise<{ stdout: string; stderr: string }> {
  return run("npm", args, {
    cwd,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, npm_config_loglevel: "warn", npm_config_update_notifier: "false" },
  });
}

/** Peer dependencies a server and sandbox user installs; taken from this repository's node_modules. */
async function linkPeers(): Promise<void> {
  for (const scope of ["@fastify", "@types", "@electric-sql", "@tanstack"])
    await mkdir(join(consumer, "node_modules", scope), { recursive: true });
  const frontEnd = [
    "msw",
    "@tanstack/query-core",
    "@tanstack/react-query",
    "@tanstack/react-query-lowest",
    "react",
    "react-dom",
    "@types/react",
    "@types/react-dom",
  ];
  for (const peer of [
    "fastify",
    "@fastify/multipart",
    "@fastify/swagger",
    "@fastify/swagger-ui",
    "@types/node",
    "@electric-sql/pglite",
    "kysely",
    "pg",
    "@types/pg",
    "yaml",
    ...frontEnd,
  ]) {
    await symlink(join(repoRoot, "node_modules", peer), join(consumer, "node_modules", peer), "dir");
  }
}

/**
 * Compiles a consumer project as `tsc -p` does, with its own tsconfig.json (skipLibCheck off),
 * and reports every error in the consumer's file and in this package's declaration files, plus
 * the program-wide ones. The peers' own declaration files (fastify, @types/node) are left to
 * their packages. In this process, with the declaration files the other tests parsed.
 */
function consumerCheck(tsconfig: string): { checked: string[]; errors: string[] } {
  const host = {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic: ts.Diagnostic) => expect.fail(render(diagnostic)),
  };
  const parsed = ts.getParsedCommandLineOfConfigFile(tsconfig, {}, host);
  if (parsed === undefined) return expect.fail(`${tsconfig} could not be read`);
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    host: sharingHost(parsed.options),
    configFileParsingDiagnostics: parsed.errors,
  });
  const ours = program
    .getSourceFiles()
    .filter((file) => parsed.fileNames.includes(file.fileName) || file.fileName.includes(`/node_modules/${NAME}/`));
  const diagnostics = [
    ...program.getConfigFileParsingDiagnostics(),
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...ours.flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]),
  ];
  return { checked: ours.map((file) => file.fileName), errors: diagnostics.map(render) };
}

function render(diagnostic: ts.Diagnostic): string {
  const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
  if (diagnostic.file === undefined || diagnostic.start === undefined) return text;
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  return `${diagnostic.file.fileName}:${line + 1}:${character + 1} ${text}`;
}

/**
 * The TypeScript samples of the package's consumers: the README's section on using the package,
 * and docs/package.md's sections on the front-end entries (TanStack Query, MSW, typed errors).
 */
async function consumerSamples(): Promise<string[]> {
  const readme = await sectionSamples("README.md", /^Using the package\n/);
  const guide = await sectionSamples(
    join("docs", "package.md"),
    /^(TanStack Query|MSW handlers|Errors typed by status)/,
  );
  return [...readme, ...guide];
}

/** The TypeScript samples of the `## ` sections of a Markdown file whose heading matches `heading`. */
async function sectionSamples(file: string, heading: RegExp): Promise<string[]> {
  const text = await readFile(join(repoRoot, file), "utf8");
  const sections = text.split(/^## /m).filter((section) => heading.test(section));
  return sections.flatMap((section) =>
    [...section.matchAll(/^```ts[^\n]*\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? ""),
  );
}

/**
 * Runs a module script that opens sandboxes in the consumer project; resolves with what it printed.
 * As the sandbox guide advises for test processes, on V8's baseline compiler (--liftoff-only);
 * the embedded database's prepared image is shared with this repository's runs.
 */
async function runWithSandbox(script: string, cwd: string = consumer): Promise<string> {
  const env = {
    ...process.env,
    SANDBOX_CACHE_DIR: join(repoRoot, "node_modules", ".cache", "workforce-scheduling-api"),
  };
  const args = ["--liftoff-only", "--input-type=module", "-e", script];
  return (await run(process.execPath, args, { cwd, env })).stdout;
}

/**
 * A project of its own with the installed package (copied, so that its imports resolve from this
 * project only) and only the `peers` named, linked from this repository's node_modules.
 */
async function projectWith(peers: readonly string[]): Promise<string> {
  const dir = await makeTempDir("entry");
  await cp(join(consumer, "node_modules", NAME), join(dir, "node_modules", NAME), { recursive: true });
  for (const peer of peers) {
    await mkdir(dirname(join(dir, "node_modules", peer)), { recursive: true });
    await symlink(join(repoRoot, "node_modules", peer), join(dir, "node_modules", peer), "dir");
  }
  await writeFile(join(dir, "package.json"), JSON.stringify({ name: "entry", private: true, type: "module" }));
  return dir;
}

beforeAll(async () => {
  const packDir = await makeTempDir("pack");
  await npm(["run", "-s", "package", "--", "--pack-destination", packDir], repoRoot);
  const [packed] = (await readdir(packDir)).filter((file) => file.endsWith(".tgz"));
  tarball = join(packDir, packed ?? "");
  consumer = await makeTempDir("consumer");
  await writeFile(join(consumer, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  const args = ["install", "--no-audit", "--no-fund", "--offline", "--no-package-lock", tarball];
  installed = (await npm(args, consumer)).stderr;
  await linkPeers();
}, 300_000);

describe("the packed package", () => {
  it("is the tarball docs/package.md says to install, packed and installed by its commands", async () => {
    const guide = await readFile(join(repoRoot, "docs", "package.md"), "utf8");
    const block = /^```sh run-by=test\/package\/package\.test\.ts\n([\s\S]*?)^```$/m.exec(guide)?.[1] ?? "";
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

  it("runs a sandbox without pg installed: createSandbox, then a flow through the client (create a venue, an event there, list it)", async () => {
    const script = [
      `import { createSandbox } from "${NAME}/sandbox";`,
      `import { createClient } from "${NAME}";`,
      `const sandbox = await createSandbox();`,
      `try {`,
      `  const client = createClient({ baseUrl: sandbox.url, apiKey: "demo-key-harbor" });`,
      `  const venue = await client.createVenue({ body: { name: "Hall", address: "1 Road", city: "Town", zip: "T1" } });`,
      `  const id = await client.createEvent({ body: { name: "Gala", date: "2024-04-20", venue: { venue_id: String(venue.venue_id) } } });`,
      `  const list = await client.listEvents();`,
      `  console.log(JSON.stringify([venue.venue_id, id, list.total_count, list.data?.[0]?.location?.name]));`,
      `} finally {`,
      `  await sandbox.close();`,
      `}`,
    ].join("\n");
    const server = ["fastify", "@fastify/multipart", "@fastify/swagger", "@fastify/swagger-ui"];
    const stdout = await runWithSandbox(script, await projectWith(["@electric-sql/pglite", "kysely", ...server]));
    // Harbor's next venue after its seeded 318, and its first event
    expect(JSON.parse(stdout)).toEqual([319, 1, 1, "Hall"]);
  });

  it("runs a sandbox in process over MSW with only @electric-sql/pglite, kysely and msw installed; names a missing peer in one line", async () => {
    const script = [
      `import { setupServer } from "msw/node";`,
      `import { createClient } from "${NAME}";`,
      `import { createMswHandlers } from "${NAME}/msw";`,
      `import { createSandbox, openSandbox } from "${NAME}/sandbox";`,
      `const out = {};`,
      `try {`,
      `  const sandbox = await openSandbox();`,
      `  const baseUrl = "http://sandbox.test/api/1_12";`,
      `  const server = setupServer(...createMswHandlers(sandbox, { baseUrl }));`,
      `  server.listen({ onUnhandledRequest: "error" });`,
      `  try {`,
      `    const client = createClient({ baseUrl, apiKey: "demo-key-harbor" });`,
      `    out.venue = (await client.createVenue({ body: { name: "Hall", address: "1 Road", city: "Town", zip: "T1" } })).venue_id;`,
      `    out.events = (await client.listEvents()).total_count;`,
      `  } finally {`,
      `    server.close();`,
      `    await sandbox.close();`,
      `  }`,
      `} catch (error) {`,
      `  out.openSandbox = error.message;`,
      `}`,
      `out.createSandbox = await createSandbox().then((s) => s.close().then(() => "started"), (error) => error.message);`,
      `console.log(JSON.stringify(out));`,
    ].join("\n");
    const install = (name: string): string =>
      `the sandbox needs the package ${name}: install it (npm install --save-dev ${name})`;
    const inProcess = await projectWith(["@electric-sql/pglite", "kysely", "msw"]);
    expect(JSON.parse(await runWithSandbox(script, inProcess))).toEqual({
      venue: 319,
      events: 0,
      createSandbox: install("fastify"),
    });
    const withoutEngine = await projectWith(["kysely", "msw"]);
    expect(JSON.parse(await runWithSandbox(script, withoutEngine))).toEqual({
      openSandbox: install("@electric-sql/pglite"),
      createSandbox: install("@electric-sql/pglite"),
    });
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

describe("each entry's types, with only its own peers installed", () => {
  it.each(ENTRIES)("%s typechecks with skipLibCheck off", async (entry) => {
    const peers = ENTRY_PEERS[entry] ?? [];
    const dir = await projectWith(peers);
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

describe("the front-end entries in a consumer project", () => {
  it("keeps a QueryClient's list fresh: a created event shows in listEvents, refetched by the generated invalidation; an override's 404 narrows with isApiError", async () => {
    const script = [
      `import { MutationObserver, QueryClient, QueryObserver } from "@tanstack/query-core";`,
      `import { setupServer } from "msw/node";`,
      `import { createClient, isApiError } from "${NAME}";`,
      `import { createMswHandlers } from "${NAME}/msw";`,
      `import { createEventMutationOptions, invalidates, listEventsQueryKey, listEventsQueryOptions, updateEventMutationOptions } from "${NAME}/query";`,
      `import { createSandbox } from "${NAME}/sandbox";`,
      `const sandbox = await createSandbox();`,
      `const baseUrl = "http://sandbox.test/api/1_12";`,
      `const missing = { type: "urn:problem-type:not-found", title: "Not Found", status: 404 };`,
      `const overrides = { updateEvent: async ({ params }) => ({ status: 404, body: { ...missing, detail: "No event " + params.id + "." } }) };`,
      `const server = setupServer(...createMswHandlers(sandbox.handlers, { baseUrl, authenticate: sandbox.authenticate, overrides }));`,
      `server.listen({ onUnhandledRequest: "error" });`,
      `const out = {};`,
      `try {`,
      `  const queryClient = new QueryClient();`,
      `  const client = createClient({ baseUrl, apiKey: "demo-key-harbor" });`,
      `  const lists = [];`,
      `  const observer = new QueryObserver(queryClient, listEventsQueryOptions(client));`,
      `  let last;`,
      `  const unsubscribe = observer.subscribe((result) => { if (result.isSuccess && result.data !== last) lists.push((last = result.data).data.map((event) => event.name)); });`,
      `  while (lists.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));`,
      `  const create = new MutationObserver(queryClient, createEventMutationOptions(client));`,
      `  out.id = await create.mutate({ body: { name: "Launch", date: "2027-05-01", venue: { name: "Pier 4" } } });`,
      `  out.lists = lists;`,
      `  out.cached = queryClient.getQueryData(listEventsQueryKey()).data.map((event) => event.name);`,
      `  out.invalidates = invalidates.createEvent;`,
      `  unsubscribe();`,
      `  try {`,
      `    await new MutationObserver(queryClient, updateEventMutationOptions(client)).mutate({ path: { id: String(out.id) }, body: { name: "Gala", date: "2027-05-02", venue: { name: "Hall" } } });`,
      `  } catch (error) {`,
      `    out.notFound = isApiError(error, "updateEvent") && error.status === 404 ? error.body.detail : String(error);`,
      `    out.otherOperation = isApiError(error, "createEvent");`,
      `  }`,
      `} finally {`,
      `  server.close();`,
      `  await sandbox.close();`,
      `}`,
      `console.log(JSON.stringify(out));`,
    ].join("\n");
    const stdout = await runWithSandbox(script);
    const out = JSON.parse(stdout) as {
      id: number;
      lists: string[][];
      cached: string[];
      invalidates: string[];
      notFound: string;
      otherOperation: boolean;
    };
    // the list was read once before the create and once again by the invalidation, which the mutation awaited
    expect(out.lists).toHaveLength(2);
    expect(out.lists[0]).not.toContain("Launch");
    expect(out.lists[1]).toContain("Launch");
    expect(out.cached).toEqual(out.lists[1]);
    expect(out).toMatchObject({ invalidates: ["listEvents"], notFound: `No event ${out.id}.`, otherOperation: false });
  });
});

/** The page's folder in the consumer project, with its script copied from test/package/page/. */
async function pageFolder(): Promise<string> {
  const folder = join(consumer, "page");
  await mkdir(folder, { recursive: true });
  await copyFile(join(repoRoot, "test", "package", "page", "app.ts"), join(folder, "app.ts"));
  return folder;
}

/**
 * The esbuild options docs/package.md gives a page with the in-page sandbox, read from its sample
 * (each `name: value,` line of its `build({ ... })`), without the sample's own files.
 */
async function documentedEsbuildOptions(): Promise<BuildOptions> {
  const guide = await readFile(join(repoRoot, "docs", "package.md"), "utf8");
  const block = /^```ts not-run: it bundles a page of yours[^\n]*\n([\s\S]*?)^```$/m.exec(guide)?.[1] ?? "";
  const lines = [...block.matchAll(/^ {2}(\w+): (.*),$/gm)];
  const options = Object.fromEntries(lines.map(([, name, value]) => [name, JSON.parse(value ?? "")]));
  const { entryPoints: _entries, outdir: _outdir, ...rest } = options;
  return rest as BuildOptions;
}

/** The page bundled by esbuild with the options docs/package.md gives (`external` left out: none). */
async function esbuildPage(alias: Record<string, string>, settings: "documented" | "none"): Promise<string> {
  const folder = await pageFolder();
  const { external, ...withoutSetting } = await documentedEsbuildOptions();
  const bundle = await build({
    ...(settings === "documented" ? { ...withoutSetting, external } : withoutSetting),
    entryPoints: [join(folder, "app.ts")],
    absWorkingDir: consumer,
    write: false,
    alias,
    logLevel: "silent",
  });
  return bundle.outputFiles[0]?.text ?? "";
}

/** The page bundled by esbuild as docs/package.md says, served. */
async function esbuildServer(alias: Record<string, string>): Promise<PageServer> {
  return servePage(consumer, await esbuildPage(alias, "documented"));
}

/**
 * The page built by Vite for production, as a Vite project builds it: index.html naming the
 * script, MSW's worker script in public/ (as `msw init` puts it), Vite's defaults otherwise.
 */
async function viteServer(): Promise<PageServer> {
  const folder = await pageFolder();
  await writeFile(join(folder, "index.html"), PAGE_HTML);
  await mkdir(join(folder, "public"), { recursive: true });
  await copyFile(
    join(consumer, "node_modules", "msw", "lib", "mockServiceWorker.js"),
    join(folder, "public", "mockServiceWorker.js"),
  );
  const outDir = join(folder, "dist");
  await viteBuild({ root: folder, configFile: false, logLevel: "silent", build: { outDir, emptyOutDir: true } });
  return servePage(consumer, { folder: outDir });
}

const PAGE_HTML =
  '<!doctype html><html><head><meta charset="utf-8"><title>Events</title></head><body><div id="root"></div><script type="module" src="./app.ts"></script></body></html>';

describe("an esbuild build of the page with the in-page sandbox", () => {
  it("takes the one setting docs/package.md gives, and stops at PGlite's node:module without it", async () => {
    expect(await documentedEsbuildOptions()).toEqual({
      bundle: true,
      format: "esm",
      platform: "browser",
      minify: true,
      external: ["node:module"],
    });
    const failure = await esbuildPage({}, "none").then(
      () => "built",
      (error: unknown) => String(error),
    );
    expect(failure).toMatch(/Could not resolve "node:module"/);
    expect(await esbuildPage({}, "documented")).toContain('import("node:module")');
  }, 120_000);
});

describe.skipIf(chromiumPath === undefined)(
  `the front-end entries in a browser page${chromiumPath === undefined ? ` (skipped: ${noBrowserMessage})` : ""}`,
  () => {
    // the lowest @tanstack/react-query the peer range of @tanstack/query-core allows, and the latest,
    // each bundled by esbuild with the options docs/package.md gives; and the latest built by Vite
    // with its defaults.
    it.each<{ bundler: "esbuild" | "vite"; version: string; alias: Record<string, string> }>([
      { bundler: "esbuild", version: "5.89.0", alias: { "@tanstack/react-query": "@tanstack/react-query-lowest" } },
      { bundler: "esbuild", version: "latest", alias: {} },
      { bundler: "vite", version: "latest", alias: {} },
    ])(
      "creates an event in a React page ($bundler, @tanstack/react-query $version) whose API is the sandbox on PGlite behind MSW's service worker, with no request leaving the page's origin",
      async ({ bundler, alias }) => {
        const server = bundler === "vite" ? await viteServer() : await esbuildServer(alias);
        const browser = await launchBrowser(chromiumPath ?? "");
        try {
          const { page } = browser;
          const fromWorker: string[] = [];
          page.on("response", (response) => {
            if (response.fromServiceWorker())
              fromWorker.push(
                `${response.request().method()} ${new URL(response.url()).pathname} ${response.status()}`,
              );
          });
          await page.goto(server.origin);
          await expect.poll(() => page.locator("#status").textContent(), { timeout: 60_000 }).toBe("0 events");
          await page.getByLabel("Event name").fill("Harbour gala");
          await page.getByRole("button", { name: "Create event" }).click();
          await expect.poll(() => page.locator("#events li").allTextContents()).toEqual(["Harbour gala"]);
          expect(await page.locator("#status").textContent()).toBe("1 events");
          expect(await page.locator("#created").textContent()).toMatch(/^created event \d+$/);
          await browser.screenshot(`front-end-page-${bundler}`);
          // the list was fetched, the event created, and the list fetched again: all answered in the page
          expect(fromWorker).toEqual([
            "GET /api/1_12/events 200",
            "POST /api/1_12/events 201",
            "GET /api/1_12/events 200",
          ]);
          const urls = browser.requests.map((request) => request.url);
          expect(urls.filter((url) => !url.startsWith(`${server.origin}/`))).toEqual([]);
          expect(server.paths.filter((path) => path.startsWith("/api/"))).toEqual([]);
        } finally {
          await browser.close();
          await server.close();
        }
      },
      120_000,
    );
  },
);

requireBrowserInCi();
