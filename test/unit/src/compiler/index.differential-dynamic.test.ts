/**
 * The generated validators against Ajv 2020 on the schemas of `$dynamicRef`, `$vocabulary` and
 * the 2020-12 meta-schema: the JSON Schema Test Suite's groups of those features, each run on its
 * cases and on random edits of them. Ajv implements `$dynamicRef` only in part (a `$dynamicRef`
 * must be a bare "#name" fragment, and a `$dynamicAnchor` binds only at the root of the schema it
 * compiles), so where Ajv gets a group's own suite cases wrong, or refuses its schema, the group is
 * listed as beyond Ajv with the count, and the suite alone judges it; everywhere else both must
 * agree on every instance.
 */
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { compileValidatorModule } from "../../../../src/compiler/index.js";
import { addRemotes, ajvCompile, createAjv } from "./support/ajv-oracle.js";
import { loadModule, validatorOf } from "./support/load.js";
import { withMutations } from "./support/mutations.js";
import {
  CORPUS_ABSENT,
  groupUri,
  loadGroups,
  loadRemotes,
  type SuiteGroup,
  suiteAvailable,
} from "./support/suite-corpus.js";

const RUNS = 60;

/** The suite's groups of the features: dynamicRef.json, vocabulary.json, and the groups of other files that use them. */
function focusGroups(): SuiteGroup[] {
  const uses = (group: SuiteGroup): boolean =>
    /"\$dynamic(Ref|Anchor)"|"\$ref":"https:\/\/json-schema\.org\/draft\/2020-12\/schema"/.test(
      JSON.stringify(group.schema),
    );
  return [
    ...loadGroups("dynamicRef.json"),
    ...loadGroups("vocabulary.json"),
    ...["defs.json", "ref.json", "unevaluatedItems.json", "unevaluatedProperties.json"].flatMap((file) =>
      loadGroups(file).filter(uses),
    ),
  ];
}

/** Ajv's verdict per instance; undefined where it throws (its stack overflows on some recursive dynamic scopes). */
function ajvVerdicts(
  validate: ((data: unknown) => boolean) | undefined,
): ((data: unknown) => boolean | undefined) | undefined {
  if (validate === undefined) return undefined;
  return (data) => {
    try {
      return validate(data);
    } catch {
      return undefined;
    }
  };
}

const beyondAjv: string[] = [];
const totals = { groups: 0, compared: 0, instances: 0 };

if (!suiteAvailable("the differential test on $dynamicRef")) {
  describe("generated validators agree with Ajv 2020 on $dynamicRef, $vocabulary and the meta-schema", () => {
    it.skip(`is absent: ${CORPUS_ABSENT}`, () => {});
  });
} else {
  describe("generated validators agree with Ajv 2020 on $dynamicRef, $vocabulary and the meta-schema", () => {
    const remotes = loadRemotes();
    for (const group of focusGroups()) {
      it(`${group.file} ${group.index}: ${group.description}`, async () => {
        totals.groups++;
        const resources = { ...remotes, [groupUri(group)]: group.schema };
        const source = compileValidatorModule({
          document: {},
          resources,
          entries: [{ name: "validate", schema: { uri: groupUri(group) } }],
          dialect: "json-schema-2020-12",
        });
        const ours = validatorOf(await loadModule(source), "validate");
        for (const test of group.tests) expect(ours(test.data).valid, test.description).toBe(test.valid);
        const ajv = createAjv({ allFormats: true });
        addRemotes(ajv, remotes);
        const theirs = ajvVerdicts(ajvCompile(ajv, group.schema));
        const wrong = group.tests.filter((test) => theirs?.(test.data) !== test.valid).length;
        if (theirs === undefined || wrong > 0) {
          const why =
            theirs === undefined
              ? "Ajv refuses the schema"
              : `Ajv wrong (or overflowing its stack) on ${wrong} of ${group.tests.length} suite cases`;
          beyondAjv.push(`${group.file} ${group.index} (${group.description}): ${why}`);
          return;
        }
        totals.compared++;
        const instances = fc.sample(withMutations(fc.constantFrom(...group.tests.map((test) => test.data))), {
          numRuns: RUNS,
          seed: 104729 + group.index,
        });
        for (const instance of instances) {
          totals.instances++;
          expect(ours(instance).valid, JSON.stringify(instance)).toBe(theirs(instance));
        }
      });
    }
    it("compares the groups Ajv handles, and states the others", () => {
      expect(totals.compared).toBeGreaterThan(0);
      expect(totals.compared + beyondAjv.length).toBe(totals.groups);
    });
    afterAll(() => {
      console.log(
        `Differential vs Ajv on $dynamicRef, $vocabulary and the meta-schema: ${totals.groups} groups, ${totals.compared} compared on ${totals.instances} instances; beyond Ajv (${beyondAjv.length}):`,
      );
      for (const line of beyondAjv) console.log(`  ${line}`);
    });
  });
}
