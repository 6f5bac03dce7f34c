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
    standardSchemaKeys: [schema.typeName],
  }));
}

/**
 * Per operation: its path parameters, query, headers and cookies (each an object whose values arrive as
 * strings and are converted as the parameter schemas say), each request body media type
 * (request direction; form fields converted too) and each JSON response (response direction).
 * A body that shares its component's validator (the model's `sharedValidators`) adds none.
 */
export function operationEntries(operation: OperationModel): ValidatorEntry[] {
  const { names, parameters } = operation;
  const own = (name: string | undefined): name is string =>
    name !== undefined && !names.sharedValidators.includes(name);
  const entries: ValidatorEntry[] = [];
  const parameterEntry = (
    name: string | undefined,
    type: string | undefined,
    list: readonly ParameterModel[],
  ): void => {
    if (name === undefined) return;
    const standardSchemaKeys = type === undefined ? [] : [type];
    entries.push({
      name,
      typeName: `T.${type ?? "unknown"}`,
      schema: { inline: parametersSchema(list) },
      direction: "request",
      coerceStrings: true,
      standardSchemaKeys,
    });
  };
  parameterEntry(names.pathParamsValidator, names.pathParamsType, parameters.path);
  if (operation.querystring === undefined) parameterEntry(names.queryValidator, names.queryType, parameters.query);
  else entries.push(...querystringEntry(operation));
  parameterEntry(names.headersValidator, names.headersType, parameters.header);
  parameterEntry(names.cookiesValidator, names.cookiesType, parameters.cookie);
  for (const content of operation.requestBody?.contents ?? []) {
    const name = names.bodyValidators[content.mediaType];
    if (!own(name) || content.schemaPointer === undefined) continue;
    const coerceStrings = content.kind === "multipart" || content.kind === "form";
    const standardSchemaKeys = bodySchemaKeys(operation, content.mediaType, name);
    entries.push({
      name,
      typeName: `T.${names.bodyType ?? "unknown"}`,
      schema: { pointer: content.schemaPointer },
      direction: "request",
      coerceStrings,
      standardSchemaKeys,
    });
  }
  for (const response of operation.responses) {
    const name = names.responseValidators[response.status];
    const content = response.contents.find((c) => c.kind === "json" && c.schemaPointer !== undefined);
    if (!own(name) || content?.schemaPointer === undefined) continue;
    const typeName = names.responseTypes[response.status];
    entries.push({
      name,
      typeName: `T.${typeName ?? "unknown"}`,
      schema: { pointer: content.schemaPointer },
      direction: "response",
    });
  }
  entries.push(...itemEntries(operation));
  return entries;
}

/**
 * The validator of an `in: querystring` parameter: its content's schema, form fields converted
 * from their texts as a form body's are; a component's type when its schema is exactly one.
 */
function querystringEntry({ names, querystring }: OperationModel): ValidatorEntry[] {
  const name = names.queryValidator;
  if (name === undefined || querystring === undefined) return [];
  const type = names.queryType;
  return [
    {
      name,
      typeName: `T.${type ?? "unknown"}`,
      schema: querystring.schemaPointer === undefined ? { inline: {} } : { pointer: querystring.schemaPointer },
      direction: "request",
      coerceStrings: querystring.kind === "form",
      standardSchemaKeys: type === undefined ? [] : [type],
    },
  ];
}

/**
 * An item's validator for each request body that is a sequence of items (and its whole's, with a
 * `schema` beside the `itemSchema`), and (with a JSON event `data`'s) for each answer that is one.
 */
function itemEntries(operation: OperationModel): ValidatorEntry[] {
  const { names } = operation;
  const bodies = (operation.requestBody?.contents ?? []).flatMap((content): ValidatorEntry[] => {
    const entry = (name: string | undefined, pointer: string | undefined): ValidatorEntry[] =>
      name === undefined || pointer === undefined ? [] : [{ name, schema: { pointer }, direction: "request" }];
    return [
      ...entry(names.bodyItemValidators[content.mediaType], content.itemSchemaPointer),
      ...entry(names.bodySequenceValidators[content.mediaType], content.schemaPointer),
    ];
  });
  return [...bodies, ...responseItemEntries(operation)];
}

function responseItemEntries(operation: OperationModel): ValidatorEntry[] {
  const { names } = operation;
  return operation.responses.flatMap((response) =>
    response.contents.flatMap((content): ValidatorEntry[] => {
      const item = names.itemValidators[response.status]?.[content.mediaType];
      const data = names.itemDataValidators[response.status]?.[content.mediaType];
      const whole = names.sequenceValidators[response.status]?.[content.mediaType];
      const entries: ValidatorEntry[] = [];
      const add = (name: string | undefined, pointer: string | undefined): void => {
        if (name !== undefined && pointer !== undefined)
          entries.push({ name, schema: { pointer }, direction: "response" });
      };
      add(item, content.itemSchemaPointer);
      add(data, content.itemDataSchemaPointer);
      add(whole, content.schemaPointer);
      return entries;
    }),
  );
}

/**
 * The Standard Schema keys of a body validator: the validator's own name without "validate",
 * and the operation's body type ("CreateVenueBody") for its JSON body, or its only one.
 */
function bodySchemaKeys(operation: OperationModel, mediaType: string, validator: string): string[] {
  const contents =
    operation.requestBody?.contents.filter((c) => operation.names.bodyValidators[c.mediaType] !== undefined) ?? [];
  const main = contents.find((c) => c.kind === "json") ?? (contents.length === 1 ? contents[0] : undefined);
  const own = validator.replace(/^validate/, "");
  const bodyType = operation.names.bodyType;
  return main?.mediaType === mediaType && bodyType !== undefined && bodyType !== own ? [own, bodyType] : [own];
}

/**
 * The Standard Schema keys an operation gives validators it shares with a component (its body type,
 * "CreateVenueBody", for a JSON body that is exactly a component), as [validator, key] pairs.
 */
export function sharedSchemaKeys(operation: OperationModel): [string, string][] {
  const { names } = operation;
  return (operation.requestBody?.contents ?? []).flatMap((content) => {
    const name = names.bodyValidators[content.mediaType];
    if (name === undefined || !names.sharedValidators.includes(name)) return [];
    return bodySchemaKeys(operation, content.mediaType, name).map((key): [string, string] => [name, key]);
  });
}

/** Component entries with the keys operations add to them. */
export function withSharedKeys(
  components: readonly ValidatorEntry[],
  shared: readonly (readonly [string, string])[],
): ValidatorEntry[] {
  const extra = new Map<string, string[]>();
  for (const [name, key] of shared) extra.set(name, [...(extra.get(name) ?? []), key]);
  return components.map((entry) =>
    extra.has(entry.name)
      ? { ...entry, standardSchemaKeys: [...(entry.standardSchemaKeys ?? []), ...(extra.get(entry.name) ?? [])] }
      : entry,
  );
}

/**
 * Each Standard Schema key on one validator only: the first entry to ask for a key keeps it (a
 * component's type name, then an operation's part), later ones go without it.
 */
export function withUniqueKeys(entries: readonly ValidatorEntry[]): ValidatorEntry[] {
  const taken = new Set<string>();
  return entries.map((entry) => {
    const keys: string[] = [];
    for (const key of entry.standardSchemaKeys ?? []) {
      if (taken.has(key)) continue;
      taken.add(key);
      keys.push(key);
    }
    return keys.length === (entry.standardSchemaKeys ?? []).length ? entry : { ...entry, standardSchemaKeys: keys };
  });
}

/** The parameters of one location as one object schema: `{ id: <schema of id> }`. */
function parametersSchema(list: readonly ParameterModel[]): Record<string, unknown> {
  return {
    type: "object",
    properties: Object.fromEntries(
      list.map((p) => [p.name, p.schemaPointer === undefined ? {} : { $ref: p.schemaPointer }]),
    ),
    required: list.filter((p) => p.required).map((p) => p.name),
  };
}
