import { appendPointer, pointerSegments } from "../../json-pointer.js";
import { HTTP_METHODS } from "../../model/operations.js";
import type { OperationModel } from "../../model/types.js";
import { withOperations } from "../findings/dedupe.js";
import type { Finding } from "../findings/finding.js";
import { compareResidual, rawPair } from "../findings/residual.js";
import { originsByPair } from "../schema/shared-comparisons.js";
import { compareParameters } from "./compare-parameters.js";
import { compareQuerystring } from "./compare-querystring.js";
import { compareRequestBody } from "./compare-request-body.js";
import { compareResponses } from "./compare-responses.js";
import { compareSecurity } from "./compare-security.js";
import { describeOperation, type OperationPairs } from "./match-operations.js";
import { type DiffSides, type OperationContext, operationOrigin } from "./operation-context.js";

const OPERATION_HANDLED: ReadonlySet<string> = new Set([
  "operationId",
  "parameters",
  "requestBody",
  "responses",
  "security",
]);
const PATH_ITEM_HANDLED: ReadonlySet<string> = new Set([...HTTP_METHODS, "additionalOperations", "parameters", "$ref"]);

/**
 * Operations removed and added, and every matched pair compared; each finding names its
 * operation. A change inside a component is one finding, with the operations that reach it.
 */
export function compareOperations(
  sides: DiffSides,
  pairs: OperationPairs,
  renamedSchemes: ReadonlyMap<string, string>,
): Finding[] {
  const own = pairs.matched.flatMap(([before, after]) =>
    compareOperation({ sides, before, after, seen: new Set() }, renamedSchemes),
  );
  return [
    ...pairs.removed.map(
      (old): Finding => ({
        rule: "api-removed",
        operation: old.id,
        pointer: old.pointer,
        before: describeOperation(old),
        message: `${describeOperation(old)}: removed; its client method and handler go with it`,
        typeBreak: "callers",
      }),
    ),
    ...pairs.added.map(
      (now): Finding => ({
        rule: "endpoint-added",
        operation: now.id,
        pointer: now.pointer,
        after: describeOperation(now),
        message: `${describeOperation(now)}: added`,
      }),
    ),
    ...own,
    ...sharedFindings(
      sides,
      pairs.matched.map(([, after]) => after.id),
    ),
  ];
}

/** The findings of the component pairs the operations (or webhooks) reach, each once, with the operations that reach it. */
export function sharedFindings(sides: DiffSides, operationIds: readonly string[]): Finding[] {
  const byOrigin = new Map(operationIds.map((id) => [operationOrigin(id), id]));
  const byPair = originsByPair(sides.shared, [...byOrigin.keys()]);
  return [...byPair].flatMap(([pair, origins]) => {
    const operations = origins.map((origin) => byOrigin.get(origin) ?? origin);
    return (sides.shared.own.get(pair) ?? []).map((finding) => withOperations(finding, operations));
  });
}

function compareOperation(ctx: OperationContext, renamedSchemes: ReadonlyMap<string, string>): Finding[] {
  const findings = [
    ...operationIdChange(ctx.before, ctx.after),
    ...compareSecurity(ctx, renamedSchemes),
    ...compareParameters(ctx),
    ...compareQuerystring(ctx),
    ...compareRequestBody(ctx),
    ...compareResponses(ctx),
    ...residuals(ctx),
  ];
  return findings.map((finding) => ({ ...finding, operation: ctx.after.id }));
}

function operationIdChange(before: OperationModel, after: OperationModel): Finding[] {
  if (before.id === after.id) return [];
  const message = `operationId ${before.id} renamed to ${after.id}: no HTTP change, but \`client.${before.names.method}\`, \`Handlers.${before.names.method}\` and the ${before.names.typeStem}* types and validators are renamed`;
  return [
    {
      rule: "api-operation-id-changed",
      pointer: appendPointer(after.pointer, "operationId"),
      at: after.pointer,
      before: before.id,
      after: after.id,
      message,
    },
  ];
}

/** The operation's and its path item's other keys: summaries, descriptions, tags, deprecation, callbacks, servers. */
function residuals(ctx: OperationContext): Finding[] {
  const documents = { base: ctx.sides.base.loaded.document, head: ctx.sides.head.loaded.document };
  const label = `operation ${ctx.after.id}`;
  const pathItem = (pointer: string): string => appendPointer("#", ...pointerSegments(pointer).slice(0, -1));
  return [
    ...compareResidual(
      rawPair(
        documents.base,
        documents.head,
        { base: ctx.before.pointer, head: ctx.after.pointer },
        label,
        "operation",
      ),
      OPERATION_HANDLED,
    ),
    ...compareResidual(
      rawPair(
        documents.base,
        documents.head,
        { base: pathItem(ctx.before.pointer), head: pathItem(ctx.after.pointer) },
        `path ${ctx.after.path}`,
        "operation",
      ),
      PATH_ITEM_HANDLED,
    ),
  ];
}
