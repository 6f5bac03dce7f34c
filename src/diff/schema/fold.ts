import { appendPointer } from "../../json-pointer.js";
import { isRecord } from "../../json-value.js";
import { isDocumentationKey } from "../keyword-change.js";
import { stableStringify } from "../stable-json.js";
import type { Flattened } from "./flatten.js";
import { isClassifiedKeyword, mergeKeyword } from "./merge-keyword.js";
import type { Branching, JsonType, Keyword, SchemaNode } from "./shape.js";

/** One level being merged from its parts; "null" is still one of the types here. */
export interface Draft {
  types?: Set<JsonType | "null">;
  /** OpenAPI `nullable: true`: null is valid whatever the rest says */
  nullableKeyword: boolean;
  enumValues?: string[];
  readonly properties: Map<string, SchemaNode[]>;
  readonly required: Set<string>;
  additional: "open" | "closed" | SchemaNode[];
  indexSignature: boolean;
  items?: SchemaNode[];
  readonly keywords: Map<string, Keyword>;
  readonly branchings: Branching[];
  readOnly: boolean;
  writeOnly: boolean;
  deprecated: boolean;
  readonly docs: Map<string, Keyword>;
  readonly other: Map<string, Keyword>;
}

type Folder = (draft: Draft, value: unknown, node: SchemaNode<Record<string, unknown>>) => void;

const JSON_TYPES: ReadonlySet<string> = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);
const CONSUMED: ReadonlySet<string> = new Set(["$ref", "allOf", "$defs", "definitions", "exclusiveMinimum", "exclusiveMaximum", "minimum", "maximum"]);

const folders: Record<string, Folder> = {
  type: (draft, value) => intersectDraftTypes(draft, Array.isArray(value) ? value : [value]),
  nullable: (draft, value) => {
    draft.nullableKeyword ||= value === true;
  },
  enum: (draft, value) => intersectEnum(draft, Array.isArray(value) ? value : []),
  const: (draft, value) => intersectEnum(draft, [value]),
  properties: (draft, value, node) => addProperties(draft, value, node.pointer),
  required: (draft, value) => {
    for (const name of Array.isArray(value) ? value : []) draft.required.add(String(name));
  },
  additionalProperties: (draft, value, node) => addAdditional(draft, value, appendPointer(node.pointer, "additionalProperties")),
  items: (draft, value, node) => {
    draft.items = [...(draft.items ?? []), { value, pointer: appendPointer(node.pointer, "items") }];
  },
  oneOf: (draft, value, node) => addBranching(draft, "oneOf", value, node.pointer),
  anyOf: (draft, value, node) => addBranching(draft, "anyOf", value, node.pointer),
  readOnly: (draft, value) => {
    draft.readOnly ||= value === true;
  },
  writeOnly: (draft, value) => {
    draft.writeOnly ||= value === true;
  },
  deprecated: (draft, value) => {
    draft.deprecated ||= value === true;
  },
};

/** Merges the parts of one level into a draft: every keyword of every part applies. */
export function foldNodes(flat: Flattened): Draft {
  const draft: Draft = {
    nullableKeyword: false,
    properties: new Map(),
    required: new Set(),
    additional: "open",
    indexSignature: false,
    keywords: new Map(),
    branchings: [],
    readOnly: false,
    writeOnly: false,
    deprecated: false,
    docs: new Map(),
    other: new Map(),
  };
  for (const node of flat.nodes) {
    foldBounds(draft, node);
    for (const [key, value] of Object.entries(node.value)) foldKey(draft, key, value, node);
  }
  return draft;
}

function foldKey(draft: Draft, key: string, value: unknown, node: SchemaNode<Record<string, unknown>>): void {
  const folder = folders[key];
  const keyword = { value, pointer: appendPointer(node.pointer, key) };
  if (folder !== undefined) folder(draft, value, node);
  else if (CONSUMED.has(key)) return;
  else if (key === "unevaluatedProperties" && value === false) draft.additional = "closed";
  else if (isDocumentationKey(key)) draft.docs.set(key, mergeKeyword(draft.docs.get(key), key, keyword));
  else if (isClassifiedKeyword(key)) draft.keywords.set(key, mergeKeyword(draft.keywords.get(key), key, keyword));
  else draft.other.set(key, mergeKeyword(draft.other.get(key), key, keyword));
}

/**
 * Bounds in one form: OpenAPI 3.0's `exclusiveMinimum: true` beside `minimum: 5` becomes
 * `exclusiveMinimum: 5`, as in JSON Schema 2020-12.
 */
function foldBounds(draft: Draft, node: SchemaNode<Record<string, unknown>>): void {
  for (const [inclusive, exclusive] of [
    ["minimum", "exclusiveMinimum"],
    ["maximum", "exclusiveMaximum"],
  ] as const) {
    const bound = node.value[inclusive];
    const flag = node.value[exclusive];
    const pointer = (key: string): string => appendPointer(node.pointer, key);
    if (typeof flag === "number") draft.keywords.set(exclusive, mergeKeyword(draft.keywords.get(exclusive), exclusive, { value: flag, pointer: pointer(exclusive) }));
    if (typeof bound !== "number") continue;
    const key = flag === true ? exclusive : inclusive;
    draft.keywords.set(key, mergeKeyword(draft.keywords.get(key), key, { value: bound, pointer: pointer(inclusive) }));
  }
}

function intersectDraftTypes(draft: Draft, names: readonly unknown[]): void {
  const given = new Set(names.filter((name): name is JsonType | "null" => typeof name === "string" && JSON_TYPES.has(name)));
  if (given.has("number")) given.add("integer");
  const current = draft.types;
  draft.types = current === undefined ? given : new Set([...current].filter((type) => given.has(type) || (type === "integer" && given.has("number"))));
}

function intersectEnum(draft: Draft, values: readonly unknown[]): void {
  const given = [...new Set(values.map(stableStringify))];
  draft.enumValues = draft.enumValues === undefined ? given : draft.enumValues.filter((value) => given.includes(value));
}

function addProperties(draft: Draft, value: unknown, pointer: string): void {
  if (!isRecord(value)) return;
  for (const [name, schema] of Object.entries(value)) {
    const node = { value: schema, pointer: appendPointer(pointer, "properties", name) };
    draft.properties.set(name, [...(draft.properties.get(name) ?? []), node]);
  }
}

function addAdditional(draft: Draft, value: unknown, pointer: string): void {
  if (value === false || draft.additional === "closed") {
    draft.additional = "closed";
    draft.indexSignature = false;
  } else if (value !== true && value !== undefined) {
    draft.additional = [...(draft.additional === "open" ? [] : draft.additional), { value, pointer }];
    draft.indexSignature = true;
  } else draft.indexSignature = true;
}

function addBranching(draft: Draft, keyword: "oneOf" | "anyOf", value: unknown, pointer: string): void {
  if (!Array.isArray(value)) return;
  const at = appendPointer(pointer, keyword);
  draft.branchings.push({ keyword, pointer: at, branches: value.map((branch: unknown, index) => [{ value: branch, pointer: appendPointer(at, index) }]) });
}
