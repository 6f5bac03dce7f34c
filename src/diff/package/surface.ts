import type { ApiModel, OperationModel } from "../../model/types.js";
import { operationKey } from "../operations/match-operations.js";

/** Who an exported name belongs to: a component schema (by key) or an operation (by HTTP identity). */
export type ExportOwner =
  | { readonly kind: "schema"; readonly key: string }
  | { readonly kind: "operation"; readonly key: string };

/** One name of the generated package's public surface. */
export interface ExportedName {
  /** as code writes it: "Venue", "validateVenue", "client.createVenue", "Handlers.createVenue" */
  readonly name: string;
  readonly owner: ExportOwner;
  /** what the name is for its owner: "type", "validator", "bodyType", "responseTypes 200", ... */
  readonly role: string;
}

/**
 * Every name the generator derives from the spec, read from the model's naming authority:
 * component types and their `validate*`/`is*`, per-operation type aliases and validators, and
 * the client method and `Handlers` key of each operation.
 */
export function surfaceOf(model: ApiModel): ExportedName[] {
  return [
    ...model.schemas.flatMap((schema) => {
      const owner: ExportOwner = { kind: "schema", key: schema.name };
      return [
        { name: schema.typeName, owner, role: "type" },
        { name: schema.validatorName, owner, role: "validator" },
        { name: schema.guardName, owner, role: "guard" },
      ];
    }),
    ...model.operations.flatMap(operationNames),
  ];
}

function operationNames(operation: OperationModel): ExportedName[] {
  const owner: ExportOwner = { kind: "operation", key: operationKey(operation) };
  const { names } = operation;
  const named: [string, string | undefined][] = [
    ["client method", `client.${names.method}`],
    ["handler", `Handlers.${names.method}`],
    ["pathParamsType", names.pathParamsType],
    ["queryType", names.queryType],
    ["headersType", names.headersType],
    ["bodyType", names.bodyType],
    ["responseType", names.responseType],
    ["pathParamsValidator", names.pathParamsValidator],
    ["queryValidator", names.queryValidator],
    ["headersValidator", names.headersValidator],
    ...Object.entries(names.responseTypes).map(([status, name]): [string, string] => [`responseTypes ${status}`, name]),
    ...Object.entries(names.bodyValidators).map(([mediaType, name]): [string, string] => [
      `bodyValidators ${mediaType}`,
      name,
    ]),
    ...Object.entries(names.responseValidators).map(([status, name]): [string, string] => [
      `responseValidators ${status}`,
      name,
    ]),
  ];
  return named.flatMap(([role, name]) => (name === undefined ? [] : [{ name, owner, role }]));
}

/** The names of a surface, each with every owner that claims it (a shared component type has several). */
export function indexSurface(surface: readonly ExportedName[]): Map<string, ExportedName[]> {
  const index = new Map<string, ExportedName[]>();
  for (const exported of surface) index.set(exported.name, [...(index.get(exported.name) ?? []), exported]);
  return index;
}

/** The owner a name is reported under: its component when a component claims it. */
export function mainOwner(claims: readonly ExportedName[]): ExportedName | undefined {
  return claims.find((claim) => claim.owner.kind === "schema") ?? claims[0];
}
