import { isRecord } from "../../json-value.js";
import { buildRequestBody, buildResponses } from "../../model/bodies.js";
import { entriesAt, followRef } from "../../model/document-nodes.js";
import { isFixedMethod, operationsOf } from "../../model/operations.js";
import { createSchemaFacts, listComponentSchemas } from "../../model/schemas.js";
import type { RequestBodyModel, ResponseModel } from "../../model/types.js";
import type { Finding } from "../findings/finding.js";
import { compareResidual, rawPair } from "../findings/residual.js";
import type { SpecSide } from "../source/load-side.js";
import { compareContents } from "./compare-contents.js";
import { sharedFindings } from "./compare-operations.js";
import type { DiffSides, ExchangeContext } from "./operation-context.js";

/** One operation of a webhook: a request the API sends to its subscribers. */
interface Webhook {
  readonly name: string;
  readonly method: string;
  /** its operationId, else "POST webhook orderCreated": how the report names it */
  readonly id: string;
  readonly pointer: string;
  readonly requestBody?: RequestBodyModel;
  readonly responses: readonly ResponseModel[];
}

const HANDLED: ReadonlySet<string> = new Set(["operationId", "requestBody", "responses"]);
const BODY_HANDLED: ReadonlySet<string> = new Set(["required", "content"]);

/**
 * Webhooks, matched by name and method. One removed stops calls its receivers wait for; one added
 * is new. A webhook's request is what the API sends, so its body is read as a response is: what a
 * receiver now gets (a looser schema, a body no longer always sent or sent in a new media type
 * breaks receivers). The response a receiver returns is what the API takes in, read as a request
 * body is. A component a webhook and an operation share is reported once, naming both.
 */
export function compareWebhooks(sides: DiffSides): Finding[] {
  const [before, after] = [webhooksOf(sides.base), webhooksOf(sides.head)];
  const key = (webhook: Webhook): string => `${webhook.method} ${webhook.name}`;
  const matched = before.flatMap((old) =>
    after.filter((now) => key(now) === key(old)).map((now) => [old, now] as const),
  );
  const own = matched.flatMap(([old, now]) => compareWebhook(sides, old, now));
  return [
    ...before.filter((old) => !after.some((now) => key(now) === key(old))).map(removedWebhook),
    ...after.filter((now) => !before.some((old) => key(old) === key(now))).map(addedWebhook),
    ...own,
    ...sharedFindings(
      sides,
      matched.map(([, now]) => now.id),
    ),
  ];
}

/** "webhook `orderCreated` (POST)". */
function describeWebhook(webhook: Webhook): string {
  return `webhook \`${webhook.name}\` (${webhook.method.toUpperCase()})`;
}

function removedWebhook(old: Webhook): Finding {
  return {
    rule: "webhook-removed",
    operation: old.id,
    pointer: old.pointer,
    at: "#/webhooks",
    before: old.name,
    message: `${describeWebhook(old)}: removed; its receivers get no more calls`,
  };
}

function addedWebhook(now: Webhook): Finding {
  return {
    rule: "webhook-added",
    operation: now.id,
    pointer: now.pointer,
    after: now.name,
    message: `${describeWebhook(now)}: added`,
  };
}

function compareWebhook(sides: DiffSides, old: Webhook, now: Webhook): Finding[] {
  const ctx: ExchangeContext = { sides, seen: new Set(), after: { id: now.id } };
  const label = describeWebhook(now);
  const documents = { base: sides.base.loaded.document, head: sides.head.loaded.document };
  const findings = [
    ...compareBody(ctx, old, now),
    ...compareWebhookResponses(ctx, old, now),
    ...compareResidual(
      rawPair(documents.base, documents.head, { base: old.pointer, head: now.pointer }, label, "operation"),
      HANDLED,
    ),
  ];
  // no client method or handler is generated for a webhook: its own schemas change no code's types
  return findings.map(({ typeBreak: _typeBreak, ...finding }) => ({ ...finding, operation: now.id }));
}

/**
 * The body the API sends: no longer always sent (removed, or made optional) breaks receivers that
 * read it; now always sent adds to what they get. Its media types and schemas are compared as a
 * response's, except that a media type added breaks (there is no Accept to ask for the old one).
 */
function compareBody(ctx: ExchangeContext, old: Webhook, now: Webhook): Finding[] {
  const label = `${describeWebhook(now)} request body`;
  const presence = presenceChange(label, old, now);
  const [was, is] = [old.requestBody, now.requestBody];
  if (was === undefined || is === undefined) return presence;
  const documents = { base: ctx.sides.base.loaded.document, head: ctx.sides.head.loaded.document };
  const mediaTypeRules = { removed: "webhook-media-type-removed", added: "webhook-media-type-added" } as const;
  return [
    ...presence,
    ...compareContents(
      ctx,
      { place: "response", label, at: is.pointer, mediaTypeRules },
      { before: was.contents, after: is.contents },
    ),
    ...compareResidual(
      rawPair(documents.base, documents.head, { base: was.pointer, head: is.pointer }, label, "response"),
      BODY_HANDLED,
    ),
  ];
}

/** A body added, removed, or made required or optional. */
function presenceChange(label: string, old: Webhook, now: Webhook): Finding[] {
  const state = (webhook: Webhook): string =>
    webhook.requestBody === undefined ? "none" : webhook.requestBody.required ? "required" : "optional";
  const [was, is] = [state(old), state(now)];
  if (was === is) return [];
  const lost = was === "required" || is === "none";
  const pointer = now.requestBody?.pointer ?? now.pointer;
  const what = lost
    ? is === "none"
      ? "removed: receivers no longer get it"
      : "made optional: calls may now come without it"
    : was === "none"
      ? `added (${is})`
      : "made required";
  return [
    {
      rule: lost ? "webhook-body-removed" : "webhook-body-added",
      pointer,
      before: was,
      after: is,
      message: `${label}: ${what}`,
    },
  ];
}

/** The answers receivers may return, by status: what the API takes in, compared as request bodies. */
function compareWebhookResponses(ctx: ExchangeContext, old: Webhook, now: Webhook): Finding[] {
  const label = (status: string): string => `${describeWebhook(now)} response ${status}`;
  return [
    ...old.responses.flatMap((was): Finding[] => {
      const is = now.responses.find((response) => response.status === was.status);
      if (is === undefined)
        return [
          {
            rule: "webhook-response-status-removed",
            pointer: was.pointer,
            at: now.pointer,
            before: was.status,
            message: `${label(was.status)}: removed; what the API does with it is no longer said`,
          },
        ];
      return compareContents(
        ctx,
        { place: "request", label: label(is.status), at: is.pointer },
        { before: was.contents, after: is.contents },
      );
    }),
    ...now.responses
      .filter((is) => !old.responses.some((was) => was.status === is.status))
      .map(
        (is): Finding => ({
          rule: "webhook-response-status-added",
          pointer: is.pointer,
          after: is.status,
          message: `${label(is.status)}: added`,
        }),
      ),
  ];
}

/** Every operation of every webhook of a side's document (after $refs). */
function webhooksOf(side: SpecSide): Webhook[] {
  const document = side.loaded.document;
  if (!isRecord(document.webhooks)) return [];
  const facts = createSchemaFacts(document, listComponentSchemas(document));
  return entriesAt({ node: document, pointer: "#" }, "webhooks").flatMap(([name, item, pointer]) => {
    const pathItem = followRef(document, item, pointer);
    if (pathItem === undefined) return [];
    return operationsOf(pathItem).map(([method, operation]): Webhook => {
      const { node } = operation;
      const requestBody = buildRequestBody(document, operation, facts);
      const id =
        typeof node.operationId === "string" && node.operationId !== ""
          ? node.operationId
          : `${isFixedMethod(method) ? method.toUpperCase() : method} webhook ${name}`;
      return {
        name,
        method,
        id,
        pointer: operation.pointer,
        ...(requestBody !== undefined ? { requestBody } : {}),
        responses: buildResponses(document, operation, facts),
      };
    });
  });
}
