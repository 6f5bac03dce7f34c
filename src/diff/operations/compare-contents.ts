import type { BodyContentModel } from "../../model/types.js";
import type { Finding } from "../findings/finding.js";
import { compareResidual, rawPair } from "../findings/residual.js";
import type { RuleId } from "../report/rules.js";
import { compareSchemas } from "../schema/compare-schema.js";
import { type ExchangeContext, schemaContextOf, schemaParts } from "./operation-context.js";

/** Where a set of contents stands: a request body, or one response. */
export interface ContentsPlace {
  readonly place: "request" | "response";
  /** "request body", "response 200" */
  readonly label: string;
  /** the exported type of this body, for the package report */
  readonly owner?: string;
  /** where to show a media type that was removed */
  readonly at: string;
  /** the rules for a media type removed and added, when not the place's (a webhook's body); the generated code has no part in them */
  readonly mediaTypeRules?: MediaTypeRules;
}

/** The rules a media type removed and one added fall under. */
export interface MediaTypeRules {
  readonly removed: RuleId;
  readonly added: RuleId;
}

const REQUEST_MEDIA_TYPES: MediaTypeRules = {
  removed: "request-body-media-type-removed",
  added: "request-body-media-type-added",
};
const RESPONSE_MEDIA_TYPES: MediaTypeRules = {
  removed: "response-media-type-removed",
  added: "response-media-type-added",
};

/** The two sides' contents of one body, matched by media type. */
export interface ContentsPair {
  readonly before: readonly BodyContentModel[];
  readonly after: readonly BodyContentModel[];
}

const MEDIA_HANDLED: ReadonlySet<string> = new Set(["schema", "itemSchema"]);

/** Media types removed and added, and the schema and other fields of each media type in both. */
export function compareContents(ctx: ExchangeContext, where: ContentsPlace, pair: ContentsPair): Finding[] {
  const rules = where.mediaTypeRules ?? (where.place === "request" ? REQUEST_MEDIA_TYPES : RESPONSE_MEDIA_TYPES);
  const typeBreak = where.mediaTypeRules === undefined ? { typeBreak: "callers" as const } : {};
  const find = (list: readonly BodyContentModel[], mediaType: string): BodyContentModel | undefined =>
    list.find((c) => c.mediaType.toLowerCase() === mediaType.toLowerCase());
  return [
    ...pair.before.flatMap((old) => {
      const now = find(pair.after, old.mediaType);
      if (now === undefined)
        return [
          {
            rule: rules.removed,
            pointer: old.pointer,
            at: where.at,
            before: old.mediaType,
            message: `${where.label}: media type ${old.mediaType} removed`,
            ...typeBreak,
          },
        ];
      return compareContent(ctx, where, old, now);
    }),
    ...pair.after
      .filter((now) => find(pair.before, now.mediaType) === undefined)
      .map((now) => ({
        rule: rules.added,
        pointer: now.pointer,
        after: now.mediaType,
        message: `${where.label}: media type ${now.mediaType} added`,
      })),
  ];
}

function compareContent(
  ctx: ExchangeContext,
  where: ContentsPlace,
  old: BodyContentModel,
  now: BodyContentModel,
): Finding[] {
  const label = `${where.label} (${now.mediaType})`;
  const schemaCtx = schemaContextOf(ctx, where.place, label, where.owner);
  const documents = { base: ctx.sides.base.loaded.document, head: ctx.sides.head.loaded.document };
  const switched = switchedSequence(where, label, old, now);
  // a sequence's items (OpenAPI 3.2's `itemSchema`) are judged as a body is, per direction
  const items =
    switched !== undefined || (old.itemSchemaPointer === undefined && now.itemSchemaPointer === undefined)
      ? []
      : compareSchemas(
          schemaContextOf(ctx, where.place, `${label} items`, where.owner),
          schemaParts(ctx.sides.base, old.itemSchemaPointer, old.pointer),
          schemaParts(ctx.sides.head, now.itemSchemaPointer, now.pointer),
        );
  // one document that became a stream of items (or back) is that switch; a `schema` on both sides is still compared
  const whole =
    switched !== undefined && (old.schemaPointer === undefined || now.schemaPointer === undefined)
      ? []
      : compareSchemas(
          schemaCtx,
          schemaParts(ctx.sides.base, old.schemaPointer, old.pointer),
          schemaParts(ctx.sides.head, now.schemaPointer, now.pointer),
        );
  return [
    ...(switched === undefined ? [] : [switched]),
    ...whole,
    ...items,
    ...compareResidual(
      rawPair(documents.base, documents.head, { base: old.pointer, head: now.pointer }, label, where.place),
      MEDIA_HANDLED,
    ),
  ];
}

/**
 * A media type whose body was one document (`schema`) and is now a sequence of items
 * (`itemSchema`, OpenAPI 3.2), or the reverse: the generated code reads and writes it otherwise
 * (a list or bytes against an async iterable of items), whatever the bytes on the wire.
 */
function switchedSequence(
  where: ContentsPlace,
  label: string,
  old: BodyContentModel,
  now: BodyContentModel,
): Finding | undefined {
  const before = old.itemSchemaPointer !== undefined;
  const after = now.itemSchemaPointer !== undefined;
  if (before === after) return undefined;
  const place = where.place === "request" ? "request" : "response";
  const message = after
    ? `${label}: one document became a stream of items (\`itemSchema\`), ${place === "request" ? "sent and read item by item" : "an async iterable of items to the client"}`
    : `${label}: a stream of items became one document (\`schema\`), ${place === "request" ? "sent and read whole" : "read whole by the client"}`;
  return {
    rule: after ? `${place}-body-became-stream` : `${place}-body-became-document`,
    pointer: now.pointer,
    at: now.pointer,
    before: before ? "itemSchema" : "schema",
    after: after ? "itemSchema" : "schema",
    message,
  };
}
