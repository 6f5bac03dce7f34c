import { type CompiledValidators, compileValidators, SchemaCompileError } from "../../compiler/index.js";
import { createDiagnostic, GenerationFailed } from "../../diagnostics/diagnostic.js";
import type { ApiModel } from "../../model/types.js";
import { openApiDialect } from "../../schema/dialect.js";
import {
  componentEntries,
  operationEntries,
  sharedSchemaKeys,
  withSharedKeys,
  withUniqueKeys,
} from "./validator-entries.js";

/**
 * The validators of a model, compiled once per run by the project's own compiler: for every
 * component schema and for each operation's parameters, request bodies and JSON responses. A
 * schema the compiler cannot take is reported as SCHEMA_INVALID at its pointer.
 */
export function compileModelValidators(
  model: ApiModel,
  document: Readonly<Record<string, unknown>>,
  formats: "assert" | "annotate",
): CompiledValidators {
  try {
    return compileValidators({
      document,
      entries: withUniqueKeys([
        ...withSharedKeys(componentEntries(model), [...model.operations, ...model.webhooks].flatMap(sharedSchemaKeys)),
        ...[...model.operations, ...model.webhooks].flatMap(operationEntries),
      ]),
      formats,
      dialect: openApiDialect(model.source.openapiVersion),
      preamble: `import type * as T from "../types.js";`,
      publicTypes: { from: "./types.js" },
    });
  } catch (error) {
    if (!(error instanceof SchemaCompileError)) throw error;
    const message = error.message.startsWith(`${error.pointer}: `)
      ? error.message.slice(error.pointer.length + 2)
      : error.message;
    throw new GenerationFailed([
      createDiagnostic("SCHEMA_INVALID", message, { file: model.source.specPath, pointer: error.pointer }),
    ]);
  }
}
