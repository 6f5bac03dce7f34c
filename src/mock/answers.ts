import { sample as openapiSample } from "openapi-sampler";
import { resolvePointer } from "../json-pointer.js";
import { isRecord } from "../json-value.js";
import type { ApiModel, BodyContentModel, OperationModel } from "../model/types.js";
import { dialectRules, openApiDialect } from "../schema/dialect.js";
import { Choices } from "./choices.js";
import type { Sample } from "./context.js";
import { type Sampler, sequenceBody } from "./items.js";
import { SampleBuilder } from "./sample.js";
import { SchemaSource } from "./schema.js";
import type { LoadedValidator } from "./validators.js";

/** The mock answer of one operation, as data for `mock.ts`. */
export interface MockAnswerData {
  readonly status: number;
  readonly body?: unknown;
}

/** Per operation (by handler key), its mock answer; undefined when none could be built. */
export interface MockAnswerView {
  readonly method: string;
  readonly answer?: MockAnswerData;
  /** where a JSON body came from (not written out: scripts/mock-origins.ts counts them) */
  readonly origin?: BodyOrigin;
}

/** Where a JSON body came from: an example of its media type, openapi-sampler, or the project's builder. */
export type BodyOrigin = "example" | SampleOrigin;

/** How many candidates the builder may try for one body before it gives up. */
const ATTEMPTS = 48;

/**
 * The mock answers, computed once at generation time: each operation's first 2xx response, with
 * the first of these that the operation's generated response validator accepts: the examples of
 * its media type (`examples`, then `example`), data from openapi-sampler, data from the project's
 * builder (which tries other alternatives where the validator says a candidate fails). A response
 * without content answers without a body; a sequence of items (an `itemSchema`), the items of an
 * example or one built (./items.ts), which the runtime streams; another non-JSON one, its first
 * string example or "". An operation that declares no response answers 204.
 */
export function buildMockAnswers(
  model: ApiModel,
  document: unknown,
  validators: ReadonlyMap<string, LoadedValidator>,
): MockAnswerView[] {
  const source = new SchemaSource(document, dialectRules(openApiDialect(model.source.openapiVersion)));
  const samples = new SampleCache();
  return model.operations.map((operation) => ({
    method: operation.names.method,
    ...answerFor(operation, document, source, validators, samples),
  }));
}

/**
 * The validators the mock answers are checked with: those of each operation's first 2xx JSON
 * response, or of the items of one that is a sequence (and of their JSON event `data`).
 */
export function mockValidatorNames(model: ApiModel): string[] {
  return model.operations.flatMap((operation) => {
    const response = operation.responses.find((candidate) => candidate.success);
    const answered = response === undefined ? undefined : answeredContent(operation, response);
    return [answered?.validator, answered?.item, answered?.data, answered?.whole].filter((name) => name !== undefined);
  });
}

/** The content a response answers with (its JSON one, else its first), and its validators. */
function answeredContent(
  operation: OperationModel,
  response: OperationModel["responses"][number],
): { content: BodyContentModel; validator?: string; item?: string; data?: string; whole?: string } | undefined {
  const content = response.contents.find((candidate) => candidate.kind === "json") ?? response.contents[0];
  if (content === undefined) return undefined;
  const { names } = operation;
  const validator = content.kind === "json" ? names.responseValidators[response.status] : undefined;
  const item = names.itemValidators[response.status]?.[content.mediaType];
  const data = names.itemDataValidators[response.status]?.[content.mediaType];
  const whole = names.sequenceValidators[response.status]?.[content.mediaType];
  return {
    content,
    ...(validator === undefined ? {} : { validator }),
    ...(item === undefined ? {} : { item }),
    ...(data === undefined ? {} : { data }),
    ...(whole === undefined ? {} : { whole }),
  };
}

function answerFor(
  operation: OperationModel,
  document: unknown,
  source: SchemaSource,
  validators: ReadonlyMap<string, LoadedValidator>,
  samples: SampleCache,
): { answer?: MockAnswerData; origin?: BodyOrigin } {
  // an operation that declares no response allows any: it answers that it did what was asked
  if (operation.responses.length === 0) return { answer: { status: 204 } };
  const response = operation.responses.find((candidate) => candidate.success);
  if (response === undefined) return {};
  const status = /^\d{3}$/.test(response.status) ? Number(response.status) : 200;
  const answered = answeredContent(operation, response);
  if (answered === undefined) return { answer: { status } };
  const { content } = answered;
  const { sequence, itemSchemaPointer } = content;
  if (sequence !== undefined && itemSchemaPointer !== undefined) {
    const loaded = (name: string | undefined) => (name === undefined ? undefined : validators.get(name));
    const checks = { item: loaded(answered.item), data: loaded(answered.data), whole: loaded(answered.whole) };
    const sampler: Sampler = (schema, validator) => sampleData(schema, source, validator);
    const items = sequenceBody({ ...content, sequence, itemSchemaPointer }, document, source, checks, sampler);
    return items === undefined ? {} : { answer: { status, body: items.value }, origin: items.origin };
  }
  if (content.kind !== "json") return { answer: { status, body: textBody(content, document, source).value } };
  const validator = answered.validator === undefined ? undefined : validators.get(answered.validator);
  const body = jsonBody(content, document, source, validator, samples);
  return body === undefined ? {} : { answer: { status, body: body.value }, origin: body.origin };
}

function textBody(content: BodyContentModel, document: unknown, source: SchemaSource): Sample {
  const text = mediaExamples(content, document, source).find((value) => typeof value === "string");
  return { value: text ?? "" };
}

function jsonBody(
  content: BodyContentModel,
  document: unknown,
  source: SchemaSource,
  validator: LoadedValidator | undefined,
  samples: SampleCache,
): OriginSample | undefined {
  const example = mediaExamples(content, document, source).find(
    (value) => validator === undefined || validator(value).valid,
  );
  if (example !== undefined) return { value: example, origin: "example" };
  const schema = content.schemaPointer === undefined ? true : resolvePointer(document, content.schemaPointer);
  const known = samples.get(schema);
  if (known !== undefined && (validator === undefined || validator(known.value).valid)) return known;
  const sampled = sampleData(schema, source, validator);
  if (sampled !== undefined) samples.set(schema, sampled);
  return sampled;
}

/** A body and where it came from. */
type OriginSample = Sample & { readonly origin: BodyOrigin };

/**
 * The data already built for a response schema: many operations answer with the same schema (a
 * `$ref` to the same component, or the same inline schema written out again), and each takes
 * the data once its own validator accepts it, without sampling and searching again. Schemas are
 * told apart by their JSON text.
 */
class SampleCache {
  readonly #samples = new Map<string, OriginSample>();

  get(schema: unknown): OriginSample | undefined {
    return this.#samples.get(JSON.stringify(schema));
  }

  set(schema: unknown, sample: OriginSample): void {
    this.#samples.set(JSON.stringify(schema), sample);
  }
}

/** Where a sample came from: openapi-sampler, or the project's builder. */
export type SampleOrigin = "openapi-sampler" | "builder";

/**
 * Data for a schema that the validator accepts: openapi-sampler's when it passes, else the
 * builder's (steered by the validator's failures); undefined when neither finds any.
 */
export function sampleData(
  schema: unknown,
  source: SchemaSource,
  validator: LoadedValidator | undefined,
): (Sample & { readonly origin: SampleOrigin }) | undefined {
  const sampled = samplerData(schema, source.document);
  if (sampled !== undefined && (validator === undefined || validator(sampled.value).valid))
    return { ...sampled, origin: "openapi-sampler" };
  const built = guidedSample(schema, source, validator);
  return built === undefined ? undefined : { ...built, origin: "builder" };
}

/** openapi-sampler's data for the schema (writeOnly left out), if it builds any. */
function samplerData(schema: unknown, document: unknown): Sample | undefined {
  try {
    const value: unknown = openapiSample(schema as never, { skipWriteOnly: true, quiet: true }, document as never);
    return value === undefined ? undefined : { value };
  } catch {
    return undefined;
  }
}

/** The builder's data: candidates, each judged by the validator, whose failures steer the next one. */
export function guidedSample(
  schema: unknown,
  source: SchemaSource,
  validator: LoadedValidator | undefined,
): Sample | undefined {
  const choices = new Choices();
  const builder = new SampleBuilder(source, choices);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const built = builder.build(schema);
    if (built === undefined) return undefined;
    const result = validator?.(built.value, { allErrors: true });
    if (result === undefined || result.valid) return built;
    if (!choices.advance((result.errors ?? []).map((error) => error.instancePath))) return undefined;
  }
  return undefined;
}

/** The example values of a media type: each of `examples` (`dataValue` or `value`, following $refs, skipping externalValue), then `example`. */
function mediaExamples(content: BodyContentModel, document: unknown, source: SchemaSource): unknown[] {
  return exampleValues(resolvePointer(document, content.pointer), source);
}

/**
 * The example values of an object with `examples` and `example` (a Media Type or a Parameter
 * Object): each of `examples` (following $refs, skipping externalValue), then `example`.
 */
export function exampleValues(node: unknown, source: SchemaSource): unknown[] {
  if (!isRecord(node)) return [];
  const examples = isRecord(node["examples"]) ? Object.values(node["examples"]) : [];
  const values = examples.flatMap((example) => {
    const resolved = isRecord(example) && typeof example["$ref"] === "string" ? source.deref(example["$ref"]) : example;
    // OpenAPI 3.2's `dataValue` is the example as data; `value`, before it, the same
    if (isRecord(resolved) && Object.hasOwn(resolved, "dataValue")) return [resolved["dataValue"]];
    return isRecord(resolved) && Object.hasOwn(resolved, "value") ? [resolved["value"]] : [];
  });
  return node["example"] === undefined ? values : [...values, node["example"]];
}
