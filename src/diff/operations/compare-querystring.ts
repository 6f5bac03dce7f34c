/**
 * The query string as one value (OpenAPI 3.2's `in: querystring`) compared as a parameter is: added
 * (required, breaking; optional, new), removed (clients that still send it are not told), made
 * required or optional, its media type changed (the query string is written another way: every
 * client breaks), and its content's schema judged as a parameter's schema (the fields of a form
 * or a JSON object as a request body's properties).
 */
import { appendPointer } from "../../json-pointer.js";
import type { QuerystringModel } from "../../model/types.js";
import type { Finding } from "../findings/finding.js";
import { compareResidual, rawPair } from "../findings/residual.js";
import { compareSchemas } from "../schema/compare-schema.js";
import { type OperationContext, schemaContextOf, schemaParts } from "./operation-context.js";

const HANDLED: ReadonlySet<string> = new Set(["name", "in", "required", "content"]);

function label(querystring: QuerystringModel): string {
  return `querystring \`${querystring.name}\``;
}

/** The querystring parameter of an operation against its counterpart. */
export function compareQuerystring(ctx: OperationContext): Finding[] {
  const [old, now] = [ctx.before.querystring, ctx.after.querystring];
  if (old === undefined && now === undefined) return [];
  if (now === undefined) {
    const removed = old as QuerystringModel;
    return [
      {
        rule: "request-parameter-removed",
        pointer: removed.pointer,
        at: ctx.after.pointer,
        before: removed.name,
        message: `${label(removed)}: removed (clients that still send a query string are not told)`,
        typeBreak: "callers",
      },
    ];
  }
  if (old === undefined)
    return [
      {
        rule: now.required ? "new-required-request-parameter" : "new-optional-request-parameter",
        pointer: now.pointer,
        after: now.required ? "required" : "optional",
        message: `${label(now)}: added (${now.required ? "required" : "optional"}, ${now.mediaType})`,
        ...(now.required ? { typeBreak: "callers" as const } : {}),
      },
    ];
  const documents = { base: ctx.sides.base.loaded.document, head: ctx.sides.head.loaded.document };
  const pair = rawPair(documents.base, documents.head, { base: old.pointer, head: now.pointer }, label(now), "request");
  const content = rawPair(
    documents.base,
    documents.head,
    {
      base: appendPointer(old.pointer, "content", old.mediaType),
      head: appendPointer(now.pointer, "content", now.mediaType),
    },
    `${label(now)} (${now.mediaType})`,
    "request",
  );
  return [
    ...requiredChange(old, now),
    ...mediaTypeChange(old, now),
    ...compareSchemas(
      { ...schemaContextOf(ctx, "parameter", label(now), ctx.after.names.queryType), present: now.required },
      schemaParts(ctx.sides.base, old.schemaPointer, old.pointer),
      schemaParts(ctx.sides.head, now.schemaPointer, now.pointer),
    ),
    ...compareResidual(pair, HANDLED),
    ...(old.mediaType === now.mediaType ? compareResidual(content, new Set(["schema"])) : []),
  ];
}

function requiredChange(old: QuerystringModel, now: QuerystringModel): Finding[] {
  if (old.required === now.required) return [];
  const show = (required: boolean): string => (required ? "required" : "optional");
  return [
    {
      rule: now.required ? "request-parameter-became-required" : "request-parameter-became-optional",
      pointer: now.pointer,
      before: show(old.required),
      after: show(now.required),
      message: `${label(now)}: became ${show(now.required)}`,
      typeBreak: now.required ? "callers" : "handlers",
    },
  ];
}

function mediaTypeChange(old: QuerystringModel, now: QuerystringModel): Finding[] {
  if (old.mediaType.toLowerCase() === now.mediaType.toLowerCase()) return [];
  return [
    {
      rule: "request-parameter-serialization-changed",
      pointer: appendPointer(now.pointer, "content"),
      before: old.mediaType,
      after: now.mediaType,
      message: `${label(now)}: written as ${now.mediaType}, not ${old.mediaType}: every client writes the query string another way`,
    },
  ];
}
