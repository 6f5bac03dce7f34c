import { availableParallelism } from "node:os";
import { isAbsolute, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig, type Plugin, type UserWorkspaceConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { laterOptimisationFlag } from "./src/commands/command.js";

/**
 * The longest test files first, the longest first: the package installed from its tarball and
 * built into pages, the sandbox's suites on a Citus cluster, the corpus files, the largest
 * document first, then the sandbox's sweep and the differential test. vitest orders files by
 * their last run's duration, or, on a fresh checkout (CI), by their size; most of these files are
 * short and the longest to run, and started last they leave one worker alone at the end.
 */
const LONGEST_FIRST = [
  "system/package/package-types",
  "system/package/package-pages",
  "system/package/package-runtime",
  "system/package/package",
  "system/sandbox/citus.1",
  "system/sandbox/citus.2",
  "system/sandbox/citus-faults",
  "output/corpus/stripe",
  "output/corpus/openai",
  "system/sandbox/first-start-sigkill.1",
  "system/sandbox/first-start-sigint.1",
  "system/sandbox/first-start-sigkill.2",
  "system/sandbox/first-start-sigint.2",
  "output/corpus/discord",
  "output/corpus/others",
  "output/corpus/behaviour",
  "unit/src/compiler/index.differential",
  "system/sandbox/statements",
  "system/sandbox/data-directory",
];

/**
 * Each tier's files one after the other, the tiers in the order of their longest file (LONGEST_FIRST),
 * and in a tier those of LONGEST_FIRST first. A worker runs the next file only when it is of the
 * tier it ran (its modules are that tier's, `isolate: false`); one of another tier starts a new
 * worker, which loads the generator, TypeScript or the sandbox again: the list's files taken in its
 * order, tiers mixed, started about a dozen workers more in a run, about 2 s of CPU each.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification): number => {
      const match = /[\\/]test[\\/]([\w./\\-]+)\.test\.ts$/.exec(file.moduleId);
      const known = LONGEST_FIRST.indexOf((match?.[1] ?? "").replaceAll("\\", "/"));
      return known === -1 ? LONGEST_FIRST.length : known;
    };
    const ranked = sorted.map((file, index) => ({ file, index, rank: rank(file), tier: file.project.name }));
    const tierRank = new Map<string, number>();
    for (const { tier, rank } of ranked) tierRank.set(tier, Math.min(rank, tierRank.get(tier) ?? rank));
    const tierOf = (tier: string): number => tierRank.get(tier) ?? LONGEST_FIRST.length;
    return ranked
      .sort((a, b) => tierOf(a.tier) - tierOf(b.tier) || a.rank - b.rank || a.index - b.index)
      .map(({ file }) => file);
  }
}

/**
 * The sandbox imports the package by its name, as its users do. In the tests the names resolve to
 * generated/, as tsconfig.json's `paths` make them for the compiler and tsx (without this, the
 * package's own exports would send them to dist/, which only `npm run build` writes).
 */
const generated = (file: string): string => fileURLToPath(new URL(`generated/${file}`, import.meta.url));
const PACKAGE_ENTRIES: Readonly<Record<string, string>> = {
  "workforce-scheduling-api": generated("index.ts"),
  "workforce-scheduling-api/server": generated("server/index.ts"),
  "workforce-scheduling-api/handlers": generated("handlers/index.ts"),
  "workforce-scheduling-api/validators": generated("validators/index.ts"),
  "workforce-scheduling-api/json-schemas": generated("json-schemas.ts"),
  "workforce-scheduling-api/spec": generated("openapi.json"),
};

/**
 * The suite's tiers, each a vitest project over its folder of test/ (`vitest run --project unit`):
 * `unit`, the code's own tests, each at the path of the code it tests under `test/unit/` (a test of
 * `src/load/swagger-2.ts` is `test/unit/src/load/swagger-2.test.ts`, and a second file of it
 * `swagger-2.<aspect>.test.ts`); `output`, the generated output's behaviour (client, server, MSW,
 * query, validators, webhooks, the goldens, other documents and the corpus); `system`, processes,
 * databases, browsers and the package; `architecture`, the rules over the repository (floors, doc
 * paths and samples, the contract, CI). `npm run test:quick` runs the first two.
 * test/architecture/tiers.test.ts holds every test file to a tier and every unit test to its code.
 */
export const TIERS = ["unit", "output", "system", "architecture"] as const;

/** How the sandbox's imports of the package resolve (PACKAGE_ENTRIES). */
const resolve = {
  alias: Object.entries(PACKAGE_ENTRIES).map(([name, file]) => ({
    find: new RegExp(`^${name.replace(/[/-]/g, "\\$&")}$`),
    replacement: file,
  })),
};

/**
 * The folders of the repository whose modules are at a new path at each run (`.tmp/<name>-<pid>`),
 * or are not the tests' to transform (the packages, builds). A test's output under `__tmp__/` is
 * kept: at the same path, and the same text from one run to the next unless the generator changed.
 */
const WRITTEN = new Set([".tmp", "node_modules", "dist", "lib", "build", "coverage"]);
const root = fileURLToPath(new URL(".", import.meta.url));

/**
 * Whether a module's transform is kept on disk between runs (`experimental.fsModuleCache`, keyed by
 * the module's text and the config): the repository's modules, not those a run writes at a path of
 * its own (kept, they would pile up a copy per run) nor a temporary folder's.
 */
function keptTransform(id: string): boolean {
  const path = relative(root, id.split("?")[0] ?? id);
  return !path.startsWith("..") && !isAbsolute(path) && !path.split(sep).some((part) => WRITTEN.has(part));
}

/** Leaves out of the transforms kept on disk the modules `keptTransform` refuses. */
const keptTransforms: Plugin = {
  name: "kept-transforms",
  configureVitest({ experimental_defineCacheKeyGenerator }) {
    experimental_defineCacheKeyGenerator(({ id }) => (keptTransform(id) ? undefined : false));
  },
};

/** V8's option for the test workers that has it optimise later (see TIER_SETTINGS.execArgv). */
const LATER_OPTIMISATION = laterOptimisationFlag(process.version);

/** What every tier runs with. */
const TIER_SETTINGS: UserWorkspaceConfig["test"] = {
  // the releases through a registry build the package four times: \`npm run test:release\` runs
  // them (vitest.release.config.ts), and CI runs it beside \`npm test\`
  exclude: [...configDefaults.exclude, "test/system/release/registry.test.ts"],
  testTimeout: 60_000,
  hookTimeout: 120_000,
  pool: "forks",
  // PGlite's WebAssembly runs on V8's baseline compiler only: the sandbox tests use the engine for
  // seconds, and optimising its 9 MB module in the background cost more CPU than it saved (the
  // in-process PGlite suites took about 30% less CPU, the same answers)
  // and V8 optimises a function after about 15 times the use it waits for by default, as in the
  // generator's commands (laterOptimisationFlag): a test file runs most of its code a few times,
  // and the optimising compiler took a third of `npm run test:quick`'s CPU (docs/benchmarks.md,
  // "The test suite", has the times with and without it)
  execArgv: ["--liftoff-only", ...(LATER_OPTIMISATION === undefined ? [] : [LATER_OPTIMISATION])],
  // test files share a worker's module cache: the generator, TypeScript and Fastify load once per
  // worker instead of once per file (tests keep no state in shared modules, and restore timers)
  isolate: false,
  // a test that asserts nothing fails
  expect: { requireAssertions: true },
  // the transforms of the repository's modules (TypeScript to JavaScript, the imports resolved) are
  // kept on disk between runs, and shared by the tiers, rather than made again by each tier's server
  // at each run (keptTransform says which)
  experimental: { fsModuleCache: true },
};

export default defineConfig({
  resolve,
  // for a config that runs this one's settings without the tiers (vitest.release.config.ts)
  plugins: [keptTransforms],
  test: {
    // the tiers do not extend this config: a project that did would run the global setup again
    projects: TIERS.map((name) => ({
      resolve,
      plugins: [keptTransforms],
      test: { ...TIER_SETTINGS, name, include: [`test/${name}/**/*.test.ts`] },
    })),
    ...TIER_SETTINGS,
    // the generator's commands, which some tests run as processes, built from src/ once; the
    // PostgreSQL server the suites that only connect to one share, started once, for every tier
    globalSetup: ["test/support/global-setup.ts", "test/support/postgres-setup.ts"],
    // one worker more than there are cores: many tests wait on sockets, child processes or the
    // browser rather than compute. On the 2-core machine, npm test took 185 s with 2 workers,
    // 136 to 141 s with 3 and 153 s with 4 (vitest's default, cores - 1, leaves a core idle)
    maxWorkers: availableParallelism() + 1,
    sequence: { sequencer: LongestFirst },
    // vitest's own report, each file's line without the tier's label (./test/support/file-lines.ts),
    // then what failed in a few lines, last (./test/support/failure-summary.ts)
    reporters: ["./test/support/file-lines.ts", "./test/support/failure-summary.ts"],
  },
});
