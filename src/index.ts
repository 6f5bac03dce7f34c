/**
 * The generator's programmatic API: generate code from an OpenAPI document, and the pieces a
 * build tool may want on their own.
 */
export { generate, DEFAULT_TEMPLATES_DIR, type GenerateOptions, type GenerateResult } from "./pipeline.js";
export { GenerationFailed, type Diagnostic, type SourceLocation } from "./diagnostics/diagnostic.js";
export { catalog, type DiagnosticCode, type Severity } from "./diagnostics/catalog.js";
export { formatDiagnostic } from "./diagnostics/format.js";
export { loadSpec, type LoadedSpec } from "./load/load-spec.js";
export { buildModel } from "./model/build-model.js";
export type * from "./model/types.js";
export type { GeneratedFile } from "./emit/emitter.js";
export type { OutputDrift } from "./write/check-output.js";
export {
  compileSchema,
  compileValidatorModule,
  SchemaCompileError,
  type CompileModuleOptions,
  type Direction,
  type FormatMode,
  type ValidatorEntry,
} from "./compiler/index.js";
