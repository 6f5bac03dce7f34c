/**
 * The generator's programmatic API: generate code from an OpenAPI document, and the pieces a
 * build tool may want on their own.
 */

export {
  type CompileModuleOptions,
  compileSchema,
  compileValidatorModule,
  type Direction,
  type FormatMode,
  SchemaCompileError,
  type ValidatorEntry,
} from "./compiler/index.js";
export { catalog, type DiagnosticCode, type Severity } from "./diagnostics/catalog.js";
export { type Diagnostic, GenerationFailed, type SourceLocation } from "./diagnostics/diagnostic.js";
export { formatDiagnostic } from "./diagnostics/format.js";
export type { Change, DiffReport } from "./diff/report/types.js";
export { type DiffOptions, type DiffOutcome, formatReport, runDiff } from "./diff/run-diff.js";
export type { GeneratedFile } from "./emit/emitter.js";
export { type LoadedSpec, loadSpec } from "./load/load-spec.js";
export type { OperationSelection } from "./load/operation-filter.js";
export { buildModel } from "./model/build-model.js";
export type * from "./model/types.js";
export { DEFAULT_TEMPLATES_DIR, type GenerateOptions, type GenerateResult, generate } from "./pipeline.js";
export type { OutputDrift } from "./write/check-output.js";
