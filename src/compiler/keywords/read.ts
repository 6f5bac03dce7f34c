import { escapePointerSegment } from "../../json-pointer.js";
import { isRecord, type JsonObject } from "../../json-value.js";
import { SchemaCompileError } from "../registry/errors.js";

/** Reads keyword values of one schema object, raising `SchemaCompileError` on a malformed value. */
export class KeywordReader {
  readonly schema: JsonObject;
  readonly #pointer: () => string;

  /** `pointer` names the schema in errors; it is only computed when one is raised. */
  constructor(schema: JsonObject, pointer: () => string) {
    this.schema = schema;
    this.#pointer = pointer;
  }

  has(keyword: string): boolean {
    return Object.hasOwn(this.schema, keyword) && this.schema[keyword] !== undefined;
  }

  /** Refuses the keyword's value, or with `item` the item at that index of its array. */
  fail(keyword: string, message: string, item?: number): never {
    const at = `${this.#pointer()}/${escapePointerSegment(keyword)}`;
    throw new SchemaCompileError(item === undefined ? at : `${at}/${item}`, message);
  }

  number(keyword: string): number | undefined {
    const value = this.schema[keyword];
    if (value === undefined) return undefined;
    if (typeof value !== "number" || !Number.isFinite(value))
      this.fail(keyword, `${keyword} must be a number, got ${describe(value)}`);
    return value;
  }

  /** A non-negative integer (length and count limits); `1.0` is accepted. */
  count(keyword: string): number | undefined {
    const value = this.number(keyword);
    if (value !== undefined && (!Number.isInteger(value) || value < 0)) {
      this.fail(keyword, `${keyword} must be a non-negative integer, got ${value}`);
    }
    return value;
  }

  string(keyword: string): string | undefined {
    const value = this.schema[keyword];
    if (value === undefined) return undefined;
    if (typeof value !== "string") this.fail(keyword, `${keyword} must be a string, got ${describe(value)}`);
    return value;
  }

  boolean(keyword: string): boolean | undefined {
    const value = this.schema[keyword];
    if (value === undefined) return undefined;
    if (typeof value !== "boolean") this.fail(keyword, `${keyword} must be true or false, got ${describe(value)}`);
    return value;
  }

  stringArray(keyword: string): string[] | undefined {
    const value = this.schema[keyword];
    if (value === undefined) return undefined;
    if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
      this.fail(keyword, `${keyword} must be an array of strings, got ${describe(value)}`);
    }
    return value as string[];
  }

  /** An array of subschemas (allOf, anyOf, oneOf, prefixItems). */
  schemaArray(keyword: string): unknown[] | undefined {
    const value = this.schema[keyword];
    if (value === undefined) return undefined;
    if (!Array.isArray(value) || value.length === 0) {
      this.fail(keyword, `${keyword} must be a non-empty array of schemas, got ${describe(value)}`);
    }
    return value;
  }

  /** A map of name to subschema (properties, patternProperties, dependentSchemas). */
  schemaMap(keyword: string): JsonObject | undefined {
    const value = this.schema[keyword];
    if (value === undefined) return undefined;
    if (!isRecord(value))
      this.fail(keyword, `${keyword} must be an object mapping names to schemas, got ${describe(value)}`);
    return value;
  }

  /** A single subschema (items, not, if, ...). */
  schemaValue(keyword: string): unknown {
    const value = this.schema[keyword];
    if (value !== undefined && typeof value !== "boolean" && !isRecord(value)) {
      this.fail(keyword, `${keyword} must be a schema (an object or a boolean), got ${describe(value)}`);
    }
    return value;
  }
}

/** A short description of a JSON value for messages. */
export function describe(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  if (typeof value === "object") return "an object";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${typeof value} ${text.slice(0, 37)}...` : `${typeof value} ${text}`;
}
