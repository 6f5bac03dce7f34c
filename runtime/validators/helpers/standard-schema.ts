/**
 * Standard Schema v1 (https://standardschema.dev) for a validator module: `$standard` wraps a
 * validate function in an object whose `~standard.validate` runs it with every error collected and
 * reports `{ value }` or `{ issues: [{ message, path }] }`. Libraries that take Standard Schema
 * (tRPC, Hono, TanStack Form, form resolvers, ...) accept these objects.
 *
 * The interface's type lines are copied from @standard-schema/spec, so a module keeps no
 * dependency. A module that asks for Standard Schema objects holds the whole of this file.
 */
import type { ValidateOptions, ValidationError, ValidationResult } from "../types.js";

/** The Standard Schema v1 interface (types as in @standard-schema/spec). */
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
}

const $ALL_ERRORS: ValidateOptions = { allErrors: true };

/** A validate function as a Standard Schema (its output type is the validator's). */
export function $standard<T>(validate: (value: unknown, options?: ValidateOptions) => ValidationResult<T>): StandardSchemaV1<T, T> {
  const props: StandardSchemaV1.Props<T, T> = {
    version: 1,
    vendor: "workforce-scheduling-api",
    validate: (value) => {
      const r = validate(value, $ALL_ERRORS);
      return r.valid ? { value: r.value } : { issues: r.errors.map((error) => $issue(error, value)) };
    },
  };
  return { "~standard": props };
}

/** An error as an issue: its message without the path in front, and the path as keys (indexes in arrays). */
export function $issue(error: ValidationError, value: unknown): StandardSchemaV1.Issue {
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
}
