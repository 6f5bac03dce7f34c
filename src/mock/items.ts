/**
 * The mock's answer for a response that is a sequence of items (an OpenAPI 3.2 `itemSchema`):
 * the items of its first example whose every item the item validator accepts (and the whole list
 * the `schema` beside it, if any), else one item built from the item schema. An example of a sequence is the whole content (OpenAPI 3.2 maps a
 * sequence to an array of its items): `dataValue` (or a `value`) listing the items, or the text on
 * the wire (`serializedValue`, or a `value` that is a string), cut into items as the runtime reads
 * them. A server-sent event's `data` is text; where it is JSON, its `contentSchema` builds it.
 */

import type { SequenceKind } from "../../runtime/route-types.js";
import { itemsOfText } from "../../runtime/sequences.js";
import { resolvePointer } from "../json-pointer.js";
import { isRecord } from "../json-value.js";
import type { BodyContentModel } from "../model/types.js";
import type { Sample } from "./context.js";
import type { SchemaSource } from "./schema.js";
import type { LoadedValidator } from "./validators.js";

/**
 * What checks the items: each item's validator, for an event with JSON `data` that of `data`
 * decoded, and the whole list's (a `schema` beside the `itemSchema`).
 */
export interface ItemChecks {
  readonly item: LoadedValidator | undefined;
  readonly data: LoadedValidator | undefined;
  readonly whole: LoadedValidator | undefined;
}

/** Builds data for a schema that a validator accepts (the mock's sampler), undefined when it finds none. */
export type Sampler = (schema: unknown, validator: LoadedValidator | undefined) => Sample | undefined;

/** The items the mock answers a sequence with, and where they came from. */
export function sequenceBody(
  content: BodyContentModel & { readonly sequence: SequenceKind; readonly itemSchemaPointer: string },
  document: unknown,
  source: SchemaSource,
  checks: ItemChecks,
  sample: Sampler,
): { readonly value: unknown[]; readonly origin: "example" | "builder" } | undefined {
  const wholeValid = (items: unknown[]): boolean => checks.whole === undefined || checks.whole(items).valid;
  const example = sequenceExamples(resolvePointer(document, content.pointer), content.sequence, source).find(
    (items) => items.every((item) => itemValid(item, checks)) && wholeValid(items),
  );
  if (example !== undefined) return { value: example, origin: "example" };
  const built = builtItem(content, document, checks, sample);
  return built === undefined || !wholeValid([built]) ? undefined : { value: [built], origin: "builder" };
}

/**
 * The examples of a Media Type Object of a sequence, each as its list of items: each of `examples`
 * (following $refs; `dataValue`, `value`, then `serializedValue`; `externalValue` skipped), then
 * `example`. One that cannot be read as items (a text that does not parse) is left out.
 */
export function sequenceExamples(node: unknown, sequence: SequenceKind, source: SchemaSource): unknown[][] {
  if (!isRecord(node)) return [];
  const named = isRecord(node["examples"]) ? Object.values(node["examples"]) : [];
  const values = named.flatMap((example) => {
    const resolved = isRecord(example) && typeof example["$ref"] === "string" ? source.deref(example["$ref"]) : example;
    if (!isRecord(resolved)) return [];
    const key = ["dataValue", "value", "serializedValue"].find((name) => Object.hasOwn(resolved, name));
    return key === undefined ? [] : [resolved[key]];
  });
  if (node["example"] !== undefined) values.push(node["example"]);
  return values.flatMap((value) => {
    const items = itemsOf(value, sequence);
    return items === undefined ? [] : [items];
  });
}

/** An example's items: a list as it is, a text cut into items; undefined for anything else. */
function itemsOf(value: unknown, sequence: SequenceKind): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (typeof value !== "string") return undefined;
  try {
    return itemsOfText(value, sequence);
  } catch {
    return undefined;
  }
}

function itemValid(item: unknown, checks: ItemChecks): boolean {
  if (checks.item !== undefined && !checks.item(item).valid) return false;
  if (checks.data === undefined) return true;
  const data = isRecord(item) ? item["data"] : undefined;
  try {
    return typeof data === "string" && checks.data(JSON.parse(data)).valid;
  } catch {
    return false;
  }
}

/** One item built from the item schema; an event's JSON `data` built from its `contentSchema`, as text. */
function builtItem(
  content: BodyContentModel & { readonly itemSchemaPointer: string },
  document: unknown,
  checks: ItemChecks,
  sample: Sampler,
): unknown {
  const itemSchema = resolvePointer(document, content.itemSchemaPointer);
  if (content.itemDataSchemaPointer === undefined) return sample(itemSchema, checks.item)?.value;
  const data = sample(resolvePointer(document, content.itemDataSchemaPointer), checks.data);
  if (data === undefined) return undefined;
  const text = JSON.stringify(data.value);
  // the event's other fields built around a `data` that is that text
  const event = sample(itemSchema, (value) =>
    checks.item === undefined ? { valid: true } : checks.item(isRecord(value) ? { ...value, data: text } : value),
  );
  return isRecord(event?.value) ? { ...event.value, data: text } : undefined;
}
