/**
 * The JSON Schema 2020-12 compiler (with OpenAPI 3.0/3.1's schema rules) behind the validators,
 * on four floors, each importing only from those below it:
 * - code/: the safe code builder (code.ts) and the text of the runtime helpers the generated code
 *   calls (helpers.ts);
 * - registry/: the documents and their schemas indexed (`$id`, `$anchor`), `$ref`s resolved, and
 *   the graph of references (recursion, readOnly/writeOnly reach); the compile error (errors.ts);
 * - keywords/: a schema node compiled keyword by keyword (node.ts, then typed.ts and one file per
 *   family: string, number, object, array, compose, values, ref, discriminator);
 * - module/: the module laid out (assemble.ts), its entries located (entries.ts), one function per
 *   schema location and direction (function.ts), over the module's state (module-state.ts).
 * This module, above them, is the compiler's one entry: the rest of the generator (the loader's
 * checks, the emitters) imports nothing else of it.
 */
import { isRecord } from "../json-value.js";
import { type Dialect, dialectRules } from "../schema/dialect.js";
import type { FormatMode } from "./keywords/context.js";
import { type AssembledModule, assembleModule } from "./module/assemble.js";
import { checkEntryNames, locateEntry, type ValidatorEntry } from "./module/entries.js";
import { ModuleState } from "./module/module-state.js";
import type { PublicTypes } from "./module/public-types.js";
import { buildRefGraph } from "./registry/graph.js";
import { indexDocument } from "./registry/indexer.js";
import { SchemaRegistry } from "./registry/registry.js";
import { DEFAULT_BASE_URI, resolveUri } from "./registry/uri.js";

export type { Dialect } from "../schema/dialect.js";
export type { Direction, FormatMode } from "./keywords/context.js";
export type { ValidatorEntry } from "./module/entries.js";
export { regexError } from "./module/module-state.js";
export type { PublicTypes } from "./module/public-types.js";
export { type DocumentRefs, documentRefs } from "./registry/document-refs.js";
export { SchemaCompileError } from "./registry/errors.js";

/** Input of `compileValidatorModule`. */
export interface CompileModuleOptions {
  /** root that "#/..." pointers and $refs resolve against (a bundled OpenAPI document or a plain JSON Schema) */
  document: unknown;
  entries: readonly ValidatorEntry[];
  /** "assert" (default) checks known formats; "annotate" only records them */
  formats?: FormatMode;
  /** default "openapi-3.1" */
  dialect?: Dialect;
  /** lines placed at the top (e.g. `import type * as T from "../types.js";`) */
  preamble?: string;
  /** further schema documents by absolute URI, for `$ref`s to other documents (never fetched) */
  resources?: Readonly<Record<string, unknown>>;
  /** declare ValidationError, ValidateOptions and ValidationResult in the module (default), or import them from a module */
  publicTypes?: PublicTypes;
}

/** TypeScript source of a module exporting one validator (and optional type guard) per entry. */
export function compileValidatorModule(options: CompileModuleOptions): string {
  return compileValidators(options).typescript();
}

/** A compiled module, to be written as TypeScript or run as JavaScript (the same code without its types). */
export interface CompiledValidators {
  typescript(): string;
  /**
   * The module's own code as JavaScript, without types and without the helpers' declarations:
   * the runtime's helpers (runtime/validators/helpers/) are free names in it, for the caller to
   * bind (loadValidators does). With `only`, a smaller module: just those entries' validators
   * (and guards) and what they use.
   */
  javascript(only?: readonly string[]): string;
}

/** Compiles the entries once, for TypeScript output, JavaScript output, or both. */
export function compileValidators(options: CompileModuleOptions): CompiledValidators {
  const assembled = assembleValidators(options);
  return {
    typescript: () => assembled.text("ts"),
    javascript: (only) => (only === undefined ? assembled.text("js") : assembled.part(only, "js")),
  };
}

function assembleValidators(options: CompileModuleOptions): AssembledModule {
  checkEntryNames(options.entries);
  const registry = new SchemaRegistry(dialectRules(options.dialect ?? "openapi-3.1"));
  const openApi =
    isRecord(options.document) &&
    (typeof options.document["openapi"] === "string" || typeof options.document["swagger"] === "string");
  registry.addDocument({
    root: options.document,
    retrievalUri: DEFAULT_BASE_URI,
    label: "",
    openApi,
    addressable: true,
  });
  indexDocument(registry, 0);
  for (const [uri, schema] of Object.entries(options.resources ?? {})) {
    const absolute = resolveUri(uri, DEFAULT_BASE_URI) ?? uri;
    indexDocument(
      registry,
      registry.addDocument({
        root: schema,
        retrievalUri: absolute,
        label: absolute,
        openApi: false,
        addressable: true,
      }),
    );
  }
  const located = options.entries.map((entry) => ({ entry, location: locateEntry(registry, entry) }));
  const graph = buildRefGraph(
    registry,
    located.map(({ location }) => location),
  );
  const module = new ModuleState(registry, graph, options.formats ?? "assert");
  return assembleModule(module, located, options.preamble, options.publicTypes);
}

/**
 * A self-contained module whose default export validates `schema` (JSON Schema 2020-12):
 * `(value: unknown, options?) => { valid, value?, errors? }`.
 */
export function compileSchema(schema: unknown, options: { formats?: FormatMode } = {}): string {
  const source = compileValidatorModule({
    document: schema,
    entries: [{ name: "validate", schema: { pointer: "#" } }],
    dialect: "json-schema-2020-12",
    ...(options.formats === undefined ? {} : { formats: options.formats }),
  });
  return `${source}\nexport default validate;\n`;
}
