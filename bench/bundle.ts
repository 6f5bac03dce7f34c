/**
 * What the front-end entries weigh in a page, beside openapi-fetch + openapi-react-query, in one
 * run. Each page is bundled by esbuild as an application bundles it: for the browser, minified,
 * production React, with React and TanStack Query left external (the page pays for them whichever
 * API layer it uses), so what is left is the page's own few lines and its API layer. The pages:
 * the same two operations (list events, create an event, the list invalidated by the create) on
 * both sides; ours with every operation of the spec, which gives what each further operation
 * costs; one validator imported from `./validators`, and all of them.
 *
 * Targets: the two-operation page at most 2x openapi-react-query's (gzip), each further operation
 * at most 1 KiB gzip, one validator at most 2 KiB gzip. The exit code is 1 when one is missed.
 * Usage: npm run bench:bundle
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { printTable } from "./support/stats.js";

const root = join(import.meta.dirname, "..");
const NAME = "workforce-scheduling-api";

/** The package's entries as a consumer names them, pointed at generated/ (as tsconfig.json's paths do). */
const alias = {
  [NAME]: join(root, "generated", "index.ts"),
  [`${NAME}/query`]: join(root, "generated", "query", "index.ts"),
  [`${NAME}/validators`]: join(root, "generated", "validators", "index.ts"),
};

const REACT = `import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createElement } from "react";`;

/** One operation of ours in the page: a hook whose options come from the generated entry. */
interface Operation {
  readonly name: string;
  readonly kind: "query" | "mutation";
  /** the variables a mutation is called with, or the input of a query */
  readonly input?: string;
}

const TWO: readonly Operation[] = [
  { name: "listEvents", kind: "query" },
  {
    name: "createEvent",
    kind: "mutation",
    input: `{ body: { name: "Launch", date: "2027-05-01", venue: { name: "Pier 4" } } }`,
  },
];

/** Every other operation of the spec, so the page holds all nine. */
const MORE: readonly Operation[] = [
  { name: "listWageRules", kind: "query" },
  {
    name: "updateEvent",
    kind: "mutation",
    input: `{ path: { id: "1" }, body: { name: "Gala", date: "2027-05-02", venue: { name: "Hall" } } }`,
  },
  {
    name: "createVenue",
    kind: "mutation",
    input: `{ body: { name: "Hall", address: "1 Road", city: "Bristol", zip: "BS1" } }`,
  },
  { name: "createPayrollGroup", kind: "mutation", input: `{ body: { name: "Crew", wage_rules_id: 1 } }` },
  { name: "updateClient", kind: "mutation", input: `{ path: { id: "1" }, body: { name: "Acme" } }` },
  { name: "addWorkerCredential", kind: "mutation", input: `{ path: { id: "1" }, body: { credentials_id: 1 } }` },
  { name: "addWorkerDocument", kind: "mutation", input: `{ path: { id: "1" }, body: { file: new Blob(["x"]) } }` },
];

/**
 * Our page: one client, one hook per operation, each from the generated options. The client is
 * `createBaseClient`'s, as the guide advises for a page (`createClient`'s methods name every
 * operation, so it bundles them all).
 */
function ourPage(operations: readonly Operation[], factory = "createBaseClient"): string {
  const options = operations.map((op) => `${op.name}${op.kind === "query" ? "QueryOptions" : "MutationOptions"}`);
  const hooks = operations.map((op, i) =>
    op.kind === "query"
      ? `  const q${i} = useQuery(${options[i]}(client));`
      : `  const m${i} = useMutation(${options[i]}(client));`,
  );
  const shown = operations.map((op, i) => (op.kind === "query" ? `String(q${i}.data)` : `String(m${i}.status)`));
  const buttons = operations.flatMap((op, i) =>
    op.kind === "mutation" ? [`createElement("button", { onClick: () => m${i}.mutate(${op.input}) }, "go")`] : [],
  );
  return `${REACT}
import { ${factory} } from "${NAME}";
import { ${options.join(", ")} } from "${NAME}/query";

const client = ${factory}({ baseUrl: "/api/1_12", apiKey: "demo-key" });

export function Page() {
${hooks.join("\n")}
  return createElement("div", null, ${[...shown, ...buttons].join(", ")});
}
`;
}

/** The same two-operation page on openapi-fetch + openapi-react-query; its invalidation is written by hand. */
const PEER_PAGE = `${REACT}
import createFetchClient from "openapi-fetch";
import createQueryHooks from "openapi-react-query";

const fetchClient = createFetchClient({ baseUrl: "/api/1_12", headers: { "X-API-KEY": "demo-key" } });
const $api = createQueryHooks(fetchClient);

export function Page() {
  const queryClient = useQueryClient();
  const q0 = $api.useQuery("get", "/events");
  const m1 = $api.useMutation("post", "/events", {
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["get", "/events"] }),
  });
  return createElement("div", null, String(q0.data), String(m1.status), createElement("button", { onClick: () => m1.mutate(${TWO[1]?.input}) }, "go"));
}
`;

/** A page that imports one validator from `./validators`. */
function oneValidator(name: string): string {
  return `import { ${name} } from "${NAME}/validators";
export const check = (value: unknown) => ${name}(value);
`;
}

const ALL_VALIDATORS = `import * as validators from "${NAME}/validators";
export const all = validators;
`;

interface Size {
  readonly minified: number;
  readonly gzip: number;
}

async function bundle(dir: string, name: string, source: string): Promise<Size> {
  const entry = join(dir, `${name}.ts`);
  await writeFile(entry, source);
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: root,
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    alias,
    define: { "process.env.NODE_ENV": '"production"' },
    external: ["react", "react-dom", "@tanstack/react-query", "@tanstack/query-core"],
    logLevel: "silent",
  });
  const text = result.outputFiles[0]?.contents ?? new Uint8Array();
  return { minified: text.byteLength, gzip: gzipSync(text).byteLength };
}

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(2)} KiB`;

async function main(): Promise<void> {
  // inside the repository, so the pages resolve its node_modules
  await mkdir(join(root, ".tmp"), { recursive: true });
  const dir = await mkdtemp(join(root, ".tmp", "bench-bundle-"));
  try {
    const peer = await bundle(dir, "peer", PEER_PAGE);
    const two = await bundle(dir, "two", ourPage(TWO));
    const all = await bundle(dir, "all", ourPage([...TWO, ...MORE]));
    const full = await bundle(dir, "full-client", ourPage(TWO, "createClient"));
    // a flat body, and the largest one (allOf, a nested venue, custom fields, dates)
    const one = await bundle(dir, "venue-validator", oneValidator("validateVenueCreate"));
    const largest = await bundle(dir, "event-validator", oneValidator("validateEventCreate"));
    const every = await bundle(dir, "all-validators", ALL_VALIDATORS);
    const further: Size = {
      minified: (all.minified - two.minified) / MORE.length,
      gzip: (all.gzip - two.gzip) / MORE.length,
    };
    printTable(
      ["bundle", "minified", "gzip"],
      [
        ["openapi-fetch + openapi-react-query, list + create", kb(peer.minified), kb(peer.gzip)],
        ["ours, list + create", kb(two.minified), kb(two.gzip)],
        [`ours, all ${TWO.length + MORE.length} operations`, kb(all.minified), kb(all.gzip)],
        ["ours, list + create, with createClient (every method)", kb(full.minified), kb(full.gzip)],
        ["ours, each further operation", kb(further.minified), kb(further.gzip)],
        ["one validator (validateVenueCreate)", kb(one.minified), kb(one.gzip)],
        ["one validator (validateEventCreate, the largest body)", kb(largest.minified), kb(largest.gzip)],
        ["every validator", kb(every.minified), kb(every.gzip)],
      ],
    );
    const targets = [
      {
        what: "list + create <= 2x openapi-react-query (gzip)",
        ok: two.gzip <= 2 * peer.gzip,
        ratio: `${(two.gzip / peer.gzip).toFixed(2)}x`,
      },
      { what: "each further operation <= 1 KiB gzip", ok: further.gzip <= 1024, ratio: kb(further.gzip) },
      { what: "one validator <= 2 KiB gzip", ok: one.gzip <= 2048, ratio: kb(one.gzip) },
    ];
    console.log("");
    printTable(
      ["target", "measured", "met"],
      targets.map((target) => [target.what, target.ratio, target.ok ? "yes" : "NO"]),
    );
    if (targets.some((target) => !target.ok)) process.exitCode = 1;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
