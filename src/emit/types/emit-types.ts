import type { TypeAliasDeclarationStructure } from "ts-morph";
import type { EmitInput, GeneratedFile } from "../emitter.js";
import { toJsdocText } from "../jsdoc.js";
import { loadTsMorph } from "../typescript-once.js";
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
  const base = renderOpenapiTypes(document, model.usesReadWrite);
  const schemas = new Map(model.schemas.map((schema) => [schema.name, schema]));
  const componentNames = new Set(model.schemas.map((schema) => schema.typeName));
  const aliases = [...componentAliases(model.schemas), ...model.operations.flatMap((operation) => operationAliases(operation, schemas, componentNames))];
  const content = `${base}\n${model.usesReadWrite ? UNMARKED : ""}${printAliases(aliases)}`;
  return [{ path: "types.ts", content }];
}

/** The aliases as ts-morph structures, printed in one pass (not inserted one by one). */
function printAliases(aliases: readonly TypeAlias[]): string {
  const { Project, StructureKind } = loadTsMorph();
  const project = new Project({ useInMemoryFileSystem: true, skipLoadingLibFiles: true });
  const statements = aliases.map(
    (alias): TypeAliasDeclarationStructure => ({
      kind: StructureKind.TypeAlias,
      name: alias.name,
      type: alias.type,
      isExported: true,
      docs: [toJsdocText(alias.docs)],
    }),
  );
  return project.createSourceFile("named-types.ts", { statements }).getFullText();
}
