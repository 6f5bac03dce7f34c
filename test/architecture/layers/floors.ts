/**
 * The repository's floors, lowest first: which of its code may import which. A floor holds units;
 * a unit is a folder (every module under it, but for the units inside it) or one module, and a
 * module belongs to the longest unit that holds it. A module imports from its own unit or from a
 * unit on a floor below its own: never from one above, nor from another unit of its own floor
 * (units side by side stand apart). test/architecture/layers/layers.test.ts holds every module of `runtime/`,
 * `src/`, `sandbox/`, `bench/` and `scripts/` to it; the tests themselves may import anything.
 */
export const FLOORS: readonly (readonly string[])[] = [
  // the runtime, copied into every output: it imports nothing above it, so nothing of the generator
  ["runtime/validators", "runtime/statuses.ts"],
  ["runtime/validators/helpers", "runtime/route-types.ts"],
  ["runtime/media-types.ts"],
  // how sequences of items are framed (a part's media type read as media-types.ts says)
  ["runtime/sequences.ts"],
  // the engines: the client's, and the server's (which the MSW path and the in-page sandbox load too)
  ["runtime/client", "runtime/server/runtime"],
  ["runtime/server", "runtime/query", "runtime/msw", "runtime/webhooks"],
  // the generator's shared ground: JSON values and pointers, diagnostics, where the repository is
  ["src/json-value.ts", "src/repository.ts", "src/worker-task.ts", "src/diagnostics"],
  ["src/json-pointer.ts"],
  // OpenAPI's schema rules, read by the compiler, the model, the mock and spec:diff
  ["src/schema"],
  // the validator compiler, on its own floors, under its one entry
  ["src/compiler/code"],
  ["src/compiler/registry"],
  ["src/compiler/keywords"],
  ["src/compiler/module"],
  ["src/compiler"],
  // the document read, then modelled
  ["src/load"],
  ["src/model"],
  // the mock's data, built from a schema and judged by the generated validators
  ["src/mock"],
  // the paging rules (`--paging`): configuration that the emitters' settings, the pipeline and the
  // command read, beside the query emitter that applies them
  ["src/emit/query/paging.ts"],
  // what the emitters share (the emitter's types, the templates, the runtime's files), then what
  // finishes and writes their files, then the emitters, then what runs them
  ["src/emit"],
  ["src/finalize", "src/write"],
  [
    "src/emit/routes",
    "src/emit/types",
    "src/emit/json-schemas",
    "src/emit/spec",
    "src/emit/handlers",
    "src/emit/msw",
    "src/emit/package",
    "src/emit/validators",
  ],
  ["src/emit/client", "src/emit/server"],
  ["src/emit/query", "src/emit/webhooks"],
  ["src/emit/emitters.ts"],
  ["src/emit/run-emitters.ts"],
  ["src/emit/schedule.ts"],
  ["src/emit/emit-worker.ts"],
  // the commands' work (generation, spec:diff), the commands over them, and their entries
  ["src/pipeline.ts", "src/diff"],
  // a release: spec:diff against the registry's latest contract, the package staged and published
  ["src/release"],
  ["src/commands"],
  ["src/cli.ts", "src/diff/cli.ts", "src/release/cli.ts", "src/release/package-cli.ts", "src/index.ts"],
  // what the generator writes (the sandbox imports it by the package's name, as its users do)
  ["generated"],
  // the sandbox: the seed's schema, the store (its tables' types and the database's outages, the
  // engine, the schema's migrations and seeding, the records' statements), the rules over it, its
  // entry points
  ["sandbox/seed"],
  ["sandbox/store", "sandbox/store/schema/database.ts"],
  ["sandbox/store/engine"],
  ["sandbox/store/schema"],
  ["sandbox/store/records"],
  ["sandbox/service", "sandbox/seed/load-seed.ts"],
  ["sandbox"],
  // the tools around it all, and the tests' helpers they borrow
  ["test/support", "test/system/sandbox"],
  ["bench/support", "scripts"],
  ["bench"],
];
