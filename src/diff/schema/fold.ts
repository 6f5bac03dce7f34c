import { appendPointer } from "../../json-pointer.js";
import { isRecord } from "../../json-value.js";
import { type DialectRules, exclusiveFlag, isNullable } from "../../schema/dialect.js";
import { keywordsWhere, worksWith } from "../../schema/vocabulary.js";
import { isDocumentationKey } from "../findings/keyword-change.js";
import { stableStringify } from "../findings/stable-json.js";
import type { Flattened } from "./flatten.js";
import { isClassifiedKeyword, mergeKeyword } from "./merge-keyword.js";
import type { Branching, Conditional, JsonType, Keyword, SchemaNode, Subschema, SubschemaKeyword } from "./shape.js";

/** One level being merged from its parts; "null" is still one of the types here. */
export interface Draft {
  types?: Set<JsonType | "null">;
  /** OpenAPI `nullable: true` (`isNullable`): null is valid whatever the rest says */
  nullableKeyword: boolean;
  enumValues?: string[];
  readonly properties: Map<string, SchemaNode[]>;
  readonly required: Set<string>;
  additional: "open" | "closed" | SchemaNode[];
  indexSignature: boolean;
  items?: SchemaNode[];
  readonly prefixItems: SchemaNode[][];
  readonly subschemas: Map<string, Subschema>;
  readonly conditionals: Conditional[];
  readonly dependentRequired: Map<string, Set<string>>;
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
/**
 * Keywords read with another one (`then` and `else` with `if`, which they do nothing without), read
 * apart (the numeric bounds, by `foldBounds`), or that apply nothing here (definitions).
 */
const CONSUMED: ReadonlySet<string> = new Set([
  "$ref",
  "allOf",
  "nullable",
  ...keywordsWhere(
    (entry) =>
      (entry.holds === "schema-map" && entry.role === "core") ||
      (entry.instance === "number" && entry.bound !== undefined) ||
      worksWith(entry, "if"),
  ),
]);

/**
 * The keywords that apply their schemas to every value they select (src/schema/vocabulary.ts's
 * `applies` left out): their schemas, written in several parts, all apply to the same values;
 * `contains` (some item) and `not` do not combine so.
 */
const CONJUNCTIVE: ReadonlySet<string> = new Set(keywordsWhere((entry) => entry.applies === undefined));

const folders: Record<string, Folder> = {
  type: (draft, value) => intersectDraftTypes(draft, Array.isArray(value) ? value : [value]),
  enum: (draft, value) => intersectEnum(draft, Array.isArray(value) ? value : []),
  const: (draft, value) => intersectEnum(draft, [value]),
  properties: (draft, value, node) => addProperties(draft, value, node.pointer),
  required: (draft, value) => {
    for (const name of Array.isArray(value) ? value : []) draft.required.add(String(name));
  },
  additionalProperties: (draft, value, node) =>
    addAdditional(draft, value, appendPointer(node.pointer, "additionalProperties")),
  items: (draft, value, node) => {
    draft.items = [...(draft.items ?? []), { value, pointer: appendPointer(node.pointer, "items") }];
  },
  prefixItems: (draft, value, node) => addPrefixItems(draft, value, appendPointer(node.pointer, "prefixItems")),
  contains: subschemaFolder("contains"),
  propertyNames: subschemaFolder("propertyNames"),
  contentSchema: subschemaFolder("contentSchema"),
  not: subschemaFolder("not"),
  unevaluatedItems: (draft, value, node) => {
    if (!acceptsAnything(value))
      addSubschema(draft, "unevaluatedItems", "", { value, pointer: appendPointer(node.pointer, "unevaluatedItems") });
  },
  unevaluatedProperties: (draft, value, node) => {
    if (value === false) draft.additional = "closed";
    else if (!acceptsAnything(value))
      addSubschema(draft, "unevaluatedProperties", "", {
        value,
        pointer: appendPointer(node.pointer, "unevaluatedProperties"),
      });
  },
  patternProperties: keyedFolder("patternProperties"),
  dependentSchemas: keyedFolder("dependentSchemas"),
  dependentRequired: (draft, value) => addDependentRequired(draft, value),
  if: (draft, value, node) => addConditional(draft, value, node),
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

/** Merges the parts of one level into a draft: every keyword of every part applies, OpenAPI's read by its `rules`. */
export function foldNodes(flat: Flattened, rules: DialectRules): Draft {
  const draft: Draft = {
    nullableKeyword: false,
    properties: new Map(),
    required: new Set(),
    additional: "open",
    indexSignature: false,
    prefixItems: [],
    subschemas: new Map(),
    conditionals: [],
    dependentRequired: new Map(),
    keywords: new Map(),
    branchings: [],
    readOnly: false,
    writeOnly: false,
    deprecated: false,
    docs: new Map(),
    other: new Map(),
  };
  for (const node of flat.nodes) {
    draft.nullableKeyword ||= isNullable(rules, node.value);
    foldBounds(draft, node, rules);
    for (const [key, value] of Object.entries(node.value)) foldKey(draft, key, value, node);
  }
  return draft;
}

function foldKey(draft: Draft, key: string, value: unknown, node: SchemaNode<Record<string, unknown>>): void {
  const folder = folders[key];
  const keyword = { value, pointer: appendPointer(node.pointer, key) };
  if (folder !== undefined) folder(draft, value, node);
  else if (CONSUMED.has(key)) return;
  else if (isDocumentationKey(key)) draft.docs.set(key, mergeKeyword(draft.docs.get(key), key, keyword));
  else if (isClassifiedKeyword(key)) draft.keywords.set(key, mergeKeyword(draft.keywords.get(key), key, keyword));
  else draft.other.set(key, mergeKeyword(draft.other.get(key), key, keyword));
}

/**
 * Bounds in one form: OpenAPI 3.0's `exclusiveMinimum: true` beside `minimum: 5` becomes
 * `exclusiveMinimum: 5`, as in JSON Schema 2020-12.
 */
function foldBounds(draft: Draft, node: SchemaNode<Record<string, unknown>>, rules: DialectRules): void {
  for (const [inclusive, exclusive] of [
    ["minimum", "exclusiveMinimum"],
    ["maximum", "exclusiveMaximum"],
  ] as const) {
    const bound = node.value[inclusive];
    const flag = node.value[exclusive];
    const pointer = (key: string): string => appendPointer(node.pointer, key);
    if (typeof flag === "number")
      draft.keywords.set(
        exclusive,
        mergeKeyword(draft.keywords.get(exclusive), exclusive, { value: flag, pointer: pointer(exclusive) }),
      );
    if (typeof bound !== "number") continue;
    const key = exclusiveFlag(rules, node.value, exclusive) === true ? exclusive : inclusive;
    draft.keywords.set(key, mergeKeyword(draft.keywords.get(key), key, { value: bound, pointer: pointer(inclusive) }));
  }
}

function intersectDraftTypes(draft: Draft, names: readonly unknown[]): void {
  const given = new Set(
    names.filter((name): name is JsonType | "null" => typeof name === "string" && JSON_TYPES.has(name)),
  );
  if (given.has("number")) given.add("integer");
  const current = draft.types;
  draft.types =
    current === undefined
      ? given
      : new Set([...current].filter((type) => given.has(type) || (type === "integer" && given.has("number"))));
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

/**
 * Whether a schema accepts every value as written: `true`, `{}`, or a schema of documentation
 * alone. Such a schema is read as no schema at all (`additionalProperties: {}` leaves the object
 * open).
 */
export function acceptsAnything(value: unknown): boolean {
  return value === true || (isRecord(value) && Object.keys(value).every(isDocumentationKey));
}

function addAdditional(draft: Draft, value: unknown, pointer: string): void {
  if (value === false || draft.additional === "closed") {
    draft.additional = "closed";
    draft.indexSignature = false;
  } else if (!acceptsAnything(value) && value !== undefined) {
    draft.additional = [...(draft.additional === "open" ? [] : draft.additional), { value, pointer }];
    draft.indexSignature = true;
  } else draft.indexSignature = true;
}

function addBranching(draft: Draft, keyword: "oneOf" | "anyOf", value: unknown, pointer: string): void {
  if (!Array.isArray(value)) return;
  const at = appendPointer(pointer, keyword);
  draft.branchings.push({
    keyword,
    pointer: at,
    branches: value.map((branch: unknown, index) => [{ value: branch, pointer: appendPointer(at, index) }]),
  });
}

/** A folder for a keyword whose value is one subschema. */
function subschemaFolder(keyword: SubschemaKeyword): Folder {
  return (draft, value, node) =>
    addSubschema(draft, keyword, "", { value, pointer: appendPointer(node.pointer, keyword) });
}

/** A folder for a keyword whose value maps keys (patterns, property names) to subschemas. */
function keyedFolder(keyword: "patternProperties" | "dependentSchemas"): Folder {
  return (draft, value, node) => {
    if (!isRecord(value)) return;
    for (const [key, schema] of Object.entries(value))
      addSubschema(draft, keyword, key, { value: schema, pointer: appendPointer(node.pointer, keyword, key) });
  };
}

/** A subschema added to the level: joined to the same keyword and key of another part where both apply to the same values, else beside it. */
function addSubschema(draft: Draft, keyword: SubschemaKeyword, key: string, node: SchemaNode): void {
  const name = key === "" ? keyword : `${keyword} ${key}`;
  const existing = draft.subschemas.get(name);
  if (existing === undefined || CONJUNCTIVE.has(keyword)) {
    draft.subschemas.set(name, {
      keyword,
      key,
      pointer: existing?.pointer ?? node.pointer,
      parts: [...(existing?.parts ?? []), node],
    });
    return;
  }
  let count = 2;
  while (draft.subschemas.has(`${name} ${count}`)) count++;
  draft.subschemas.set(`${name} ${count}`, { keyword, key, pointer: node.pointer, parts: [node] });
}

function addPrefixItems(draft: Draft, value: unknown, pointer: string): void {
  if (!Array.isArray(value)) return;
  value.forEach((schema: unknown, index) => {
    draft.prefixItems[index] = [
      ...(draft.prefixItems[index] ?? []),
      { value: schema, pointer: appendPointer(pointer, index) },
    ];
  });
}

function addDependentRequired(draft: Draft, value: unknown): void {
  if (!isRecord(value)) return;
  for (const [name, required] of Object.entries(value)) {
    const names = draft.dependentRequired.get(name) ?? new Set<string>();
    for (const dependent of Array.isArray(required) ? required : []) names.add(String(dependent));
    draft.dependentRequired.set(name, names);
  }
}

/** `if` with the `then` and `else` beside it; without either, `if` restricts nothing. */
function addConditional(draft: Draft, value: unknown, node: SchemaNode<Record<string, unknown>>): void {
  const { then, else: otherwise } = node.value;
  if (then === undefined && otherwise === undefined) return;
  const at = (key: string, schema: unknown): SchemaNode[] => [
    { value: schema, pointer: appendPointer(node.pointer, key) },
  ];
  draft.conditionals.push({
    pointer: appendPointer(node.pointer, "if"),
    condition: at("if", value),
    ...(then !== undefined ? { thenBranch: at("then", then) } : {}),
    ...(otherwise !== undefined ? { elseBranch: at("else", otherwise) } : {}),
  });
}
