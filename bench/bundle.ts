/**
 * What the front-end entries weigh in a page, beside the peers' API layers for the same page, in
 * one run, with two bundlers: esbuild and Vite's production build (bench/support/bundlers.ts:
 * for the browser, minified, production mode, React and TanStack Query external, every chunk
 * counted). The pages (bench/support/pages.ts): the same two operations (list events, create an
 * event, the list invalidated by the create) on our options and on openapi-fetch +
 * openapi-react-query, hey-api and orval (the last two generated from the spec in this run); ours
 * with each further operation as the page's third (its cost: the page's growth), and with all
 * nine; one validator imported from `./validators`, and all of them.
 *
 * Targets, with each bundler: the two-operation page at most 1.5x openapi-react-query's (gzip),
 * each further operation at most 1 KiB gzip (the dearest third operation, the first with
 * parameters among them), one validator at most 2 KiB gzip. The exit code is 1 when one is missed.
 * Then where the bytes go (bench/support/shares.ts): each module's share of the two-operation page
 * and of the page with the dearest third operation, with esbuild.
 * Usage: npm run bench:bundle
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { type Bundler, EXTERNAL, esbuildBundler, type Size, viteBundler } from "./support/bundlers.js";
import {
  ALL_VALIDATORS,
  heyApiPage,
  MORE,
  NAME,
  OPENAPI_REACT_QUERY_PAGE,
  oneValidator,
  orvalPage,
  ourPage,
  TWO,
} from "./support/pages.js";
import { generatePeers, type PeerSources } from "./support/peers.js";
import { pageShares } from "./support/shares.js";
import { printTable } from "./support/stats.js";

const root = join(import.meta.dirname, "..");

/** The package's entries as a consumer names them, pointed at generated/ (as tsconfig.json's paths do). */
const alias = {
  [NAME]: join(root, "generated", "index.ts"),
  [`${NAME}/query`]: join(root, "generated", "query", "index.ts"),
  [`${NAME}/validators`]: join(root, "generated", "validators", "index.ts"),
};

/** What one bundler made of every page. */
interface Report {
  readonly bundler: string;
  readonly peers: { readonly openapiReactQuery: Size; readonly heyApi: Size; readonly orval: Size };
  readonly two: Size;
  readonly all: Size;
  readonly fullClient: Size;
  /** each further operation's cost as the page's third, by operation */
  readonly third: ReadonlyMap<string, Size>;
  readonly venueValidator: Size;
  readonly eventValidator: Size;
  readonly everyValidator: Size;
}

async function measure(bundler: Bundler, dir: string, peers: PeerSources): Promise<Report> {
  const page = (name: string, source: string): Promise<Size> => bundler.bundle(dir, name, source);
  const two = await page("two", ourPage(TWO));
  const third = new Map<string, Size>();
  for (const operation of MORE)
    third.set(operation.name, minus(await page(`third-${operation.name}`, ourPage([...TWO, operation])), two));
  return {
    bundler: bundler.name,
    peers: {
      openapiReactQuery: await page("openapi-react-query", OPENAPI_REACT_QUERY_PAGE),
      heyApi: await page("hey-api", heyApiPage(dir, peers)),
      orval: await page("orval", orvalPage(dir, peers)),
    },
    two,
    all: await page("all", ourPage([...TWO, ...MORE])),
    fullClient: await page("full-client", ourPage(TWO, "createClient")),
    third,
    venueValidator: await page("venue-validator", oneValidator("validateVenueCreate")),
    eventValidator: await page("event-validator", oneValidator("validateEventCreate")),
    everyValidator: await page("all-validators", ALL_VALIDATORS),
  };
}

function minus(a: Size, b: Size): Size {
  return { minified: a.minified - b.minified, gzip: a.gzip - b.gzip, chunks: a.chunks - b.chunks };
}

/** The dearest third operation (by gzip), and the mean of the others. */
function dearest(third: ReadonlyMap<string, Size>): { name: string; size: Size; others: Size } {
  const entries = [...third].sort((a, b) => b[1].gzip - a[1].gzip);
  const [name, size] = entries[0] ?? ["", { minified: 0, gzip: 0, chunks: 0 }];
  const rest = entries.slice(1).map((entry) => entry[1]);
  const mean = (pick: (size: Size) => number): number => rest.reduce((sum, s) => sum + pick(s), 0) / rest.length;
  return { name, size, others: { minified: mean((s) => s.minified), gzip: mean((s) => s.gzip), chunks: 0 } };
}

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(2)} KiB`;
const bytes = (n: number): string => Math.round(n).toLocaleString("en");

/** The sizes of the pages, one pair of columns per bundler, gzip also in bytes and as a ratio to openapi-react-query's. */
function printSizes(reports: readonly Report[]): void {
  const rows: [string, (report: Report) => Size][] = [
    ["openapi-fetch + openapi-react-query, list + create", (r) => r.peers.openapiReactQuery],
    ["hey-api (fetch client, TanStack Query plugin), list + create", (r) => r.peers.heyApi],
    ["orval (react-query, fetch), list + create", (r) => r.peers.orval],
    ["ours, list + create", (r) => r.two],
    [`ours, all ${TWO.length + MORE.length} operations`, (r) => r.all],
    ["ours, list + create, with createClient (every method)", (r) => r.fullClient],
    ["one validator (validateVenueCreate)", (r) => r.venueValidator],
    ["one validator (validateEventCreate, the largest body)", (r) => r.eventValidator],
    ["every validator", (r) => r.everyValidator],
  ];
  const header = ["bundle", ...reports.flatMap((r) => [`${r.bundler} minified`, `${r.bundler} gzip`, "ratio"])];
  printTable(
    header,
    rows.map(([label, pick]) => [
      label,
      ...reports.flatMap((r) => {
        const size = pick(r);
        const ratio = size.gzip / r.peers.openapiReactQuery.gzip;
        return [kb(size.minified), `${bytes(size.gzip)} B`, `${ratio.toFixed(2)}x`];
      }),
    ]),
  );
}

/** Each further operation's cost as the page's third, the dearest and the mean of the others, per bundler. */
function printFurther(reports: readonly Report[]): void {
  const header = ["further operation (as the page's third)", ...reports.map((r) => `${r.bundler} gzip`)];
  const rows = MORE.map((operation) => [
    operation.name,
    ...reports.map((r) => `${bytes(r.third.get(operation.name)?.gzip ?? 0)} B`),
  ]);
  const summary = reports.map((r) => dearest(r.third));
  rows.push(["the dearest", ...summary.map((s) => `${bytes(s.size.gzip)} B (${s.name})`)]);
  rows.push(["the mean of the others", ...summary.map((s) => `${bytes(s.others.gzip)} B`)]);
  rows.push([
    `each further operation, two to ${TWO.length + MORE.length} (mean)`,
    ...reports.map((r) => `${bytes((r.all.gzip - r.two.gzip) / MORE.length)} B`),
  ]);
  printTable(header, rows);
}

/** The targets, per bundler; true when all are met. */
function printTargets(reports: readonly Report[]): boolean {
  const targets = reports.flatMap((r) => {
    const ratio = r.two.gzip / r.peers.openapiReactQuery.gzip;
    const worst = dearest(r.third);
    return [
      {
        what: `${r.bundler}: list + create <= 1.5x openapi-react-query (gzip)`,
        ok: ratio <= 1.5,
        measured: `${ratio.toFixed(2)}x`,
      },
      {
        what: `${r.bundler}: each further operation <= 1 KiB gzip (the dearest third)`,
        ok: worst.size.gzip <= 1024,
        measured: `${kb(worst.size.gzip)} (${worst.name})`,
      },
      {
        what: `${r.bundler}: one validator <= 2 KiB gzip`,
        ok: r.venueValidator.gzip <= 2048,
        measured: kb(r.venueValidator.gzip),
      },
    ];
  });
  printTable(
    ["target", "measured", "met"],
    targets.map((target) => [target.what, target.measured, target.ok ? "yes" : "NO"]),
  );
  return targets.every((target) => target.ok);
}

/**
 * Each module's share of the two-operation page and of the page with the dearest third operation
 * (esbuild's; the pages as `measure` wrote them in `dir`).
 */
async function printShares(report: Report, dir: string): Promise<void> {
  const third = dearest(report.third).name;
  const pages = [
    await pageShares(root, join(dir, "two.ts"), alias, EXTERNAL),
    await pageShares(root, join(dir, `third-${third}.ts`), alias, EXTERNAL),
  ];
  // the page's own module is named for the page: one row for both
  const named = (module: string): string => (module.startsWith(".tmp/") ? "the page's own code" : module);
  const modules = [...new Set(pages.flatMap((shares) => shares.map((share) => named(share.module))))];
  const shareIn = (page: number, module: string): string => {
    const share = pages[page]?.find((s) => named(s.module) === module);
    return share === undefined ? "" : `${bytes(share.gzip)} B`;
  };
  printTable(
    ["module (its share: the page's gzip without it, less)", "list + create", `list + create + ${third}`],
    modules.map((module) => [module, shareIn(0, module), shareIn(1, module)]),
  );
}

async function main(): Promise<void> {
  // inside the repository, so the pages resolve its node_modules
  await mkdir(join(root, ".tmp"), { recursive: true });
  const dir = await mkdtemp(join(root, ".tmp", "bench-bundle-"));
  try {
    const peers = await generatePeers(join(root, "spec", "openapi.yaml"), dir);
    const reports: Report[] = [];
    for (const bundler of [esbuildBundler(root, alias), viteBundler(root, alias)])
      reports.push(await measure(bundler, dir, peers));
    printSizes(reports);
    console.log("");
    printFurther(reports);
    console.log("");
    const met = printTargets(reports);
    console.log("");
    const esbuild = reports[0];
    if (esbuild !== undefined) await printShares(esbuild, dir);
    if (!met) process.exitCode = 1;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
