/**
 * The floors hold (test/architecture/layers/floors.ts): every relative import of a module of `runtime/`, `src/`,
 * `sandbox/`, `bench/` and `scripts/` names a module that exists, of its own unit or of a unit on
 * a lower floor; the units import one another in no circle; and where modules import one another
 * in a circle, the circle stays inside one folder (the compiler's modules are in none: its keywords
 * reach the dispatcher through their context, its indexer and tree name the registry by an interface). A failure names the module, the import and the rule it breaks.
 */
import { describe, expect, it } from "vitest";
import { cyclesOf, graphOf, type Import, importsIn, importsOf, modulesUnder } from "../../support/imports.js";
import { FLOORS } from "./floors.js";

const CHECKED = ["runtime", "src", "sandbox", "bench", "scripts"];

/** Each unit's floor (its index in FLOORS). */
const FLOOR_OF = new Map(FLOORS.flatMap((units, floor) => units.map((unit) => [unit, floor] as const)));

/** The unit a module belongs to: the longest unit that holds it, if any. */
function unitOf(module: string): string | undefined {
  let best: string | undefined;
  for (const unit of FLOOR_OF.keys()) {
    const holds = module === unit || module.startsWith(`${unit}/`);
    if (holds && (best === undefined || unit.length > best.length)) best = unit;
  }
  return best;
}

/** What is wrong with one import, as a line naming the module, the import and the rule; undefined when nothing is. */
function breach({ from, specifier, to }: Import): string | undefined {
  const where = `${from} imports "${specifier}"`;
  if (to === undefined) return `${where}, which names no module of the repository`;
  const own = unitOf(from);
  const target = unitOf(to);
  if (own === undefined)
    return `${where}, but ${from} is on no floor: add its folder to test/architecture/layers/floors.ts`;
  if (target === undefined)
    return `${where} (${to}), which is on no floor: add its folder to test/architecture/layers/floors.ts`;
  if (own === target) return undefined;
  const ownFloor = FLOOR_OF.get(own) ?? 0;
  const targetFloor = FLOOR_OF.get(target) ?? 0;
  if (targetFloor < ownFloor) return undefined;
  const rule =
    targetFloor === ownFloor
      ? `${own} and ${target} stand side by side on one floor, and neither imports the other`
      : `${target} is on a floor above ${own}'s, and a module imports only from its own floor's unit or below`;
  return `${where} (${to}): ${rule}`;
}

/** The folder of a module ("src/compiler/keywords" of "src/compiler/keywords/node.ts"). */
function folderOf(module: string): string {
  return module.slice(0, module.lastIndexOf("/"));
}

describe("the floors", () => {
  const modules = CHECKED.flatMap((folder) => modulesUnder(folder));
  const imports = importsOf(modules);

  it("reads every module of the folders it checks, and their imports", () => {
    expect(modules.filter((module) => module.startsWith("runtime/")).length).toBeGreaterThan(40);
    expect(modules.filter((module) => module.startsWith("src/compiler/keywords/")).length).toBeGreaterThan(10);
    expect(imports.length).toBeGreaterThan(1000);
  });

  it("has each module import only from its own unit or a floor below", () => {
    expect(imports.flatMap((line) => breach(line) ?? [])).toEqual([]);
  });

  it("has the units import one another in no circle", () => {
    const units = graphOf(imports, (module) => unitOf(module) ?? module);
    expect(cyclesOf(units).map((circle) => `the units ${circle.join(", ")} import one another in a circle`)).toEqual(
      [],
    );
  });

  it("keeps every circle of modules inside one folder, and the compiler's and the mock's modules in none", () => {
    const circles = cyclesOf(graphOf(imports, (module) => module));
    const across = circles.filter((circle) => new Set(circle.map(folderOf)).size > 1);
    expect(across.map((circle) => `${circle.join(", ")} import one another across folders`)).toEqual([]);
    const compiler = circles.filter((circle) =>
      circle.some((module) => module.startsWith("src/compiler/") || module.startsWith("src/mock/")),
    );
    expect(compiler.map((circle) => `${circle.join(", ")} import one another in a circle`)).toEqual([]);
  });

  it("names every unit of the table once, and only units that exist", () => {
    const units = FLOORS.flat();
    expect(units.length).toBe(new Set(units).size);
    const unknown = units.filter((unit) => !modules.some((module) => module === unit || module.startsWith(`${unit}/`)));
    // generated/ and the tests' folders are not checked as importers, only as what bench/ and scripts/ import
    expect(unknown.filter((unit) => !unit.startsWith("generated") && !unit.startsWith("test/"))).toEqual([]);
  });

  it("sees the faults it looks for", () => {
    // the rules above, on imports that break them: a rule that can never fail fails here
    const read = (from: string, text: string) => importsIn(from, text).map((line) => breach(line));
    expect(read("src/compiler/keywords/node.ts", 'import { compileFunction } from "../module/function.js";')).toEqual([
      "src/compiler/keywords/node.ts imports \"../module/function.js\" (src/compiler/module/function.ts): src/compiler/module is on a floor above src/compiler/keywords's, and a module imports only from its own floor's unit or below",
    ]);
    expect(read("runtime/client/auth.ts", 'import type { Route } from "../../src/model/types.js";')[0]).toContain(
      "src/model is on a floor above runtime/client's",
    );
    expect(read("runtime/client/auth.ts", 'import { x } from "../server/runtime/core.js";')[0]).toContain(
      "runtime/client and runtime/server/runtime stand side by side on one floor",
    );
    expect(read("runtime/client/auth.ts", 'export * from "../routes.js";')).toEqual([
      'runtime/client/auth.ts imports "../routes.js", which names no module of the repository',
    ]);
    expect(read("src/model/bodies.ts", 'import { isRecord } from "../json-value.js";')).toEqual([undefined]);
    // text of generated code inside a template string is not an import
    expect(read("src/emit/literal.ts", 'const text = `import { a } from "../nowhere.js";`;')).toEqual([]);
    const circle = new Map([
      ["a", new Set(["b"])],
      ["b", new Set(["c"])],
      ["c", new Set(["a"])],
      ["d", new Set(["a"])],
    ]);
    expect(cyclesOf(circle)).toEqual([["a", "b", "c"]]);
  });
});
