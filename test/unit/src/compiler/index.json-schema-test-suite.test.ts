import { afterAll, describe, expect, it } from "vitest";
import { compileValidatorModule, type ValidatorEntry } from "../../../../src/compiler/index.js";
import { addRemotes, ajvCompile, createAjv } from "./support/ajv-oracle.js";
import { loadModule, type Validate, validatorOf } from "./support/load.js";
import {
  ANNOTATION_FORMAT_FILES,
  CORPUS_ABSENT,
  groupUri,
  loadGroups,
  loadRemotes,
  type SuiteGroup,
  selectedFiles,
  suiteAvailable,
} from "./support/suite-corpus.js";

const counts = { passed: 0, failed: 0, unsupported: new Map<string, number>() };
const available = suiteAvailable("JSON Schema Test Suite");

if (available) describeSuite();
else {
  describe("JSON Schema Test Suite draft 2020-12", () => {
    it.skip(`is absent: ${CORPUS_ABSENT}`, () => {});
  });
}

function describeSuite(): void {
  describe("JSON Schema Test Suite draft 2020-12", async () => {
    const remotes = loadRemotes();
    const ajvCounts = { passed: 0, failed: 0 };
    const ajvAll = { passed: 0, failed: 0 };
    for (const file of selectedFiles()) {
      const groups = loadGroups(file);
      const validators = await compileFile(groups, remotes);
      describe(file, () => {
        for (const group of groups) describeGroup(group, validators.get(group.index));
      });
      countAjv(groups, remotes, ajvCounts, ajvAll);
    }
    afterAll(() => {
      const unsupported = [...counts.unsupported.values()].reduce((sum, n) => sum + n, 0);
      const features = [...counts.unsupported].map(([feature, n]) => `${feature} ×${n}`).join(", ");
      console.log(
        `JSON Schema Test Suite: ${counts.passed} passed, ${counts.failed} failed, ${unsupported} not supported (${features})`,
      );
      console.log(`Ajv 2020 on the same cases: ${ajvCounts.passed} passed, ${ajvCounts.failed} failed`);
      console.log(
        `Ajv 2020 on the whole selection (unsupported groups included): ${ajvAll.passed} passed, ${ajvAll.failed} failed`,
      );
    });
  });
}

type Compiled = Validate | Error;

function describeGroup(group: SuiteGroup, validate: Compiled | undefined): void {
  describe(`${group.index}: ${group.description}`, () => {
    for (const test of group.tests) {
      if (group.unsupported !== undefined) {
        const { feature, reason } = group.unsupported;
        counts.unsupported.set(feature, (counts.unsupported.get(feature) ?? 0) + 1);
        // reported as "todo": a feature the compiler lacks, not an input this machine lacks
        it.todo(`${test.description} (not supported: ${reason})`);
        continue;
      }
      it(test.description, () => {
        if (!(validate instanceof Function)) {
          counts.failed++;
          throw validate ?? new Error("not compiled");
        }
        const verdict = validate(test.data).valid;
        if (verdict === test.valid) counts.passed++;
        else counts.failed++;
        expect(verdict).toBe(test.valid);
      });
    }
  });
}

function entryOf(group: SuiteGroup): ValidatorEntry {
  return { name: `g${group.index}`, schema: { uri: groupUri(group) } };
}

/** One module per file; groups that cannot share a module are compiled alone. */
async function compileFile(
  groups: readonly SuiteGroup[],
  remotes: Record<string, unknown>,
): Promise<Map<number, Compiled>> {
  const active = groups.filter((group) => group.unsupported === undefined);
  const result = new Map<number, Compiled>();
  try {
    const module = await loadModule(compileGroups(active, remotes));
    for (const group of active) result.set(group.index, validatorOf(module, `g${group.index}`));
    return result;
  } catch {
    for (const group of active) result.set(group.index, await compileAlone(group, remotes));
    return result;
  }
}

function compileGroups(groups: readonly SuiteGroup[], remotes: Record<string, unknown>): string {
  const resources: Record<string, unknown> = { ...remotes };
  for (const group of groups) resources[groupUri(group)] = group.schema;
  const formats = groups.some((group) => ANNOTATION_FORMAT_FILES.has(group.file)) ? "annotate" : "assert";
  return compileValidatorModule({
    document: {},
    resources,
    entries: groups.map(entryOf),
    dialect: "json-schema-2020-12",
    formats,
  });
}

async function compileAlone(group: SuiteGroup, remotes: Record<string, unknown>): Promise<Compiled> {
  try {
    return validatorOf(await loadModule(compileGroups([group], remotes)), `g${group.index}`);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** Ajv's verdicts on the same groups: `same` counts the cases we run, `all` also the unsupported groups. */
function countAjv(groups: readonly SuiteGroup[], remotes: Record<string, unknown>, same: Tally, all: Tally): void {
  let ajv = newAjv(groups[0], remotes);
  for (const group of groups) {
    let validate = ajvCompile(ajv, group.schema);
    if (validate === undefined) {
      ajv = newAjv(group, remotes);
      validate = ajvCompile(ajv, group.schema);
    }
    for (const test of group.tests) {
      const correct = ajvVerdict(validate, test.data) === test.valid;
      tally(all, correct);
      if (group.unsupported === undefined) tally(same, correct);
    }
    if (typeof group.schema === "object" && group.schema !== null) ajv.removeSchema(group.schema);
  }
}

interface Tally {
  passed: number;
  failed: number;
}

function tally(totals: Tally, correct: boolean): void {
  if (correct) totals.passed++;
  else totals.failed++;
}

function newAjv(group: SuiteGroup | undefined, remotes: Record<string, unknown>): ReturnType<typeof createAjv> {
  const ajv = createAjv({
    allFormats: true,
    validateFormats: group === undefined || !ANNOTATION_FORMAT_FILES.has(group.file),
  });
  addRemotes(ajv, remotes);
  return ajv;
}

function ajvVerdict(validate: ((data: unknown) => boolean) | undefined, data: unknown): boolean | undefined {
  try {
    return validate === undefined ? undefined : validate(data);
  } catch {
    return undefined;
  }
}
