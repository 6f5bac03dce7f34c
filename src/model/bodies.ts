import { bodyKindOf, sequenceOf } from "../../runtime/media-types.js";
import { appendPointer, resolvePointer } from "../json-pointer.js";
import { isRecord } from "../json-value.js";
import { entriesAt, followRef, type Located, stringAt } from "./document-nodes.js";
import type { SchemaFacts } from "./schemas.js";
import type { BodyContentModel, PartEncodingModel, PartsModel, RequestBodyModel, ResponseModel } from "./types.js";

/** The media types of a `content` map, sorted, each with its schema's pointer and facts. */
export function buildContents(
  document: unknown,
  owner: Located,
  facts: (schemaPointer: string) => SchemaFacts,
): BodyContentModel[] {
  return entriesAt(owner, "content")
    .flatMap(([mediaType, written, at]) => {
      // a Media Type Object may be a $ref to `components.mediaTypes` (OpenAPI 3.2)
      const found = followRef(document, written, at);
      if (found === undefined) return [];
      const { node: media, pointer } = found;
      const schemaPointer = media.schema !== undefined ? appendPointer(pointer, "schema") : undefined;
      const itemSchemaPointer = media.itemSchema !== undefined ? appendPointer(pointer, "itemSchema") : undefined;
      return [
        {
          mediaType,
          kind: bodyKindOf(mediaType),
          ...(schemaPointer !== undefined
            ? schemaFacts(schemaPointer, mediaType, facts)
            : { hasReadWrite: false, binaryFields: [] }),
          ...(itemSchemaPointer !== undefined ? itemFacts(document, mediaType, itemSchemaPointer) : {}),
          ...(itemSchemaPointer !== undefined && sequenceOf(mediaType) === "multipart"
            ? { parts: partsModel(document, found, itemSchemaPointer) }
            : {}),
          pointer,
        },
      ];
    })
    .sort((a, b) => a.mediaType.localeCompare(b.mediaType));
}

function schemaFacts(
  schemaPointer: string,
  mediaType: string,
  facts: (schemaPointer: string) => SchemaFacts,
): SchemaFacts & { schemaPointer: string } {
  const found = facts(schemaPointer);
  const kind = bodyKindOf(mediaType);
  return { schemaPointer, ...found, binaryFields: kind === "multipart" || kind === "form" ? found.binaryFields : [] };
}

export function buildRequestBody(
  document: unknown,
  operation: Located,
  facts: (schemaPointer: string) => SchemaFacts,
): RequestBodyModel | undefined {
  if (operation.node.requestBody === undefined) return undefined;
  const located = followRef(document, operation.node.requestBody, appendPointer(operation.pointer, "requestBody"));
  if (located === undefined) return undefined;
  const description = stringAt(located.node, "description");
  return {
    required: located.node.required === true,
    pointer: located.pointer,
    ...(description !== undefined ? { description } : {}),
    contents: buildContents(document, located, facts),
  };
}

/** Responses sorted: explicit codes ascending, then ranges (2XX), then default. */
export function buildResponses(
  document: unknown,
  operation: Located,
  facts: (schemaPointer: string) => SchemaFacts,
): ResponseModel[] {
  return entriesAt(operation, "responses")
    .flatMap(([status, response, pointer]) => {
      const located = followRef(document, response, pointer);
      if (located === undefined) return [];
      return [
        {
          status: status.toUpperCase() === "DEFAULT" ? "default" : status.toUpperCase(),
          success: /^2/.test(status),
          description: stringAt(located.node, "description") ?? "",
          pointer: located.pointer,
          contents: buildContents(document, located, facts),
        },
      ];
    })
    .sort((a, b) => statusRank(a.status) - statusRank(b.status) || a.status.localeCompare(b.status));
}

function statusRank(status: string): number {
  if (status === "default") return 2;
  return status.includes("X") ? 1 : 0;
}

/** What the model records of an `itemSchema`: its pointer, how its items are framed, an event's JSON `data` schema. */
function itemFacts(
  document: unknown,
  mediaType: string,
  itemSchemaPointer: string,
): Pick<BodyContentModel, "itemSchemaPointer" | "sequence" | "itemDataSchemaPointer"> {
  const sequence = sequenceOf(mediaType);
  const data = sequence === "sse" ? eventDataSchema(document, itemSchemaPointer) : undefined;
  return {
    itemSchemaPointer,
    ...(sequence !== undefined ? { sequence } : {}),
    ...(data !== undefined ? { itemDataSchemaPointer: data } : {}),
  };
}

/** The `contentSchema` of an event's `data` whose `contentMediaType` is JSON (through `$ref`s), if any. */
function eventDataSchema(document: unknown, itemSchemaPointer: string): string | undefined {
  const item = followRef(document, resolvePointer(document, itemSchemaPointer), itemSchemaPointer);
  const properties = item === undefined ? undefined : item.node.properties;
  if (item === undefined || !isRecord(properties)) return undefined;
  const at = appendPointer(item.pointer, "properties", "data");
  const data = followRef(document, properties.data, at);
  if (data === undefined || data.node.contentSchema === undefined) return undefined;
  const type = data.node.contentMediaType;
  return typeof type === "string" && bodyKindOf(type) === "json"
    ? appendPointer(data.pointer, "contentSchema")
    : undefined;
}

/**
 * How multipart/mixed items are encoded by position (OpenAPI 3.2 "Encoding By Position"):
 * `prefixEncoding`'s Encoding Objects for the first parts, `itemEncoding`'s for every other. A
 * position carries bytes when its `contentType` lists only media types of bytes, or, without one,
 * when the item schema is binary (as the Encoding Object's default `contentType` says).
 */
function partsModel(document: unknown, media: Located, itemSchemaPointer: string): PartsModel {
  const schemaBinary = isBinarySchema(document, resolvePointer(document, itemSchemaPointer), itemSchemaPointer);
  const encoding = (node: unknown, pointer: string): PartEncodingModel => {
    const found = isRecord(node) ? followRef(document, node, pointer) : undefined;
    const contentType = found === undefined ? undefined : stringAt(found.node, "contentType");
    const headers =
      found === undefined
        ? []
        : entriesAt(found, "headers")
            .filter(([name]) => name.toLowerCase() !== "content-type")
            .map(([name, header, at]) => ({ name, required: followRef(document, header, at)?.node.required === true }));
    const binary =
      contentType === undefined
        ? schemaBinary
        : contentType.split(",").every((range) => {
            const kind = bodyKindOf(range.trim());
            return kind !== "json" && kind !== "text";
          });
    return {
      ...(contentType !== undefined ? { contentType } : {}),
      ...(headers.length > 0 ? { headers } : {}),
      binary,
    };
  };
  const prefix = Array.isArray(media.node.prefixEncoding) ? media.node.prefixEncoding : [];
  return {
    prefix: prefix.map((node, i) => encoding(node, appendPointer(media.pointer, "prefixEncoding", String(i)))),
    item: encoding(media.node.itemEncoding, appendPointer(media.pointer, "itemEncoding")),
  };
}

/**
 * Whether a schema describes bytes (through `$ref`s): `format: binary` (OpenAPI 3.0, upgraded), a
 * `contentMediaType` that is neither JSON nor text, or a `contentEncoding`.
 */
function isBinarySchema(document: unknown, schema: unknown, pointer: string): boolean {
  const node = followRef(document, schema, pointer)?.node;
  if (node === undefined) return false;
  const type = node.contentMediaType;
  const kind = typeof type === "string" ? bodyKindOf(type) : undefined;
  return (
    node.format === "binary" ||
    node.contentEncoding !== undefined ||
    (kind !== undefined && kind !== "json" && kind !== "text")
  );
}
