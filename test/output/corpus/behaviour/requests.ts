/**
 * A request for each operation of a generated package, built from the document's own examples or,
 * where it has none that its validators accept, from sample values (openapi-sampler's, then the
 * generator's builder, steered by the validator's failures, as the mock's answers are): the path,
 * the required query, header and cookie parameters, and a body in the first media type the
 * operation takes.
 */
import { sample as openapiSample } from "openapi-sampler";
import { resolvePointer } from "../../../../src/json-pointer.js";
import { isRecord } from "../../../../src/json-value.js";
import { exampleValues, guidedSample } from "../../../../src/mock/answers.js";
import { Choices } from "../../../../src/mock/choices.js";
import { SampleBuilder } from "../../../../src/mock/sample.js";
import type { SchemaSource } from "../../../../src/mock/schema.js";
import type { LoadedValidator } from "../../../../src/mock/validators.js";
import type { BodyContentModel, OperationModel, ParameterModel } from "../../../../src/model/types.js";

/** A generated validator, as the validators module exports it. */
export type Validator = LoadedValidator;

/** What building requests reads: the bundled document's schemas, and the generated validators by name. */
export interface RequestSources {
  readonly source: SchemaSource;
  readonly validators: Readonly<Record<string, Validator | undefined>>;
}

/** The first argument of a client method. */
export interface CallArgs {
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
  headers?: Record<string, unknown>;
  cookies?: Record<string, unknown>;
  body?: unknown;
  contentType?: string;
}

/** The arguments of one call, or why none could be built (a part no value passes its validator). */
export type BuiltCall = { readonly args: CallArgs } | { readonly unbuilt: string };

const LOCATIONS = [
  ["path", "path", "pathParamsValidator"],
  ["query", "query", "queryValidator"],
  ["header", "headers", "headersValidator"],
  ["cookie", "cookies", "cookiesValidator"],
] as const;

/** The arguments of a call to `operation` that its own request validators accept. */
export function buildCall(operation: OperationModel, sources: RequestSources): BuiltCall {
  const args: CallArgs = {};
  for (const [location, key, validatorName] of LOCATIONS) {
    const parameters = operation.parameters[location].filter((parameter) => parameter.required);
    if (parameters.length === 0) continue;
    const validator = validatorOf(sources, operation.names[validatorName]);
    const values = parameterValues(parameters, sources, validator);
    if (values === undefined) return { unbuilt: `no ${location} parameters pass ${operation.names[validatorName]}` };
    args[key] = values;
  }
  const content = bodyContent(operation);
  if (content === undefined) return { args };
  const body = bodyValue(content, sources, validatorOf(sources, operation.names.bodyValidators[content.mediaType]));
  if (body === undefined) return { unbuilt: `no ${content.mediaType} body passes its validator` };
  return { args: { ...args, body: body.value, contentType: content.mediaType } };
}

function validatorOf(sources: RequestSources, name: string | undefined): Validator | undefined {
  return name === undefined ? undefined : sources.validators[name];
}

/** The parameters of one location as an object: their examples where every one has one that passes, else samples. */
function parameterValues(
  parameters: readonly ParameterModel[],
  sources: RequestSources,
  validator: Validator | undefined,
): Record<string, unknown> | undefined {
  const document = sources.source.document;
  const examples = parameters.map((parameter) => [
    parameter.name,
    exampleValues(resolvePointer(document, parameter.pointer), sources.source)[0],
  ]);
  const fromExamples = Object.fromEntries(examples);
  if (examples.every(([, value]) => value !== undefined) && accepts(validator, fromExamples)) return fromExamples;
  const schema = {
    type: "object",
    required: parameters.map((parameter) => parameter.name),
    properties: Object.fromEntries(
      parameters.map((parameter) => [parameter.name, schemaAt(document, parameter.schemaPointer)]),
    ),
  };
  const sampled = sampleFor(schema, sources, validator);
  return isRecord(sampled) ? sampled : undefined;
}

/** The media type a call sends: the first JSON one, else the first the operation takes. */
function bodyContent(operation: OperationModel): BodyContentModel | undefined {
  const contents = operation.requestBody?.contents ?? [];
  return contents.find((content) => content.kind === "json") ?? contents[0];
}

function bodyValue(
  content: BodyContentModel,
  sources: RequestSources,
  validator: Validator | undefined,
): { value: unknown } | undefined {
  const document = sources.source.document;
  const example = exampleValues(resolvePointer(document, content.pointer), sources.source).find((value) =>
    accepts(validator, value),
  );
  if (example !== undefined && content.kind !== "binary") return { value: withFiles(content, example) };
  if (content.kind === "binary") return { value: new Uint8Array([1, 2, 3]) };
  const sampled = sampleFor(schemaAt(document, content.schemaPointer), sources, validator);
  if (sampled === undefined) return content.schemaPointer === undefined ? { value: "" } : undefined;
  return { value: withFiles(content, sampled) };
}

/** A multipart or form body with bytes in its file fields, as a client sends files. */
function withFiles(content: BodyContentModel, value: unknown): unknown {
  if (content.binaryFields.length === 0 || !isRecord(value)) return value;
  const bytes = new Uint8Array([1, 2, 3]);
  return {
    ...value,
    ...Object.fromEntries(content.binaryFields.map((name) => [name, Array.isArray(value[name]) ? [bytes] : bytes])),
  };
}

function schemaAt(document: unknown, pointer: string | undefined): unknown {
  return pointer === undefined ? {} : (resolvePointer(document, pointer) ?? {});
}

function accepts(validator: Validator | undefined, value: unknown): boolean {
  return validator === undefined || validator(value).valid;
}

/** openapi-sampler's value for a request (readOnly left out) when the validator takes it, else the builder's. */
function sampleFor(schema: unknown, sources: RequestSources, validator: Validator | undefined): unknown {
  try {
    const sampled: unknown = openapiSample(
      schema as never,
      { skipReadOnly: true, quiet: true },
      sources.source.document as never,
    );
    if (sampled !== undefined && accepts(validator, sampled)) return sampled;
  } catch {
    // the builder below tries
  }
  return guidedSample(schema, sources.source, validator)?.value;
}

/** How many bodies the builder may try for one alternative the proxy asks for. */
const ATTEMPTS = 48;

/**
 * Other bodies for an operation, after the proxy refused one: the generator's builder goes on to
 * another alternative at the places the proxy named (a oneOf branch, an optional property), and
 * gives the next body the operation's own validator accepts; undefined when none is left.
 */
export class BodyAlternatives {
  readonly #choices = new Choices();
  readonly #builder: SampleBuilder;
  readonly #schema: unknown;
  readonly #content: BodyContentModel | undefined;
  readonly #validator: Validator | undefined;
  #started = false;

  constructor(operation: OperationModel, sources: RequestSources) {
    this.#content = bodyContent(operation);
    this.#builder = new SampleBuilder(sources.source, this.#choices);
    this.#schema = schemaAt(sources.source.document, this.#content?.schemaPointer);
    const name = this.#content === undefined ? undefined : operation.names.bodyValidators[this.#content.mediaType];
    this.#validator = validatorOf(sources, name);
  }

  /**
   * The next body after one refused at these instance paths ("" for the body itself): the
   * builder's first, then each after it moved on from where the last one was refused.
   */
  next(failedAt: readonly string[]): { value: unknown } | undefined {
    const content = this.#content;
    if (content === undefined || content.kind === "binary" || content.schemaPointer === undefined) return undefined;
    if (this.#started && !this.#choices.advance(failedAt)) return undefined;
    this.#started = true;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const built = this.#builder.build(this.#schema);
      if (built === undefined) return undefined;
      const result = this.#validator?.(built.value, { allErrors: true });
      if (result === undefined || result.valid) return { value: withFiles(content, built.value) };
      const paths = (result.errors ?? []).map((error) => error.instancePath);
      if (!this.#choices.advance(paths)) return undefined;
    }
    return undefined;
  }
}
