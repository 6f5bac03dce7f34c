import { resolvePointer } from "../../json-pointer.js";
import type { ApiModel, BodyContentModel, OperationModel } from "../../model/types.js";
import { SchemaChecker } from "./mock-check.js";
import { isPlainObject } from "./mock-keywords.js";
import { SampleBuilder, type Sample } from "./mock-sample.js";

/** The mock answer of one operation, as data for `mock.ts`. */
export interface MockAnswerData {
  readonly status: number;
  readonly body?: unknown;
}

/** Per operation (by handler key), its mock answer; undefined when none could be built. */
export interface MockAnswerView {
  readonly method: string;
  readonly answer?: MockAnswerData;
}

/**
 * The mock answers, computed once at generation time: each operation's first 2xx response, with
 * the first example of its media type (`examples`, then `example`) that is valid against the
 * response schema, else the schema's own examples, `default`, `const` or `enum`, else data built
 * from the schema. A response without content answers without a body.
 */
export function buildMockAnswers(model: ApiModel, document: unknown): MockAnswerView[] {
  const checker = new SchemaChecker(document, model.source.openapiVersion === "3.0");
  const builder = new SampleBuilder(checker);
  return model.operations.map((operation) => {
    const answer = answerFor(operation, document, checker, builder);
    return answer === undefined ? { method: operation.names.method } : { method: operation.names.method, answer };
  });
}

function answerFor(operation: OperationModel, document: unknown, checker: SchemaChecker, builder: SampleBuilder): MockAnswerData | undefined {
  const response = operation.responses.find((candidate) => candidate.success);
  if (response === undefined) return undefined;
  const status = /^\d{3}$/.test(response.status) ? Number(response.status) : 200;
  if (response.contents.length === 0) return { status };
  const content = response.contents.find((candidate) => candidate.kind === "json") ?? response.contents[0];
  const body = content === undefined ? undefined : bodyFor(content, document, checker, builder);
  return body === undefined ? undefined : { status, body: body.value };
}

function bodyFor(content: BodyContentModel, document: unknown, checker: SchemaChecker, builder: SampleBuilder): Sample | undefined {
  const schema = content.schemaPointer === undefined ? true : resolvePointer(document, content.schemaPointer);
  const wantsText = content.kind !== "json";
  const usable = (value: unknown): boolean => (wantsText ? typeof value === "string" : true) && checker.conforms(schema, value);
  const example = mediaExamples(content, document, checker).find(usable);
  if (example !== undefined) return { value: example };
  const built = builder.build(schema);
  if (built !== undefined && (!wantsText || typeof built.value === "string")) return built;
  return wantsText ? { value: "" } : undefined;
}

/** The example values of a media type: each of `examples` (following $refs, skipping externalValue), then `example`. */
function mediaExamples(content: BodyContentModel, document: unknown, checker: SchemaChecker): unknown[] {
  const media = resolvePointer(document, content.pointer);
  if (!isPlainObject(media)) return [];
  const examples = isPlainObject(media["examples"]) ? Object.values(media["examples"]) : [];
  const values = examples.flatMap((example) => {
    const resolved = isPlainObject(example) && typeof example["$ref"] === "string" ? checker.deref(example["$ref"]) : example;
    return isPlainObject(resolved) && Object.hasOwn(resolved, "value") ? [resolved["value"]] : [];
  });
  return media["example"] === undefined ? values : [...values, media["example"]];
}
