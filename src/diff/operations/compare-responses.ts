import type { ResponseModel } from "../../model/types.js";
import type { Finding } from "../findings/finding.js";
import { compareResidual, rawPair } from "../findings/residual.js";
import { compareContents } from "./compare-contents.js";
import { compareHeaders } from "./compare-headers.js";
import type { OperationContext } from "./operation-context.js";

const HANDLED: ReadonlySet<string> = new Set(["content", "headers"]);

/** Responses matched by status: removed, added, and each matched one's contents and headers. */
export function compareResponses(ctx: OperationContext): Finding[] {
  const before = ctx.before.responses;
  const after = ctx.after.responses;
  return [
    ...before.flatMap((old) => {
      const now = after.find((response) => response.status === old.status);
      return now === undefined ? [removedResponse(ctx, old)] : compareResponse(ctx, old, now);
    }),
    ...after.filter((now) => !before.some((response) => response.status === now.status)).map(addedResponse),
  ];
}

function removedResponse(ctx: OperationContext, old: ResponseModel): Finding {
  const rule = old.success ? "response-success-status-removed" : "response-non-success-status-removed";
  return {
    rule,
    pointer: old.pointer,
    at: ctx.after.pointer,
    before: old.status,
    message: `response ${old.status}: removed`,
  };
}

function addedResponse(now: ResponseModel): Finding {
  const rule = now.success ? "response-success-status-added" : "response-non-success-status-added";
  const note = now.success ? " (clients that expect only the others may not handle it)" : "";
  return {
    rule,
    pointer: now.pointer,
    after: now.status,
    message: `response ${now.status}: added${note}`,
    ...(now.success ? { typeBreak: "callers" as const } : {}),
  };
}

function compareResponse(ctx: OperationContext, old: ResponseModel, now: ResponseModel): Finding[] {
  const label = `response ${now.status}`;
  const where = {
    place: "response" as const,
    label,
    owner: ctx.after.names.responseTypes[now.status],
    at: now.pointer,
  };
  const documents = { base: ctx.sides.base.loaded.document, head: ctx.sides.head.loaded.document };
  return [
    ...compareContents(ctx, where, { before: old.contents, after: now.contents }),
    ...compareHeaders(ctx, old, now),
    ...compareResidual(
      rawPair(documents.base, documents.head, { base: old.pointer, head: now.pointer }, label, "response"),
      HANDLED,
    ),
  ];
}
