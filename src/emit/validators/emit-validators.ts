import { compileValidatorModule, SchemaCompileError } from "../../compiler/index.js";
import { createDiagnostic, GenerationFailed } from "../../diagnostics/diagnostic.js";
import type { EmitInput, GeneratedFile } from "../emitter.js";
import { componentEntries, mergeEntries, operationEntries } from "./validator-entries.js";

/**
 * generated/validators/index.ts: standalone validators (no runtime dependency) for every
 * component schema and for each operation's parameters, request bodies and JSON responses,
 * compiled from the JSON Schema in the document by the project's own compiler.
 */
export function emitValidators({ model, document, config }: EmitInput): GeneratedFile[] {
  // A JSON body that is exactly a component shares the component's validator (same name): one entry.
  const entries = mergeEntries([...componentEntries(model), ...model.operations.flatMap(operationEntries)]);
  try {
    const content = compileValidatorModule({
      document,
      entries,
      formats: config.formats,
      dialect: model.source.openapiVersion === "3.0" ? "openapi-3.0" : "openapi-3.1",
      preamble: `import type * as T from "../types.js";`,
    });
    return [{ path: "validators/index.ts", content }];
  } catch (error) {
    if (!(error instanceof SchemaCompileError)) throw error;
    const message = error.message.startsWith(`${error.pointer}: `) ? error.message.slice(error.pointer.length + 2) : error.message;
    throw new GenerationFailed([createDiagnostic("SCHEMA_INVALID", message, { file: model.source.specPath, pointer: error.pointer })]);
  }
}
