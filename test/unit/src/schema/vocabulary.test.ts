/**
 * The keyword vocabulary (src/schema/vocabulary.ts) against its readers: each keyword with a
 * trait is handled by every reader of that trait. The validators check every assertion and
 * applicator; the registry visits every applied subschema; spec:diff classifies every bound,
 * restriction and encoding, and every other assertion and applicator added; the mock merges every
 * bound of an allOf, builds data within it, and builds a schema without `type` as the bound's type.
 * A keyword added to the vocabulary and not handled fails the test of its reader, whose message
 * names the file to change.
 */
import { describe, expect, it } from "vitest";
import { compileValidators, type ValidatorEntry } from "../../../../src/compiler/index.js";
import { META_SCHEMA_PREFIX, META_SCHEMAS } from "../../../../src/compiler/registry/meta-schemas.js";
import { appliedSubschemas, definitionSubschemas } from "../../../../src/compiler/registry/subschemas.js";
import { guidedSample } from "../../../../src/mock/answers.js";
import { mergeAllOf } from "../../../../src/mock/merge.js";
import { SchemaSource } from "../../../../src/mock/schema.js";
import { loadValidators } from "../../../../src/mock/validators.js";
import { dialectRules } from "../../../../src/schema/dialect.js";
import { type KeywordEntry, keywordEntry, keywordsWhere, VOCABULARY } from "../../../../src/schema/vocabulary.js";
import { baseDocument, diffDocuments, type Json, rulesOf, set } from "../diff/support/support.js";

/** A schema, a value it accepts and one it refuses because of the keyword. */
interface Case {
  readonly schema: Json;
  readonly valid: unknown;
  readonly invalid: unknown;
}

/** `if` and `then`: a number from 0 up must be even. */
// biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword here
const IF_THEN = { if: { minimum: 0 }, then: { multipleOf: 2 } };

/** The assertions and applicators that are not bounds (bounds' cases are made from their entries). */
const CASES: Readonly<Record<string, Case>> = {
  type: { schema: { type: "string" }, valid: "a", invalid: 1 },
  enum: { schema: { enum: [1, 2] }, valid: 1, invalid: 3 },
  const: { schema: { const: 1 }, valid: 1, invalid: 2 },
  multipleOf: { schema: { type: "number", multipleOf: 2 }, valid: 4, invalid: 3 },
  pattern: { schema: { type: "string", pattern: "^a" }, valid: "ab", invalid: "b" },
  uniqueItems: { schema: { type: "array", uniqueItems: true }, valid: [1, 2], invalid: [1, 1] },
  required: { schema: { type: "object", required: ["a"] }, valid: { a: 1 }, invalid: {} },
  dependentRequired: {
    schema: { type: "object", dependentRequired: { a: ["b"] } },
    valid: { a: 1, b: 2 },
    invalid: { a: 1 },
  },
  nullable: { schema: { type: "string", nullable: true }, valid: null, invalid: 1 },
  properties: { schema: { properties: { a: { type: "string" } } }, valid: { a: "x" }, invalid: { a: 1 } },
  patternProperties: {
    schema: { patternProperties: { "^a": { type: "string" } } },
    valid: { ab: "x" },
    invalid: { ab: 1 },
  },
  additionalProperties: {
    schema: { properties: { a: {} }, additionalProperties: false },
    valid: { a: 1 },
    invalid: { b: 1 },
  },
  propertyNames: { schema: { propertyNames: { maxLength: 2 } }, valid: { ab: 1 }, invalid: { abc: 1 } },
  dependentSchemas: {
    schema: { dependentSchemas: { a: { required: ["b"] } } },
    valid: { a: 1, b: 2 },
    invalid: { a: 1 },
  },
  allOf: { schema: { allOf: [{ type: "string" }, { minLength: 2 }] }, valid: "ab", invalid: "a" },
  anyOf: { schema: { anyOf: [{ type: "string" }, { type: "number" }] }, valid: 1, invalid: true },
  oneOf: { schema: { oneOf: [{ type: "integer" }, { minimum: 2 }] }, valid: 1, invalid: 3 },
  prefixItems: { schema: { prefixItems: [{ type: "string" }] }, valid: ["a"], invalid: [1] },
  items: { schema: { items: { type: "string" } }, valid: ["a"], invalid: [1] },
  contains: { schema: { contains: { const: 1 } }, valid: [2, 1], invalid: [2] },
  not: { schema: { not: { type: "string" } }, valid: 1, invalid: "a" },
  if: { schema: IF_THEN, valid: 4, invalid: 3 },
  // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword here
  then: { schema: IF_THEN, valid: -3, invalid: 3 },
  else: { schema: { if: { minimum: 0 }, else: { multipleOf: 3 } }, valid: -3, invalid: -2 },
  unevaluatedProperties: {
    schema: { properties: { a: {} }, unevaluatedProperties: false },
    valid: { a: 1 },
    invalid: { b: 1 },
  },
  unevaluatedItems: { schema: { prefixItems: [{}], unevaluatedItems: false }, valid: [1], invalid: [1, 2] },
};

/** What a bound's case puts beside it, for the keywords a bound works with. */
const PARTNERS: Readonly<Record<string, unknown>> = { contains: { const: 0 } };

const BOUNDS = keywordsWhere((entry) => entry.bound !== undefined);
const CHECKED = keywordsWhere((entry) => entry.role === "assertion" || entry.role === "applicator");

/** A value of the keyword's instance type of a size (a length, a count, the number itself); arrays hold 0s, which `contains` matches. */
function valueOfSize(entry: KeywordEntry, size: number): unknown {
  switch (entry.instance) {
    case "string":
      return "a".repeat(size);
    case "array":
      return Array.from({ length: size }, () => 0);
    case "object":
      return Object.fromEntries(Array.from({ length: size }, (_, index) => [`p${index}`, 0]));
    default:
      return size;
  }
}

/** The schema of a bound at `limit`: its instance type, the bound, and the keywords it works with. */
function boundSchema(keyword: string, limit: number): Json {
  const entry = keywordEntry(keyword) as KeywordEntry;
  const partners = (entry.with ?? []).filter((partner) => Object.hasOwn(PARTNERS, partner));
  return {
    type: entry.instance,
    [keyword]: limit,
    ...Object.fromEntries(partners.map((partner) => [partner, PARTNERS[partner]])),
  };
}

/** A bound's case at 2: the sizes on each side of the limit, by its side and exclusiveness. */
function boundCase(keyword: string): Case {
  const entry = keywordEntry(keyword) as KeywordEntry;
  const { side, exclusive } = entry.bound as NonNullable<KeywordEntry["bound"]>;
  const step = side === "lower" ? 1 : -1;
  const valid = exclusive ? 2 + step : 2;
  const invalid = exclusive ? 2 : 2 - step;
  return { schema: boundSchema(keyword, 2), valid: valueOfSize(entry, valid), invalid: valueOfSize(entry, invalid) };
}

/** The JSON type of a value, as the vocabulary names instance types (integers are numbers). */
function jsonType(value: unknown): string {
  if (Array.isArray(value)) return "array";
  if (value === null) return "null";
  return typeof value;
}

function caseOf(keyword: string): Case | undefined {
  return (BOUNDS as readonly string[]).includes(keyword) ? boundCase(keyword) : CASES[keyword];
}

/** A module of validators, one per schema, compiled once for the file (an OpenAPI 3.1 document's components). */
function validatorsFor(schemas: Readonly<Record<string, unknown>>) {
  const document = { openapi: "3.1.0", info: { title: "t", version: "1" }, paths: {}, components: { schemas } };
  const entries: ValidatorEntry[] = Object.keys(schemas).map((name) => ({
    name: `validate_${name}`,
    schema: { pointer: `#/components/schemas/${name}` },
    direction: "response",
  }));
  const loaded = loadValidators(compileValidators({ document, entries }).javascript());
  return { document, validator: (name: string) => loaded.get(`validate_${name}`) };
}

describe("the keyword vocabulary", () => {
  it("names only keywords of its own as partners", () => {
    const strays = Object.entries(VOCABULARY as Readonly<Record<string, KeywordEntry>>).flatMap(([keyword, entry]) =>
      (entry.with ?? [])
        .filter((partner) => keywordEntry(partner) === undefined)
        .map((partner) => `${keyword}: ${partner}`),
    );
    expect(strays).toEqual([]);
  });

  it("gives every bound an instance type to count on", () => {
    expect(BOUNDS.filter((keyword) => VOCABULARY[keyword].instance === "any")).toEqual([]);
  });

  it("lists every keyword of the 2020-12 vocabularies' meta-schemas, under its vocabulary, and no other of theirs", () => {
    const named = (vocabulary: string): string => (vocabulary === "format-annotation" ? "format" : vocabulary);
    const published = Object.entries(META_SCHEMAS).flatMap(([id, meta]) => {
      if (!id.startsWith(`${META_SCHEMA_PREFIX}meta/`)) return [];
      const vocabulary = named(id.slice(`${META_SCHEMA_PREFIX}meta/`.length));
      const properties = (meta as { properties?: Record<string, unknown> }).properties ?? {};
      return Object.keys(properties).map((keyword) => `${vocabulary} ${keyword}`);
    });
    const listed = keywordsWhere((entry) => !["openapi", "draft"].includes(entry.vocabulary)).map(
      (keyword) => `${VOCABULARY[keyword].vocabulary} ${keyword}`,
    );
    expect(listed.sort()).toEqual(published.sort());
  });
});

describe("the validators check every assertion and applicator of the vocabulary", () => {
  const cases = new Map(
    CHECKED.flatMap((keyword) => {
      const found = caseOf(keyword);
      return found === undefined ? [] : [[keyword, found] as const];
    }),
  );
  const { validator } = validatorsFor(Object.fromEntries([...cases].map(([keyword, { schema }]) => [keyword, schema])));

  it.each(CHECKED)("%s", (keyword) => {
    const found = cases.get(keyword);
    expect(
      found,
      `no case for \`${keyword}\`: add one to CASES in test/unit/src/schema/vocabulary.test.ts (and compile the keyword in its family's file under src/compiler/keywords/)`,
    ).toBeDefined();
    const validate = validator(keyword);
    const message = `the validators ignore \`${keyword}\`: compile it in its family's file under src/compiler/keywords/`;
    expect(validate?.(found?.valid).valid, message).toBe(true);
    expect(validate?.(found?.invalid).valid, message).toBe(false);
  });
});

describe("the registry visits the subschemas of every keyword that holds them", () => {
  const holders = keywordsWhere(
    (entry) => entry.holds === "schema" || entry.holds === "schema-array" || entry.holds === "schema-map",
  );
  const values: Readonly<Record<string, unknown>> = { schema: {}, "schema-array": [{}], "schema-map": { name: {} } };

  it.each(holders)("%s", (keyword) => {
    const entry = VOCABULARY[keyword] as KeywordEntry;
    const schema = { [keyword]: values[entry.holds as string] };
    const visited = [...appliedSubschemas(schema), ...definitionSubschemas(schema)].map((sub) => sub.tokens[0]);
    const applied = entry.role === "applicator" || entry.role === "core";
    expect(
      visited.includes(keyword),
      `src/compiler/registry/subschemas.ts ${applied ? "skips" : "visits"} \`${keyword}\`'s subschemas`,
    ).toBe(applied);
  });
});

describe("spec:diff classifies every bound, restriction, encoding, assertion and applicator of the vocabulary", () => {
  const probe = "#/components/schemas/VenueCreate/properties/probe";
  /** A value of each encoding, added to a string. */
  const ENCODED: Readonly<Record<string, unknown>> = {
    format: "date",
    contentMediaType: "application/json",
    contentEncoding: "base64",
  };
  const encodings = keywordsWhere((entry) => entry.encoding === true);

  it.each(BOUNDS)("%s", async (keyword) => {
    const side = keywordEntry(keyword)?.bound?.side;
    const expected = side === "lower" ? "constraint-tightened" : "constraint-loosened";
    expect(
      await rulesOfChange(boundSchema(keyword, 2), boundSchema(keyword, 3)),
      `spec:diff does not read \`${keyword}\` as a ${side} bound: src/diff/schema/compare-constraints.ts compares bounds (and compare-subschemas.ts those that work with a subschema)`,
    ).toEqual([`request-property-${expected}`]);
  });

  it.each(encodings)("%s", async (keyword) => {
    const entry = keywordEntry(keyword) as KeywordEntry;
    expect(
      Object.hasOwn(ENCODED, keyword),
      `give \`${keyword}\` a value in ENCODED in test/unit/src/schema/vocabulary.test.ts`,
    ).toBe(true);
    const type = entry.instance === "any" ? "string" : entry.instance;
    const rules = await rulesOfChange({ type }, { type, [keyword]: ENCODED[keyword] });
    const message = `spec:diff leaves \`${keyword}\` unclassified: src/diff/schema/compare-types.ts compares the encodings`;
    expect(rules.length, message).toBeGreaterThan(0);
    expect(
      rules.filter((rule) => rule.includes("unclassified")),
      message,
    ).toEqual([]);
  });

  const others = CHECKED.filter((keyword) => !(BOUNDS as readonly string[]).includes(keyword));

  it.each(others)("%s, added", async (keyword) => {
    const schema = CASES[keyword]?.schema ?? {};
    const { [keyword]: _added, ...rest } = schema;
    const rules = await rulesOfChange(rest, schema);
    const message = `spec:diff does not classify \`${keyword}\` added: read it in src/diff/schema/fold.ts and compare it in src/diff/schema/`;
    expect(rules.length, message).toBeGreaterThan(0);
    expect(
      rules.filter((rule) => rule.includes("unclassified")),
      message,
    ).toEqual([]);
  });

  /** The rules of the report when the request's probe property goes from one schema to another. */
  async function rulesOfChange(before: Json, after: Json): Promise<string[]> {
    return rulesOf(await diffDocuments(set(probe, before)(baseDocument()), set(probe, after)(baseDocument())));
  }
});

describe("the mock honours every bound of the vocabulary", () => {
  /** Each bound in two allOf members, the looser first: the merge must keep the stricter. */
  const merged = (keyword: string): Json => {
    const lower = keywordEntry(keyword)?.bound?.side === "lower";
    const [looser, stricter] = lower ? [1, 3] : [3, 1];
    return { allOf: [boundSchema(keyword, looser), { [keyword]: stricter }] };
  };
  /** The bound at 2 and what it works with, without `type`: the mock builds a value of the bound's type. */
  const untyped = (keyword: string): Json => {
    const { type: _type, ...rest } = boundSchema(keyword, 2);
    return rest;
  };
  const { document, validator } = validatorsFor(
    Object.fromEntries(
      BOUNDS.flatMap((keyword) => [
        [keyword, merged(keyword)],
        [`${keyword}_untyped`, untyped(keyword)],
      ]),
    ),
  );
  const source = new SchemaSource(document, dialectRules("openapi-3.1"));

  it.each(BOUNDS)("%s", (keyword) => {
    const stricter = keywordEntry(keyword)?.bound?.side === "lower" ? 3 : 1;
    expect(
      mergeAllOf(merged(keyword), source)[keyword],
      `the mock's allOf merge keeps a looser \`${keyword}\`: src/mock/merge.ts merges the vocabulary's bounds`,
    ).toBe(stricter);
    const sample = guidedSample({ $ref: `#/components/schemas/${keyword}` }, source, validator(keyword));
    expect(
      sample === undefined ? false : validator(keyword)?.(sample.value).valid,
      `the mock builds no data within \`${keyword}\`: src/mock/typed.ts builds each type's data`,
    ).toBe(true);
  });

  it.each(BOUNDS)("%s, in a schema without type", (keyword) => {
    const name = `${keyword}_untyped`;
    const sample = guidedSample({ $ref: `#/components/schemas/${name}` }, source, validator(name));
    const instance = keywordEntry(keyword)?.instance;
    expect(
      sample === undefined ? undefined : jsonType(sample.value),
      `the mock does not build a schema with \`${keyword}\` and no type as a ${instance}: src/mock/sample.ts infers the type from the vocabulary`,
    ).toBe(instance);
    expect(validator(name)?.(sample?.value).valid).toBe(true);
  });

  it("builds minContains items from contains, merged from allOf members", () => {
    const sample = guidedSample({ $ref: "#/components/schemas/minContains" }, source, validator("minContains"));
    expect(sample?.value).toEqual([0, 0, 0]);
  });
});
