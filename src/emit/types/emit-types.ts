import type { EmitInput, GeneratedFile } from "../emitter.js";
import { toJsdocComment } from "../jsdoc.js";
import { componentAliases, operationAliases, type TypeAlias } from "./named-types.js";
import { renderOpenapiTypes } from "./openapi-types.js";

const UNMARKED = `/** A schema's type with the readOnly/writeOnly markers removed and every property kept. */
export type Unmarked<T> = T extends $Read<infer U> ? Unmarked<U> : T extends $Write<infer U> ? Unmarked<U> : T extends (infer E)[] ? Unmarked<E>[] : T extends object ? { [K in keyof T]: Unmarked<T[K]> } : T;
`;

/**
 * generated/types.ts: openapi-typescript's output, then a named export for every component
 * schema and for each operation's parameters, body and responses. Request types leave readOnly
 * properties out and response types writeOnly ones (openapi-typescript's Writable/Readable).
 */
export async function emitTypes({ model, document }: EmitInput): Promise<GeneratedFile[]> {
  const base = renderOpenapiTypes(document, model.usesReadWrite, callbackItems(model), itemSchemas(model));
  const schemas = new Map(model.schemas.map((schema) => [schema.name, schema]));
  const componentNames = new Set(model.schemas.map((schema) => schema.typeName));
  const aliases = [
    ...componentAliases(model.schemas),
    ...[...model.operations, ...model.webhooks].flatMap((operation) =>
      operationAliases(operation, schemas, componentNames),
    ),
  ];
  const content = `${base}\n${model.usesReadWrite ? UNMARKED : ""}${printAliases(aliases)}`;
  return [{ path: "types.ts", content }];
}

/**
 * The schemas of the items of sequences (and of JSON event data) and of `in: querystring`
 * parameters, which the aliases name as components.
 */
function itemSchemas(model: EmitInput["model"]): string[] {
  const contents = [...model.operations, ...model.webhooks].flatMap((operation) => [
    ...(operation.requestBody?.contents ?? []),
    ...operation.responses.flatMap((response) => response.contents),
  ]);
  const querystrings = model.operations.flatMap((operation) =>
    operation.querystring?.componentRef === undefined && operation.querystring?.schemaPointer !== undefined
      ? [operation.querystring.schemaPointer]
      : [],
  );
  return [
    ...contents.flatMap((content) =>
      [content.itemSchemaPointer, content.itemDataSchemaPointer].filter((pointer) => pointer !== undefined),
    ),
    ...querystrings,
  ];
}

/** Each callback's Path Item, by the key it is typed under in `webhooks`. */
function callbackItems(model: EmitInput["model"]): Record<string, string> {
  const items: Record<string, string> = {};
  for (const hook of model.webhooks)
    if (hook.kind === "callback") items[hook.typesKey] = hook.pointer.slice(0, hook.pointer.lastIndexOf("/"));
  return items;
}

/**
 * Each alias as its JSDoc block (jsdoc.ts, which escapes comment ends) and `export type Name =
 * Type;`, names and types coming from named-types.ts. A printer such as ts-morph gives the same
 * text from structures, but loading it and the copy of the compiler it brings costs more than
 * printing the largest document's aliases (3,218 for Stripe's).
 */
function printAliases(aliases: readonly TypeAlias[]): string {
  return aliases.map((alias) => `${toJsdocComment(alias.docs)}export type ${alias.name} = ${alias.type};\n`).join("");
}
