import { resolvePointer, unescapePointerSegment } from "../../json-pointer.js";
import { isRecord } from "../../json-value.js";

type Schema = Record<string, unknown>;

/** Keywords that only describe: a `$ref` with nothing else beside it is just its target. */
const ANNOTATIONS = new Set(["$ref", "description", "title", "summary", "$comment", "deprecated", "externalDocs", "xml", "x-unbounded"]);
const COMPONENTS = "#/components/schemas/";

/** What building sample data needs to know of the document's schemas (it checks nothing). */
export class SchemaSource {
  readonly #document: unknown;
  readonly #discriminators = new WeakMap<object, ReadonlyMap<string, unknown>>();

  constructor(document: unknown) {
    this.#document = document;
  }

  /** The schema a local `$ref` points at. */
  deref(ref: string): unknown {
    return ref.startsWith("#") ? resolvePointer(this.#document, ref) : undefined;
  }

  /**
   * The schema a `$ref` stands for: its target, or its target together with the keywords beside
   * it (an allOf); the schema itself when it has no `$ref`; undefined when the reference does not resolve.
   */
  resolveRefs(schema: unknown): unknown {
    if (!isRecord(schema) || typeof schema["$ref"] !== "string") return schema;
    const target = this.deref(schema["$ref"]);
    if (target === undefined) return undefined;
    const siblings = Object.fromEntries(Object.entries(schema).filter(([key]) => !ANNOTATIONS.has(key)));
    return Object.keys(siblings).length === 0 ? target : { allOf: [target, siblings] };
  }

  /** Whether a property schema (following $refs) is writeOnly, so absent from responses. */
  isWriteOnly(schema: unknown): boolean {
    let current = schema;
    for (let hops = 0; hops < 32 && isRecord(current); hops++) {
      if (current["writeOnly"] === true) return true;
      const ref = current["$ref"];
      if (typeof ref !== "string") return false;
      current = this.deref(ref);
    }
    return false;
  }

  /** Tag values of an OpenAPI discriminator and the schema each selects: the mapping, then component names of $ref branches. */
  discriminatorCases(schema: Schema): ReadonlyMap<string, unknown> {
    const known = this.#discriminators.get(schema);
    if (known !== undefined) return known;
    const cases = explicitCases(schema["discriminator"]);
    const mapped = new Set([...cases.values()].map((target) => (target as { $ref: string }).$ref));
    const branches = (Array.isArray(schema["oneOf"]) ? schema["oneOf"] : Array.isArray(schema["anyOf"]) ? schema["anyOf"] : []) as unknown[];
    for (const branch of branches) {
      const ref = isRecord(branch) ? branch["$ref"] : undefined;
      if (typeof ref !== "string" || mapped.has(ref) || !ref.startsWith(COMPONENTS)) continue;
      const token = ref.slice(COMPONENTS.length);
      const tag = unescapePointerSegment(token);
      if (!token.includes("/") && !cases.has(tag)) cases.set(tag, branch);
    }
    this.#discriminators.set(schema, cases);
    return cases;
  }
}

/** The discriminator's mapping: tag → { $ref } (a bare name means a component schema). */
function explicitCases(discriminator: unknown): Map<string, unknown> {
  const mapping = isRecord(discriminator) && isRecord(discriminator["mapping"]) ? discriminator["mapping"] : {};
  const cases = new Map<string, unknown>();
  for (const [tag, target] of Object.entries(mapping)) {
    if (typeof target === "string") cases.set(tag, { $ref: target.includes("/") || target.includes("#") ? target : `${COMPONENTS}${target}` });
  }
  return cases;
}
