/**
 * The verdict's direction on 10,000 random schema pairs, seeded so every run sees the same ones.
 * Each pair is a random schema and the same schema after one to three tightening steps (each known
 * to accept fewer values: a bound moved in, a pattern narrowed, a branch dropped, a property made
 * required, ...), with steps that change nothing (`minItems: 0`, `additionalProperties: {}`, a
 * description) sprinkled on either side; one pair in five has only those. Read forward the pair
 * tightens, backward it loosens; in a request a tightening breaks clients and a loosening does
 * not, in a response the other way round (a loosening of the two kinds the catalogue calls
 * warnings, an object opened and an enum value added, may be only a warning). A pair of no-op
 * steps gives nothing to flag either way. The schemas are compared as a body is, without loading
 * documents, so the run stays within a few seconds.
 */
import { describe, expect, it } from "vitest";
import type { Finding } from "../../../../../src/diff/findings/finding.js";
import { rules } from "../../../../../src/diff/report/rules.js";
import { compareSchemas } from "../../../../../src/diff/schema/compare-schema.js";
import type { SchemaContext } from "../../../../../src/diff/schema/schema-context.js";
import { createSchemaDoc, type SchemaDoc } from "../../../../../src/diff/schema/shape.js";
import { createSharedComparisons } from "../../../../../src/diff/schema/shared-comparisons.js";

const PAIRS = 10_000;
const SEED = 0x5eed_2026;

type Schema = Record<string, unknown>;
type Random = () => number;

/** mulberry32: a small seeded generator of numbers in [0, 1). */
function seeded(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
const between = (random: Random, low: number, high: number): number => low + Math.floor(random() * (high - low + 1));

const KINDS = ["string", "integer", "number", "array", "object", "nullable", "anyOf", "any"] as const;
type Kind = (typeof KINDS)[number];

/** A random schema of a kind, `depth` levels of nesting at most. */
function randomSchema(
  random: Random,
  depth: number,
  kind: Kind = pick(random, depth > 0 ? KINDS : KINDS.slice(0, 3)),
): Schema {
  const maybe = (keyword: string, value: unknown): Schema => (random() < 0.4 ? { [keyword]: value } : {});
  switch (kind) {
    case "string":
      return random() < 0.2
        ? { type: "string", enum: ["a", "b", "c", "d"].slice(0, between(random, 2, 4)) }
        : {
            type: "string",
            ...maybe("maxLength", between(random, 10, 50)),
            ...maybe("minLength", between(random, 1, 3)),
            ...maybe("pattern", pick(random, [".+", "^[a-z]+$", "^[a-z]{1,20}$"])),
          };
    case "integer":
    case "number":
      return {
        type: kind,
        ...maybe("minimum", between(random, -10, 0)),
        ...maybe("maximum", between(random, 100, 200)),
        ...maybe("multipleOf", pick(random, [1, 2, 3])),
      };
    case "array":
      return {
        type: "array",
        items: randomSchema(random, depth - 1),
        ...maybe("maxItems", between(random, 10, 20)),
        ...maybe("minItems", 1),
      };
    case "object": {
      const names = ["a", "b", "c"].slice(0, between(random, 1, 3));
      const required = names.filter(() => random() < 0.3);
      return {
        type: "object",
        properties: Object.fromEntries(names.map((name) => [name, randomSchema(random, depth - 1)])),
        ...(required.length > 0 ? { required } : {}),
        ...maybe("maxProperties", between(random, 5, 9)),
        ...(random() < 0.2 ? { additionalProperties: { type: "string" } } : {}),
      };
    }
    case "nullable": {
      const { enum: _values, ...inner } = randomSchema(
        random,
        depth - 1,
        pick(random, ["string", "integer", "number"] as const),
      );
      return { ...inner, type: [inner.type, "null"] };
    }
    case "anyOf":
      return { anyOf: [randomSchema(random, depth - 1, "string"), randomSchema(random, depth - 1, "integer")] };
    case "any":
      return {};
  }
}

/** A step that makes a schema accept fewer values, where it applies; undefined where it does not. */
type Step = (random: Random, schema: Schema, trail: string[]) => Schema | undefined;

const isType = (schema: Schema, ...types: string[]): boolean => types.includes(schema.type as string);
const numberOf = (schema: Schema, keyword: string): number | undefined =>
  typeof schema[keyword] === "number" ? (schema[keyword] as number) : undefined;

/** The tightening steps, by name (the name counts what the run tried). */
const TIGHTEN: Readonly<Record<string, Step>> = {
  "maxLength lowered": (random, s) =>
    isType(s, "string") && s.enum === undefined
      ? { ...s, maxLength: (numberOf(s, "maxLength") ?? 60) - between(random, 1, 5) }
      : undefined,
  "minLength raised": (random, s) =>
    isType(s, "string") && s.enum === undefined
      ? { ...s, minLength: (numberOf(s, "minLength") ?? 0) + between(random, 1, 3) }
      : undefined,
  "pattern narrowed": (_, s) => {
    if (!isType(s, "string") || s.enum !== undefined) return undefined;
    const next: Record<string, string> = { ".+": "^[a-z]+$", "^[a-z]+$": "^[a-c]+$", "^[a-z]{1,20}$": "^[a-z]{2,10}$" };
    const pattern = s.pattern === undefined ? ".+" : next[s.pattern as string];
    return pattern === undefined ? undefined : { ...s, pattern };
  },
  "format added": (_, s) =>
    isType(s, "string") && s.enum === undefined && s.format === undefined ? { ...s, format: "email" } : undefined,
  "enum value removed": (_, s) =>
    Array.isArray(s.enum) && s.enum.length > 1 ? { ...s, enum: s.enum.slice(0, -1) } : undefined,
  "minimum raised": (random, s) =>
    isType(s, "integer", "number") && s.exclusiveMinimum === undefined
      ? { ...s, minimum: (numberOf(s, "minimum") ?? -20) + between(random, 1, 5) }
      : undefined,
  "maximum lowered": (random, s) =>
    isType(s, "integer", "number")
      ? { ...s, maximum: (numberOf(s, "maximum") ?? 300) - between(random, 1, 5) }
      : undefined,
  "minimum made exclusive": (_, s) => {
    const minimum = numberOf(s, "minimum");
    if (!isType(s, "integer", "number") || minimum === undefined) return undefined;
    const { minimum: _left, ...rest } = s;
    return { ...rest, exclusiveMinimum: minimum };
  },
  "multipleOf multiplied": (random, s) =>
    isType(s, "integer", "number")
      ? { ...s, multipleOf: (numberOf(s, "multipleOf") ?? 1) * between(random, 2, 3) }
      : undefined,
  "number made integer": (_, s) => (isType(s, "number") ? { ...s, type: "integer" } : undefined),
  "null no longer allowed": (_, s) =>
    Array.isArray(s.type) ? { ...s, type: (s.type as string[]).filter((type) => type !== "null")[0] } : undefined,
  "maxItems lowered": (random, s) =>
    isType(s, "array") ? { ...s, maxItems: (numberOf(s, "maxItems") ?? 30) - between(random, 1, 5) } : undefined,
  "minItems raised": (random, s) =>
    isType(s, "array") ? { ...s, minItems: (numberOf(s, "minItems") ?? 0) + between(random, 1, 3) } : undefined,
  "uniqueItems asked": (_, s) =>
    isType(s, "array") && s.uniqueItems !== true ? { ...s, uniqueItems: true } : undefined,
  "items tightened": (random, s, trail) => (isType(s, "array") ? within(random, s, "items", trail) : undefined),
  "property made required": (random, s) => {
    if (!isType(s, "object")) return undefined;
    const required = (s.required as string[] | undefined) ?? [];
    const optional = Object.keys((s.properties ?? {}) as Schema).filter((name) => !required.includes(name));
    return optional.length === 0 ? undefined : { ...s, required: [...required, pick(random, optional)] };
  },
  "object closed": (_, s) =>
    isType(s, "object") && s.additionalProperties === undefined ? { ...s, additionalProperties: false } : undefined,
  "maxProperties lowered": (random, s) =>
    isType(s, "object")
      ? { ...s, maxProperties: (numberOf(s, "maxProperties") ?? 12) - between(random, 1, 2) }
      : undefined,
  "property tightened": (random, s, trail) => {
    if (!isType(s, "object")) return undefined;
    const names = Object.keys((s.properties ?? {}) as Schema);
    if (names.length === 0) return undefined;
    const name = pick(random, names);
    const inner = within(random, s.properties as Schema, name, trail);
    return inner === undefined ? undefined : { ...s, properties: inner };
  },
  "other properties' schema tightened": (random, s, trail) =>
    isType(s, "object") && typeof s.additionalProperties === "object"
      ? within(random, s, "additionalProperties", trail)
      : undefined,
  "anyOf branch dropped": (random, s) => {
    if (!Array.isArray(s.anyOf) || s.anyOf.length < 2) return undefined;
    const dropped = between(random, 0, s.anyOf.length - 1);
    return { anyOf: s.anyOf.filter((_, index) => index !== dropped) };
  },
  "anything narrowed to an anyOf": (_, s) =>
    Object.keys(s).length === 0 ? { anyOf: [{ type: "string" }, { type: "number" }] } : undefined,
  "anything narrowed to a type": (random, s) =>
    Object.keys(s).length === 0 ? { type: pick(random, ["string", "object"]) } : undefined,
};

/** The loosenings a response may report as a warning (the reverse of these steps). */
const WARNED_IN_RESPONSES: ReadonlySet<string> = new Set(["object closed", "enum value removed"]);

/** A schema with one of its subschemas (`schema[key]`) tightened by a step that applies to it. */
function within(random: Random, schema: Schema, key: string, trail: string[]): Schema | undefined {
  const inner = tighten(random, schema[key] as Schema, trail);
  return inner === undefined ? undefined : { ...schema, [key]: inner };
}

/** The schema after one tightening step that applies (tried in random order), whose name (and those of the steps inside it) go on `trail`. */
function tighten(random: Random, schema: Schema, trail: string[]): Schema | undefined {
  const names = Object.keys(TIGHTEN);
  for (let left = names.length; left > 0; left--) {
    const [name] = names.splice(Math.floor(random() * left), 1) as [string];
    const inner: string[] = [];
    const next = TIGHTEN[name]?.(random, schema, inner);
    if (next === undefined) continue;
    trail.push(name, ...inner);
    return next;
  }
  return undefined;
}

/** Steps that change no value's validity: a default written out, an empty schema, documentation. */
function noOp(random: Random, schema: Schema): Schema {
  const step = (node: Schema): Schema => {
    if (isType(node, "array"))
      return { ...node, minItems: node.minItems ?? 0, items: noOp(random, node.items as Schema) };
    if (isType(node, "string") && node.enum === undefined) return { ...node, minLength: node.minLength ?? 0 };
    if (isType(node, "object"))
      return {
        ...node,
        ...(node.additionalProperties === undefined ? { additionalProperties: {} } : {}),
        minProperties: node.minProperties ?? 0,
      };
    return { ...node, description: "written out" };
  };
  return random() < 0.5 ? step(schema) : schema;
}

/** How an HTTP reader takes the findings: something breaks, something is flagged, or nothing is. */
function verdict(findings: readonly Finding[]): "breaking" | "warning" | "none" {
  const http = findings.filter((finding) => rules[finding.rule].direction !== "package");
  if (http.some((finding) => rules[finding.rule].severity === "breaking")) return "breaking";
  return http.some((finding) => rules[finding.rule].severity === "warning") ? "warning" : "none";
}

function compare(before: SchemaDoc, after: SchemaDoc, place: "request" | "response"): Finding[] {
  const ctx: SchemaContext = {
    base: before,
    head: after,
    direction: place,
    place,
    label: `${place} body`,
    path: "",
    ownerPath: "",
    typeNameOf: () => undefined,
    inComponent: false,
    seen: new Set(),
    shared: createSharedComparisons(),
    within: "pair",
  };
  return compareSchemas(
    ctx,
    [{ value: (before.document as Schema).schema, pointer: "#/schema" }],
    [{ value: (after.document as Schema).schema, pointer: "#/schema" }],
  );
}

describe("the verdict's direction on random tightenings and loosenings", () => {
  // about 5 s of CPU; the time limit leaves room for a machine busy with other suites
  it(`holds for ${PAIRS} seeded pairs, in requests and in responses`, { timeout: 180_000 }, () => {
    const random = seeded(SEED);
    const started = process.cpuUsage();
    const tried = new Map<string, number>();
    const failures: string[] = [];
    let neutral = 0;
    for (let index = 0; index < PAIRS; index++) {
      const base = randomSchema(random, 2);
      const steps: string[] = [];
      let tight = base;
      const wanted = random() < 0.2 ? 0 : between(random, 1, 3);
      for (let count = 0; count < wanted; count++) {
        const next = tighten(random, tight, steps);
        if (next === undefined) break;
        tight = next;
      }
      if (steps.length === 0) neutral++;
      for (const name of steps) tried.set(name, (tried.get(name) ?? 0) + 1);
      const [loose, strict] = [
        createSchemaDoc({ schema: noOp(random, base) }, "3.1"),
        createSchemaDoc({ schema: noOp(random, tight) }, "3.1"),
      ];
      const warned = steps.some((name) => WARNED_IN_RESPONSES.has(name));
      const seen = {
        "request, tightened": verdict(compare(loose, strict, "request")),
        "response, tightened": verdict(compare(loose, strict, "response")),
        "request, loosened": verdict(compare(strict, loose, "request")),
        "response, loosened": verdict(compare(strict, loose, "response")),
      };
      const expected =
        steps.length === 0
          ? {
              "request, tightened": ["none"],
              "response, tightened": ["none"],
              "request, loosened": ["none"],
              "response, loosened": ["none"],
            }
          : {
              "request, tightened": ["breaking"],
              "response, tightened": ["none"],
              "request, loosened": ["none"],
              "response, loosened": warned ? ["breaking", "warning"] : ["breaking"],
            };
      for (const [reading, got] of Object.entries(seen))
        if (!expected[reading as keyof typeof expected].includes(got))
          failures.push(
            `pair ${index} (${steps.join(", ") || "no-op steps"}), ${reading}: ${got}\n  ${JSON.stringify(base)}\n  ${JSON.stringify(tight)}`,
          );
    }
    const used = process.cpuUsage(started);
    console.info(
      `${PAIRS} pairs (${PAIRS - neutral} tightened, ${neutral} of no-op steps only), ${4 * PAIRS} comparisons in ${((used.user + used.system) / 1e6).toFixed(2)} s of CPU; steps tried: ${[...tried].map(([name, count]) => `${name} ${count}`).join(", ")}`,
    );
    expect(failures.slice(0, 5)).toEqual([]);
    expect(tried.size).toBe(Object.keys(TIGHTEN).length);
  });
});
