import type { RequestBodyModel } from "../../model/types.js";
import type { Finding } from "../findings/finding.js";
import { compareResidual, rawPair } from "../findings/residual.js";
import { compareContents } from "./compare-contents.js";
import type { OperationContext } from "./operation-context.js";

const BODY_HANDLED: ReadonlySet<string> = new Set(["required", "content"]);

/** A request body added, removed, made required or optional, and its contents. */
export function compareRequestBody(ctx: OperationContext): Finding[] {
  const old = ctx.before.requestBody;
  const now = ctx.after.requestBody;
  if (old === undefined && now === undefined) return [];
  if (old === undefined) return [addedBody(now as RequestBodyModel)];
  if (now === undefined)
    return [
      {
        rule: "request-body-removed",
        pointer: old.pointer,
        at: ctx.after.pointer,
        message: "request body: removed (clients that still send one are not told)",
        typeBreak: "callers",
      },
    ];
  const documents = { base: ctx.sides.base.loaded.document, head: ctx.sides.head.loaded.document };
  return [
    ...requiredChange(old, now),
    ...compareContents(
      ctx,
      { place: "request", label: "request body", owner: ctx.after.names.bodyType, at: now.pointer },
      { before: old.contents, after: now.contents },
    ),
    ...compareResidual(
      rawPair(documents.base, documents.head, { base: old.pointer, head: now.pointer }, "request body", "request"),
      BODY_HANDLED,
    ),
  ];
}

function addedBody(now: RequestBodyModel): Finding {
  const rule = now.required ? "request-body-added-required" : "request-body-added-optional";
  return {
    rule,
    pointer: now.pointer,
    after: now.required ? "required" : "optional",
    message: `request body: added (${now.required ? "required" : "optional"})`,
    ...(now.required ? { typeBreak: "callers" as const } : {}),
  };
}

function requiredChange(old: RequestBodyModel, now: RequestBodyModel): Finding[] {
  if (old.required === now.required) return [];
  const show = (required: boolean): string => (required ? "required" : "optional");
  const rule = now.required ? "request-body-became-required" : "request-body-became-optional";
  return [
    {
      rule,
      pointer: now.pointer,
      before: show(old.required),
      after: show(now.required),
      message: `request body: became ${show(now.required)}`,
      typeBreak: now.required ? "callers" : "handlers",
    },
  ];
}
