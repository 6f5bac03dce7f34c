import { isRecord, type JsonObject } from "../../json-value.js";
import { ownKeywordsApply } from "../../schema/dialect.js";
import { childLocation, locationKey, type SchemaLocation } from "./location.js";
import type { SchemaRegistry } from "./registry.js";

/** Properties a schema evaluates whenever it is valid, known at generation time. */
export interface StaticProps {
  readonly all: boolean;
  readonly names: readonly string[];
  readonly patterns: readonly string[];
}

/** Items a schema evaluates whenever it is valid, known at generation time. */
export interface StaticItems {
  readonly all: boolean;
  readonly prefix: number;
}

/** Static annotations per dimension; `null` means they depend on the instance (tracked at run time). */
export interface StaticEvaluation {
  readonly props: StaticProps | null;
  readonly items: StaticItems | null;
}

const NO_PROPS: StaticProps = { all: false, names: [], patterns: [] };
const NO_ITEMS: StaticItems = { all: false, prefix: 0 };
const DYNAMIC: StaticEvaluation = { props: null, items: null };

/** Computes what `unevaluatedProperties` / `unevaluatedItems` can rely on without run-time tracking. */
export class AnnotationAnalyzer {
  readonly #registry: SchemaRegistry;
  readonly #memo = new Map<string, StaticEvaluation>();
  readonly #active = new Set<string>();

  constructor(registry: SchemaRegistry) {
    this.#registry = registry;
  }

  /** What a schema with unevaluated* keywords has evaluated before those keywords run; `base` is its own base. */
  beforeUnevaluated(schema: JsonObject, at: SchemaLocation, base: string): StaticEvaluation {
    const rest: JsonObject = { ...schema };
    delete rest["unevaluatedProperties"];
    delete rest["unevaluatedItems"];
    delete rest["$id"];
    return this.analyze(rest, at, base);
  }

  /** Annotations of one schema object, including what its in-place applicators contribute. */
  analyze(schema: unknown, at: SchemaLocation, outerBase: string): StaticEvaluation {
    if (!isRecord(schema)) return { props: NO_PROPS, items: NO_ITEMS };
    const base = this.#registry.baseWithin(schema, outerBase);
    const parts = ownKeywordsApply(this.#registry.rules, schema)
      ? [
          own(schema),
          ...this.#referenced(schema, at, base),
          ...this.#allOf(schema, at, base),
          this.#conditional(schema, at, base),
        ]
      : this.#referenced(schema, at, base);
    return { props: mergeProps(parts.map((part) => part.props)), items: mergeItems(parts.map((part) => part.items)) };
  }

  #referenced(schema: JsonObject, at: SchemaLocation, base: string): StaticEvaluation[] {
    if (typeof schema["$dynamicRef"] === "string") return [DYNAMIC];
    const ref = schema["$ref"];
    if (typeof ref !== "string") return [];
    const target = this.#registry.resolveRef(ref, base, childLocation(at, "$ref"));
    return [this.#atLocation(target)];
  }

  #atLocation(location: SchemaLocation): StaticEvaluation {
    const key = locationKey(location);
    const known = this.#memo.get(key);
    if (known !== undefined) return known;
    if (this.#active.has(key)) return DYNAMIC;
    this.#active.add(key);
    const result = this.analyze(this.#registry.schemaAt(location), location, this.#registry.baseOf(location));
    this.#active.delete(key);
    this.#memo.set(key, result);
    return result;
  }

  #allOf(schema: JsonObject, at: SchemaLocation, base: string): StaticEvaluation[] {
    const branches = schema["allOf"];
    if (!Array.isArray(branches)) return [];
    return branches.map((branch, index) => this.analyze(branch, childLocation(at, "allOf", index), base));
  }

  /** anyOf, oneOf, if/then/else, dependentSchemas: static only when they contribute nothing. */
  #conditional(schema: JsonObject, at: SchemaLocation, base: string): StaticEvaluation {
    const results: StaticEvaluation[] = [];
    for (const keyword of ["anyOf", "oneOf"]) {
      const branches = schema[keyword];
      if (Array.isArray(branches))
        for (const [index, branch] of branches.entries())
          results.push(this.analyze(branch, childLocation(at, keyword, index), base));
    }
    for (const keyword of ["if", "then", "else"]) {
      if (schema[keyword] !== undefined) results.push(this.analyze(schema[keyword], childLocation(at, keyword), base));
    }
    const dependent = schema["dependentSchemas"];
    if (isRecord(dependent)) {
      for (const name of Object.keys(dependent))
        results.push(this.analyze(dependent[name], childLocation(at, "dependentSchemas", name), base));
    }
    return {
      props: results.every((result) => isEmptyProps(result.props)) ? NO_PROPS : null,
      items: results.every((result) => isEmptyItems(result.items)) ? NO_ITEMS : null,
    };
  }
}

function own(schema: JsonObject): StaticEvaluation {
  const properties = schema["properties"];
  const patterns = schema["patternProperties"];
  const prefixItems = schema["prefixItems"];
  const props: StaticProps = {
    all: schema["additionalProperties"] !== undefined || schema["unevaluatedProperties"] !== undefined,
    names: isRecord(properties) ? Object.keys(properties) : [],
    patterns: isRecord(patterns) ? Object.keys(patterns) : [],
  };
  if (schema["contains"] !== undefined) return { props, items: null };
  const items: StaticItems = {
    all: schema["items"] !== undefined || schema["unevaluatedItems"] !== undefined,
    prefix: Array.isArray(prefixItems) ? prefixItems.length : 0,
  };
  return { props, items };
}

function isEmptyProps(props: StaticProps | null): boolean {
  return props !== null && !props.all && props.names.length === 0 && props.patterns.length === 0;
}

function isEmptyItems(items: StaticItems | null): boolean {
  return items !== null && !items.all && items.prefix === 0;
}

function mergeProps(parts: readonly (StaticProps | null)[]): StaticProps | null {
  if (parts.some((part) => part === null)) return null;
  const present = parts as readonly StaticProps[];
  return {
    all: present.some((part) => part.all),
    names: [...new Set(present.flatMap((part) => part.names))],
    patterns: [...new Set(present.flatMap((part) => part.patterns))],
  };
}

function mergeItems(parts: readonly (StaticItems | null)[]): StaticItems | null {
  if (parts.some((part) => part === null)) return null;
  const present = parts as readonly StaticItems[];
  return { all: present.some((part) => part.all), prefix: Math.max(0, ...present.map((part) => part.prefix)) };
}
