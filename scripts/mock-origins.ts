/**
 * `npx tsx scripts/mock-origins.ts SPEC...`: where the mock's JSON answers come from, per document
 * and in all: an example of the media type, openapi-sampler, or the project's builder, or none
 * (the operation answers 501). With `--alone`, also whether each sampler alone would have found
 * valid data for the answers that are not examples, which is what deciding to keep both rests on.
 */
import { sample as openapiSample } from "openapi-sampler";
import { compileModelValidators } from "../src/emit/validators/compile-model.js";
import { buildModel, loadSpec } from "../src/index.js";
import { resolvePointer } from "../src/json-pointer.js";
import { buildMockAnswers, guidedSample, mockValidatorNames } from "../src/mock/answers.js";
import { SchemaSource } from "../src/mock/schema.js";
import { loadValidators } from "../src/mock/validators.js";
import { dialectRules, openApiDialect } from "../src/schema/dialect.js";

const alone = process.argv.includes("--alone");
const specs = process.argv.slice(2).filter((arg) => arg !== "--alone");
const total = new Map<string, number>();
const count = (counts: Map<string, number>, key: string): void => void counts.set(key, (counts.get(key) ?? 0) + 1);

for (const spec of specs) {
  const loaded = await loadSpec(spec).catch(() => undefined);
  if (loaded === undefined) {
    console.log(`${spec}: does not load`);
    continue;
  }
  const { model } = buildModel(loaded, spec);
  const validators = loadValidators(
    compileModelValidators(model, loaded.document, "assert").javascript(mockValidatorNames(model)),
  );
  const source = new SchemaSource(loaded.document, dialectRules(openApiDialect(model.source.openapiVersion)));
  const counts = new Map<string, number>();
  for (const [index, view] of buildMockAnswers(model, loaded.document, validators).entries()) {
    const operation = model.operations[index];
    const response = operation?.responses.find((candidate) => candidate.success);
    const content = response?.contents.find((candidate) => candidate.kind === "json");
    if (operation === undefined || response === undefined || content === undefined) continue;
    count(counts, view.origin ?? "none");
    if (!alone || view.origin === "example") continue;
    const validator = validators.get(operation.names.responseValidators[response.status] ?? "");
    const schema = content.schemaPointer === undefined ? true : resolvePointer(loaded.document, content.schemaPointer);
    const sampler = samplerAccepts(schema, loaded.document, validator);
    const builder = guidedSample(schema, source, validator) !== undefined;
    count(
      counts,
      sampler && builder
        ? "alone: both"
        : sampler
          ? "alone: openapi-sampler only"
          : builder
            ? "alone: builder only"
            : "alone: neither",
    );
  }
  console.log(`${spec}: ${[...counts].map(([key, n]) => `${key} ${n}`).join(", ")}`);
  for (const [key, n] of counts) total.set(key, (total.get(key) ?? 0) + n);
}
console.log(`all: ${[...total].map(([key, n]) => `${key} ${n}`).join(", ")}`);

function samplerAccepts(
  schema: unknown,
  document: unknown,
  validator: ((value: unknown) => { valid: boolean }) | undefined,
): boolean {
  try {
    const value: unknown = openapiSample(schema as never, { skipWriteOnly: true, quiet: true }, document as never);
    return value !== undefined && (validator === undefined || validator(value).valid);
  } catch {
    return false;
  }
}
