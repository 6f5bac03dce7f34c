import { resolvePointer } from "../json-pointer.js";
import { isRecord } from "../json-value.js";
import { type NameRegistry, toMethodName, toPascalCase } from "./names.js";
import { componentSchemaName } from "./schemas.js";
import type { BodyContentModel, OperationModel, OperationNames, SchemaModel } from "./types.js";

/** An operation before naming. */
export type OperationDraft = Omit<OperationModel, "names">;

export interface NamingContext {
  readonly document: unknown;
  readonly types: NameRegistry;
  readonly validators: NameRegistry;
  /** component schemas by key, already named */
  readonly schemas: ReadonlyMap<string, SchemaModel>;
}

/** Decides every name of one operation (types, validators, client method). */
export function nameOperation(operation: OperationDraft, context: NamingContext): OperationNames {
  const stem = toPascalCase(operation.id);
  const owner = `operation ${operation.id}`;
  const type = (suffix: string): string => context.types.claim(`${stem}${suffix}`, owner, "Type");
  const validator = (suffix: string): string =>
    context.validators.claim(`validate${stem}${suffix}`, owner, "Validator");
  const { path, query, header, cookie } = operation.parameters;
  const successContents = operation.responses.filter((r) => r.success).flatMap((r) => r.contents);
  const shared = new Set<string>();
  const share = (content: BodyContentModel): string | undefined => {
    const name = componentValidator(content, context);
    if (name !== undefined) shared.add(name);
    return name;
  };
  const names = {
    typeStem: stem,
    method: toMethodName(operation.id),
    ...(path.length > 0 ? { pathParamsType: type("PathParams"), pathParamsValidator: validator("PathParams") } : {}),
    ...(query.length > 0 || operation.querystring !== undefined
      ? { queryType: type("Query"), queryValidator: validator("Query") }
      : {}),
    ...(header.length > 0 ? { headersType: type("Headers"), headersValidator: validator("Headers") } : {}),
    ...(cookie.length > 0 ? { cookiesType: type("Cookies"), cookiesValidator: validator("Cookies") } : {}),
    ...bodyNames(operation, context, { stem, owner, validator, share }),
    responseType: sharedComponentName(successContents, `${stem}Response`, context) ?? type("Response"),
    responseTypes: Object.fromEntries(
      operation.responses
        .filter((r) => r.contents.some((c) => c.schemaPointer !== undefined || c.itemSchemaPointer !== undefined))
        .map((r) => [r.status, type(`Response${statusSuffix(r.status)}`)]),
    ),
    responseValidators: Object.fromEntries(
      operation.responses.flatMap((r) => {
        const json = r.contents.find((c) => c.kind === "json" && c.schemaPointer !== undefined);
        return json === undefined ? [] : [[r.status, share(json) ?? validator(`Response${statusSuffix(r.status)}`)]];
      }),
    ),
    ...itemNames(operation, validator),
  };
  return { ...names, sharedValidators: [...shared].sort() };
}

/**
 * The validators of each answer that is a sequence of items, by status and media type: an item's,
 * a JSON event `data`'s, and the whole sequence's (its `schema`, when it declares one).
 */
function itemNames(
  operation: OperationDraft,
  validator: (suffix: string) => string,
): Pick<OperationNames, "itemValidators" | "itemDataValidators" | "sequenceValidators"> {
  const items: Record<string, Record<string, string>> = {};
  const data: Record<string, Record<string, string>> = {};
  const wholes: Record<string, Record<string, string>> = {};
  for (const response of operation.responses) {
    const sequences = response.contents.filter((c) => c.sequence !== undefined && c.itemSchemaPointer !== undefined);
    for (const content of sequences) {
      const own = sequences.length > 1 ? toPascalCase(content.mediaType) : "";
      const suffix = `Response${statusSuffix(response.status)}Item${own}`;
      items[response.status] = { ...items[response.status], [content.mediaType]: validator(suffix) };
      if (content.itemDataSchemaPointer !== undefined)
        data[response.status] = { ...data[response.status], [content.mediaType]: validator(`${suffix}Data`) };
      // a `schema` beside the `itemSchema` describes the items as a whole
      if (content.schemaPointer !== undefined)
        wholes[response.status] = {
          ...wholes[response.status],
          [content.mediaType]: validator(`Response${statusSuffix(response.status)}Sequence${own}`),
        };
    }
  }
  return { itemValidators: items, itemDataValidators: data, sequenceValidators: wholes };
}

/**
 * A JSON body that is exactly a component without readOnly/writeOnly properties is checked the
 * same in every direction: it shares the component's validator (e.g. every error answer that is
 * a Problem uses `validateProblem`) instead of a copy per operation and status.
 */
function componentValidator(content: BodyContentModel, context: NamingContext): string | undefined {
  if (content.componentRef === undefined || content.hasReadWrite) return undefined;
  return context.schemas.get(content.componentRef)?.validatorName;
}

/** How an operation claims names: its stem and owner, a validator name, a component validator to share. */
interface Claims {
  readonly stem: string;
  readonly owner: string;
  readonly validator: (suffix: string) => string;
  readonly share: (content: BodyContentModel) => string | undefined;
}

function bodyNames(
  operation: OperationDraft,
  context: NamingContext,
  { stem, owner, validator, share }: Claims,
): Pick<OperationNames, "bodyType" | "bodyValidators" | "bodyItemValidators" | "bodySequenceValidators"> {
  const sequences =
    operation.requestBody?.contents.filter((c) => c.sequence !== undefined && c.itemSchemaPointer !== undefined) ?? [];
  const contents = operation.requestBody?.contents.filter((c) => c.schemaPointer !== undefined) ?? [];
  if (contents.length + sequences.length === 0)
    return { bodyValidators: {}, bodyItemValidators: {}, bodySequenceValidators: {} };
  const bodyType =
    (sequences.length === 0 ? sharedComponentName(contents, `${stem}Body`, context) : undefined) ??
    context.types.claim(`${stem}Body`, owner, "Type");
  // a sequence's `schema` judges its items as a whole, not the body as it arrives
  const validated = contents.filter((c) => c.kind !== "binary" && !sequences.includes(c));
  const nameFor = (c: BodyContentModel): string =>
    (c.kind === "json" ? share(c) : undefined) ??
    validator(validated.length === 1 ? "Body" : `Body${toPascalCase(c.mediaType)}`);
  const sequenceName = (c: BodyContentModel, part: string): string =>
    validator(sequences.length === 1 ? `Body${part}` : `Body${part}${toPascalCase(c.mediaType)}`);
  // a `schema` beside the `itemSchema` describes the items as a whole
  const wholes = sequences.filter((c) => c.schemaPointer !== undefined);
  return {
    bodyType,
    bodyValidators: Object.fromEntries(validated.map((c) => [c.mediaType, nameFor(c)])),
    bodyItemValidators: Object.fromEntries(sequences.map((c) => [c.mediaType, sequenceName(c, "Item")])),
    bodySequenceValidators: Object.fromEntries(wholes.map((c) => [c.mediaType, sequenceName(c, "Sequence")])),
  };
}

/**
 * When every content is a $ref to the one component schema whose name is the wanted name, that
 * component's type already says it: the operation shares it instead of claiming a copy.
 */
function sharedComponentName(
  contents: readonly BodyContentModel[],
  wanted: string,
  context: NamingContext,
): string | undefined {
  const names = new Set(
    contents.map((c) => {
      const schema = c.schemaPointer === undefined ? undefined : resolvePointer(context.document, c.schemaPointer);
      return isRecord(schema) ? componentSchemaName(schema.$ref) : undefined;
    }),
  );
  if (names.size !== 1) return undefined;
  const [name] = [...names];
  const component = name === undefined ? undefined : context.schemas.get(name);
  return component !== undefined && component.typeName === wanted && !component.hasReadWrite ? wanted : undefined;
}

/** "200" → "200", "4XX" → "4XX", "default" → "Default". */
function statusSuffix(status: string): string {
  return status === "default" ? "Default" : status;
}
