import { isRecord } from "../json-value.js";
import { type AssembledModule, assembleModule } from "./assemble.js";
import { type Dialect, dialectRules } from "./dialect.js";
import { checkEntryNames, locateEntry, type ValidatorEntry } from "./entries.js";
import { buildRefGraph } from "./graph.js";
import { indexDocument } from "./indexer.js";
import { type FormatMode, ModuleState } from "./module-state.js";
import type { PublicTypes } from "./public-types.js";
import { SchemaRegistry } from "./registry.js";
import { DEFAULT_BASE_URI, resolveUri } from "./uri.js";

export type { Direction } from "./context.js";
export type { Dialect } from "./dialect.js";
export type { ValidatorEntry } from "./entries.js";
export { SchemaCompileError } from "./errors.js";
export type { FormatMode } from "./module-state.js";
export type { PublicTypes } from "./public-types.js";

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
  const openApi = isRecord(options.document) && (typeof options.document["openapi"] === "string" || typeof options.document["swagger"] === "string");
  registry.addDocument({ root: options.document, retrievalUri: DEFAULT_BASE_URI, label: "", openApi, addressable: true });
  indexDocument(registry, 0);
  for (const [uri, schema] of Object.entries(options.resources ?? {})) {
    const absolute = resolveUri(uri, DEFAULT_BASE_URI) ?? uri;
    indexDocument(registry, registry.addDocument({ root: schema, retrievalUri: absolute, label: absolute, openApi: false, addressable: true }));
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
