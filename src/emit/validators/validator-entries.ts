import type { ValidatorEntry } from "../../compiler/index.js";
import type { ApiModel, OperationModel, ParameterModel } from "../../model/types.js";

/** One validator for every component schema (neutral direction), with its type guard. */
export function componentEntries(model: ApiModel): ValidatorEntry[] {
  return model.schemas.map((schema) => ({
    name: schema.validatorName,
    guardName: schema.guardName,
    typeName: `T.${schema.typeName}`,
    schema: { pointer: schema.pointer },
    direction: "neutral",
  }));
}

/**
 * Per operation: its path parameters, query and headers (each an object whose values arrive as
 * strings and are converted as the parameter schemas say), each request body media type
 * (request direction; form fields converted too) and each JSON response (response direction).
 * A body that shares its component's validator (the model's `sharedValidators`) adds none.
 */
export function operationEntries(operation: OperationModel): ValidatorEntry[] {
  const { names, parameters } = operation;
  const own = (name: string | undefined): name is string => name !== undefined && !names.sharedValidators.includes(name);
  const entries: ValidatorEntry[] = [];
  const parameterEntry = (name: string | undefined, type: string | undefined, list: readonly ParameterModel[]): void => {
    if (name === undefined) return;
    entries.push({ name, typeName: `T.${type ?? "unknown"}`, schema: { inline: parametersSchema(list) }, direction: "request", coerceStrings: true });
  };
  parameterEntry(names.pathParamsValidator, names.pathParamsType, parameters.path);
  parameterEntry(names.queryValidator, names.queryType, parameters.query);
  parameterEntry(names.headersValidator, names.headersType, parameters.header);
  for (const content of operation.requestBody?.contents ?? []) {
    const name = names.bodyValidators[content.mediaType];
    if (!own(name) || content.schemaPointer === undefined) continue;
    const coerceStrings = content.kind === "multipart" || content.kind === "form";
    entries.push({ name, typeName: `T.${names.bodyType ?? "unknown"}`, schema: { pointer: content.schemaPointer }, direction: "request", coerceStrings });
  }
  for (const response of operation.responses) {
    const name = names.responseValidators[response.status];
    const content = response.contents.find((c) => c.kind === "json" && c.schemaPointer !== undefined);
    if (!own(name) || content?.schemaPointer === undefined) continue;
    const typeName = names.responseTypes[response.status];
    entries.push({ name, typeName: `T.${typeName ?? "unknown"}`, schema: { pointer: content.schemaPointer }, direction: "response" });
  }
  return entries;
}

/** The parameters of one location as one object schema: `{ id: <schema of id> }`. */
function parametersSchema(list: readonly ParameterModel[]): Record<string, unknown> {
  return {
    type: "object",
    properties: Object.fromEntries(list.map((p) => [p.name, p.schemaPointer === undefined ? {} : { $ref: p.schemaPointer }])),
    required: list.filter((p) => p.required).map((p) => p.name),
  };
}
