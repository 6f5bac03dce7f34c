/**
 * Standard Schema v1 (https://standardschema.dev) for a generated module: `schemas`, one object
 * per requested key whose `~standard.validate` runs the entry's validate function with every
 * error collected and reports `{ value }` or `{ issues: [{ message, path }] }`. Libraries that
 * take Standard Schema (tRPC, Hono, TanStack Form, form resolvers, ...) accept these objects.
 *
 * The interface's type lines are copied from @standard-schema/spec, so the module keeps no
 * dependency. The validate functions are left exactly as they are: `schemas` wraps them.
 */
import { type Code, code, ident, isIdentifier, joinCode, NEWLINE, str, tsOnly, tsSection } from "./code.js";
import type { ValidatorEntry } from "./entries.js";

/** The `vendor` of every schema: the library the validators come from. */
export const STANDARD_SCHEMA_VENDOR = "workforce-scheduling-api";

/** The `schemas` section, or undefined when no entry asks for a Standard Schema. */
export function emitStandardSchemas(entries: readonly ValidatorEntry[]): Code | undefined {
  const members = schemaMembers(entries);
  if (members.length === 0) return undefined;
  const body = joinCode(members, NEWLINE);
  return code`${tsOnly`${STANDARD_SCHEMA_TYPES}`}

${tsSection(STANDARD_SCHEMA_HELPERS)}

/**
 * Every validator as a Standard Schema v1 object, for libraries that accept one: components by
 * name (schemas.Venue), operation parts by their type's name (schemas.CreateVenueBody). Their
 * validate collects every error; it never throws.
 */
export const schemas = {
${body}
}${tsOnly` as const`};`;
}

/** One `key: $standard(validateX),` line per key, each key once. */
function schemaMembers(entries: readonly ValidatorEntry[]): Code[] {
  const seen = new Set<string>();
  const members: Code[] = [];
  for (const entry of entries) {
    for (const key of entry.standardSchemaKeys ?? []) {
      if (seen.has(key)) throw new TypeError(`Standard Schema key ${JSON.stringify(key)} is used twice`);
      seen.add(key);
      members.push(code`  ${isIdentifier(key) ? ident(key) : str(key)}: $standard(${ident(entry.name)}),`);
    }
  }
  return members;
}

const STANDARD_SCHEMA_TYPES = code`/** The Standard Schema v1 interface (types as in @standard-schema/spec). */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  /** The Standard Schema properties. */
  readonly "~standard": StandardSchemaV1.Props<Input, Output>;
}
export declare namespace StandardSchemaV1 {
  /** The Standard Schema properties interface. */
  interface Props<Input = unknown, Output = Input> {
    /** The version number of the standard. */
    readonly version: 1;
    /** The vendor name of the schema library. */
    readonly vendor: string;
    /** Validates unknown input values. */
    readonly validate: (value: unknown, options?: Options | undefined) => Result<Output> | Promise<Result<Output>>;
    /** Inferred types associated with the schema. */
    readonly types?: Types<Input, Output> | undefined;
  }
  /** The result interface of the validate function. */
  type Result<Output> = SuccessResult<Output> | FailureResult;
  /** The result interface if validation succeeds. */
  interface SuccessResult<Output> {
    readonly value: Output;
    readonly issues?: undefined;
  }
  /** The options of the validate function. */
  interface Options {
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }
  /** The result interface if validation fails. */
  interface FailureResult {
    readonly issues: ReadonlyArray<Issue>;
  }
  /** The issue interface of the failure output. */
  interface Issue {
    readonly message: string;
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }
  /** The path segment interface of the issue. */
  interface PathSegment {
    readonly key: PropertyKey;
  }
  /** The Standard types interface. */
  interface Types<Input = unknown, Output = Input> {
    readonly input: Input;
    readonly output: Output;
  }
  /** Infers the input type of a Standard Schema. */
  type InferInput<Schema extends StandardSchemaV1> = NonNullable<Schema["~standard"]["types"]>["input"];
  /** Infers the output type of a Standard Schema. */
  type InferOutput<Schema extends StandardSchemaV1> = NonNullable<Schema["~standard"]["types"]>["output"];
}`;

export const STANDARD_SCHEMA_HELPERS = code`const $ALL_ERRORS: ValidateOptions = { allErrors: true };

/** A validate function as a Standard Schema (its output type is the validator's). */
function $standard<T>(validate: (value: unknown, options?: ValidateOptions) => ValidationResult<T>): StandardSchemaV1<T, T> {
  const props: StandardSchemaV1.Props<T, T> = {
    version: 1,
    vendor: ${str(STANDARD_SCHEMA_VENDOR)},
    validate: (value) => {
      const r = validate(value, $ALL_ERRORS);
      return r.valid ? { value: r.value } : { issues: r.errors.map((error) => $issue(error, value)) };
    },
  };
  return { "~standard": props };
}

/** An error as an issue: its message without the path in front, and the path as keys (indexes in arrays). */
function $issue(error: ValidationError, value: unknown): StandardSchemaV1.Issue {
  const pointer = error.instancePath;
  if (pointer === "") return { message: error.message };
  const message = error.message.startsWith(pointer + " ") ? error.message.slice(pointer.length + 1) : error.message;
  const path: PropertyKey[] = [];
  let node: unknown = value;
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    path.push(Array.isArray(node) && /^(?:0|[1-9][0-9]*)$/.test(key) ? Number(key) : key);
    node = typeof node === "object" && node !== null ? (node as Record<string, unknown>)[key] : undefined;
  }
  return { message, path };
}`;
