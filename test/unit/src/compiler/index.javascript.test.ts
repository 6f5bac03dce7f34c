/**
 * The compiler's JavaScript output (what the generator checks mock data with, the runtime's helper
 * functions bound to the names it calls) is its TypeScript output without the types: on the
 * spec's validators and the fixtures', both verdicts and both error lists agree on examples and
 * thousands of random, mutated instances.
 */
import fc from "fast-check";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import * as helpers from "../../../../runtime/validators/helpers/index.js";
import { compileModelValidators } from "../../../../src/emit/validators/compile-model.js";
import { buildModel, loadSpec } from "../../../../src/index.js";
import { loadValidators } from "../../../../src/mock/validators.js";
import { schemaArbitrary } from "./support/arbitrary.js";
import { loadModule, validatorOf } from "./support/load.js";
import { withMutations } from "./support/mutations.js";

const SPECS = [
  "spec/openapi.yaml",
  "test/fixtures/discriminator/openapi.yaml",
  "test/fixtures/recursion/openapi.yaml",
  "test/fixtures/nullable/openapi.yaml",
  "test/fixtures/parameters/openapi.yaml",
  "test/fixtures/read-write/openapi.yaml",
];

/** A spec's model and its validators, compiled as the generator compiles them; samples of a schema. */
async function compiledFor(spec: string) {
  const loaded = await loadSpec(spec);
  const { model } = buildModel(loaded, spec);
  const compiled = compileModelValidators(model, loaded.document, "assert");
  const context = { document: loaded.document, formatSamples: {}, maxDepth: 4, cache: new Map() };
  const samples = (pointer: string, seed: number, numRuns: number): unknown[] =>
    fc.sample(withMutations(schemaArbitrary({ $ref: pointer }, context)), { seed, numRuns });
  return { model, compiled, samples };
}

describe("JavaScript output", () => {
  it.each(SPECS)("%s: same verdicts and errors as the TypeScript output", async (spec) => {
    const { model, compiled, samples } = await compiledFor(spec);
    const fromJs = loadValidators(compiled.javascript());
    const fromTs = await loadModule(compiled.typescript().replace(/^import type .*$|^export type .*$/gm, ""));
    expect([...fromJs.keys()].sort()).toEqual(
      Object.keys(fromTs)
        .filter((key) => typeof fromTs[key] === "function")
        .sort(),
    );
    for (const schema of model.schemas) {
      const js = fromJs.get(schema.validatorName);
      const ts = validatorOf(fromTs, schema.validatorName);
      for (const value of samples(schema.pointer, 7, 60))
        expect(js?.(value, { allErrors: true })).toEqual(ts(value, { allErrors: true }));
    }
  });
});

describe("a part of the JavaScript output (what the mock loads)", () => {
  it.each(SPECS)("%s: each entry alone, with what it uses, validates as the whole module does", async (spec) => {
    const { model, compiled, samples } = await compiledFor(spec);
    const whole = loadValidators(compiled.javascript());
    const entries = [...whole.keys()].filter((name) => name.startsWith("validate"));
    expect(entries.length).toBeGreaterThan(0);
    const parts = new Map(entries.map((name) => [name, compiled.javascript([name])]));
    for (const [name, text] of parts) {
      const part = loadValidators(text);
      expect([...part.keys()].filter((key) => key.startsWith("validate"))).toEqual([name]);
      const schema = model.schemas.find((candidate) => candidate.validatorName === name);
      if (schema === undefined) continue;
      for (const value of samples(schema.pointer, 11, 25)) {
        expect(part.get(name)?.(value, { allErrors: true })).toEqual(whole.get(name)?.(value, { allErrors: true }));
      }
    }
    // every name a part's code uses is declared in it or is a helper: TypeScript finds none missing
    const unresolved = missingNames(parts);
    expect(unresolved).toEqual([]);
    expect(Math.max(...[...parts.values()].map((text) => text.length))).toBeLessThan(compiled.javascript().length);
  });

  it("names the entries it does not have", async () => {
    const { compiled } = await compiledFor("spec/openapi.yaml");
    expect(() => compiled.javascript(["validateNothing"])).toThrow(/no entry named validateNothing/);
  });
});

/**
 * The module-level names (the compiler's start with "$") that the modules use without declaring
 * them and that are not the runtime's helpers, found by TypeScript checking them as JavaScript
 * (without the standard library, whose names are not the question).
 */
function missingNames(modules: ReadonlyMap<string, string>): string[] {
  const bound = Object.keys(helpers).filter((name) => name.startsWith("$"));
  const files = new Map([...modules].map(([name, text]) => [`/${name}.js`, text]));
  files.set("/helpers.d.ts", bound.map((name) => `declare const ${name}: any;`).join("\n"));
  const options = { allowJs: true, checkJs: true, noEmit: true, noLib: true, types: [] };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (file) => files.get(file) ?? readFile(file);
  host.fileExists = (file) => files.has(file) || fileExists(file);
  const program = ts.createProgram({ rootNames: [...files.keys()], options, host });
  return ts
    .getPreEmitDiagnostics(program)
    .filter((diagnostic) => diagnostic.code === 2304 || diagnostic.code === 2552)
    .map(
      (diagnostic) => `${diagnostic.file?.fileName}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, " ")}`,
    )
    .filter((message) => message.includes("Cannot find name '$"));
}
