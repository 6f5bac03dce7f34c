import type { OperationModel } from "../../model/types.js";

/** The operations of both sides, paired. */
export interface OperationPairs {
  readonly matched: readonly (readonly [OperationModel, OperationModel])[];
  readonly removed: readonly OperationModel[];
  readonly added: readonly OperationModel[];
}

/**
 * "get /venues/{}": an operation's identity over HTTP, the method and the path template with
 * parameter names erased (a query part in the path key is kept as written).
 */
export function operationKey(operation: Pick<OperationModel, "method" | "path">): string {
  return `${operation.method} ${operation.path.replace(/\{[^}]*\}/g, "{}")}`;
}

/** Pairs operations by method and path template: renaming `{id}` to `{venueId}` or the operationId keeps the pair. */
export function matchOperations(base: readonly OperationModel[], head: readonly OperationModel[]): OperationPairs {
  const byKey = new Map<string, OperationModel>();
  for (const operation of head) if (!byKey.has(operationKey(operation))) byKey.set(operationKey(operation), operation);
  const matched: (readonly [OperationModel, OperationModel])[] = [];
  const removed: OperationModel[] = [];
  for (const operation of base) {
    const partner = byKey.get(operationKey(operation));
    if (partner === undefined) removed.push(operation);
    else {
      matched.push([operation, partner]);
      byKey.delete(operationKey(operation));
    }
  }
  return { matched, removed, added: head.filter((operation) => [...byKey.values()].includes(operation)) };
}

/** "createVenue (POST /venues)": how the report names an operation. */
export function describeOperation(operation: OperationModel): string {
  return `${operation.id} (${operation.httpMethod} ${operation.path})`;
}
