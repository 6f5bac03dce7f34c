import { readDiscriminator } from "../../schema/discriminator.js";
import { Block, type Code, code, num, str, tsOnly } from "../code/code.js";
import { compileBranch } from "./branch.js";
import { compileSubschema, inPlace, type ObjectNodeCtx, readerOf } from "./context.js";
import { compileDiscriminated } from "./discriminator.js";
import { failWith, params } from "./fail.js";

/** The messages of the keywords compiled here, written at generation time (see wording.ts). */
const messages = {
  anyOf: "must match at least one schema in anyOf",
  not: 'must not be valid against the "not" schema',
} as const;

/** The messages whose wording needs values known only at run time. */
const runtimeMessages = {
  oneOf: (passed: Code) =>
    code`${passed} > 1 ? "must match exactly one schema in oneOf, but matches more than one" : "must match exactly one schema in oneOf"`,
} as const;

/** allOf, anyOf, oneOf (or a discriminator), not, if/then/else, dependentSchemas. */
export function compileComposition(ctx: ObjectNodeCtx, out: Block): void {
  const reader = readerOf(ctx);
  for (const index of reader.schemaArray("allOf")?.keys() ?? []) compileSubschema(inPlace(ctx, ["allOf", index]), out);
  const discrimination = readDiscriminator(
    ctx.fn.module.registry.tree,
    ctx.fn.module.registry.rules,
    ctx.schema,
    ctx.at,
  );
  for (const keyword of ["anyOf", "oneOf"] as const) {
    const branches = reader.schemaArray(keyword);
    if (branches === undefined) continue;
    const plain = (): void => {
      // a single branch is the branch itself, for validation and for annotations
      if (branches.length === 1) compileSubschema(inPlace(ctx, [keyword, 0]), out);
      else (keyword === "anyOf" ? compileAnyOf : compileOneOf)(ctx, out, branches.length);
    };
    if (discrimination?.keyword === keyword) compileDiscriminated(ctx, out, discrimination, plain);
    else plain();
  }
  if (reader.schemaValue("not") !== undefined) compileNot(ctx, out);
  if (reader.schemaValue("if") !== undefined) compileIf(ctx, out);
  compileDependentSchemas(ctx, out);
}

function branchTracker(ctx: ObjectNodeCtx, out: Block): Code | null {
  if (ctx.evaluated === null) return null;
  const tracker = ctx.fn.fresh("t");
  out.line(code`const ${tracker} = ${ctx.fn.module.helper("tracker")}();`);
  return tracker;
}

function mergeInto(ctx: ObjectNodeCtx, tracker: Code | null): Code {
  if (ctx.evaluated === null || tracker === null) return code``;
  return code` ${ctx.fn.module.helper("merge")}(${ctx.evaluated}, ${tracker});`;
}

/**
 * anyOf/oneOf branches first run without collecting errors; only when the keyword fails and
 * errors are wanted do they run again, collecting (so a passing branch never allocates).
 * Branches that can report nothing run once.
 */
function emitPasses(ctx: ObjectNodeCtx, out: Block, keepGoing: Code, branches: (inner: Block) => void): void {
  const inner = new Block();
  const before = ctx.fn.usage;
  branches(inner);
  const after = ctx.fn.usage;
  const sinkUsed = after.sink > before.sink;
  const allUsed = after.all > before.all;
  if (!sinkUsed && !allUsed) {
    out.open(code``);
    out.append(inner);
    out.close();
    return;
  }
  const [sink, all, pass] = ["e", "a", "pass"].map((prefix) => ctx.fn.fresh(prefix)) as [Code, Code, Code];
  ctx.fn.uses(true, allUsed);
  out.line(allUsed ? code`const ${sink} = e, ${all} = a;` : code`const ${sink} = e;`);
  out.open(
    code`for (let ${pass} = 0; ${pass} < (${sink} === null ? 1 : 2) && (${pass} === 0 || ${keepGoing}); ${pass}++)`,
  );
  if (sinkUsed) out.line(code`const e${tsOnly`: $Errors`} = ${pass} === 0 ? null : ${sink};`);
  if (allUsed) out.line(code`const a = ${pass} === 0 ? false : ${all};`);
  out.append(inner);
  out.close();
}

function compileAnyOf(ctx: ObjectNodeCtx, out: Block, count: number): void {
  const matched = ctx.fn.fresh("m");
  out.line(code`let ${matched} = false;`);
  emitPasses(ctx, out, code`!${matched}`, (inner) => {
    for (let index = 0; index < count; index++) {
      const shortCircuit = ctx.evaluated === null && index > 0;
      if (shortCircuit) inner.open(code`if (!${matched})`);
      const tracker = branchTracker(ctx, inner);
      const ok = compileBranch(inPlace(ctx, ["anyOf", index], { evaluated: tracker }), inner, false);
      inner.line(code`if (${ok}) { ${matched} = true;${mergeInto(ctx, tracker)} }`);
      if (shortCircuit) inner.close();
    }
  });
  out.line(code`if (!${matched}) ${failWith(ctx, "anyOf", params({}), messages.anyOf)}`);
}

function compileOneOf(ctx: ObjectNodeCtx, out: Block, count: number): void {
  const [passed, first, second] = ["c", "f", "g"].map((prefix) => ctx.fn.fresh(prefix)) as [Code, Code, Code];
  const chosen = ctx.evaluated === null ? null : ctx.fn.fresh("t");
  out.line(code`let ${passed} = 0, ${first} = -1, ${second} = -1;`);
  if (chosen !== null) out.line(code`let ${chosen}${tsOnly`: $Evaluated | null`} = null;`);
  emitPasses(ctx, out, code`${passed} === 0`, (inner) => {
    for (let index = 0; index < count; index++) emitOneOfBranch(ctx, inner, index, { passed, first, second, chosen });
  });
  if (chosen !== null)
    out.line(
      code`if (${passed} === 1 && ${chosen} !== null) ${ctx.fn.module.helper("merge")}(${ctx.evaluated as Code}, ${chosen});`,
    );
  const errorParams = params({ passingSchemas: code`${passed} > 1 ? [${first}, ${second}] : null` });
  out.line(code`if (${passed} !== 1) ${failWith(ctx, "oneOf", errorParams, runtimeMessages.oneOf(passed))}`);
}

interface OneOfVars {
  readonly passed: Code;
  readonly first: Code;
  readonly second: Code;
  readonly chosen: Code | null;
}

function emitOneOfBranch(ctx: ObjectNodeCtx, out: Block, index: number, vars: OneOfVars): void {
  const { passed, first, second, chosen } = vars;
  const shortCircuit = chosen === null && index > 1;
  if (shortCircuit) out.open(code`if (${passed} < 2)`);
  const tracker = branchTracker(ctx, out);
  const ok = compileBranch(inPlace(ctx, ["oneOf", index], { evaluated: tracker }), out, false);
  const keep = chosen !== null && tracker !== null ? code` if (${passed} === 0) ${chosen} = ${tracker};` : code``;
  out.line(
    code`if (${ok}) {${keep} if (${passed} === 0) ${first} = ${num(index)}; else ${second} = ${num(index)}; ${passed}++; }`,
  );
  if (shortCircuit) out.close();
}

function compileNot(ctx: ObjectNodeCtx, out: Block): void {
  const ok = compileBranch(inPlace(ctx, ["not"], { evaluated: null }), out, true);
  out.line(code`if (${ok}) ${failWith(ctx, "not", params({}), messages.not)}`);
}

function compileIf(ctx: ObjectNodeCtx, out: Block): void {
  const hasThen = ctx.schema["then"] !== undefined;
  const hasElse = ctx.schema["else"] !== undefined;
  if (!hasThen && !hasElse && ctx.evaluated === null) return;
  const tracker = branchTracker(ctx, out);
  const ok = compileBranch(inPlace(ctx, ["if"], { evaluated: tracker }), out, true);
  out.open(code`if (${ok})`);
  if (tracker !== null) out.line(code`${mergeInto(ctx, tracker)}`);
  if (hasThen) compileSubschema(inPlace(ctx, ["then"]), out);
  if (hasElse) {
    out.middle(code`} else {`);
    compileSubschema(inPlace(ctx, ["else"]), out);
  }
  out.close();
}

function compileDependentSchemas(ctx: ObjectNodeCtx, out: Block): void {
  const map = readerOf(ctx).schemaMap("dependentSchemas");
  if (map === undefined) return;
  const o = ctx.fn.fresh("o");
  const d = ctx.data;
  out.line(
    code`const ${o} = typeof ${d} === "object" && ${d} !== null && !Array.isArray(${d}) ? (${d}${tsOnly` as Record<string, unknown>`}) : null;`,
  );
  for (const name of Object.keys(map)) {
    out.open(code`if (${o} !== null && ${ctx.fn.module.helper("hop")}.call(${o}, ${str(name)}))`);
    compileSubschema(inPlace(ctx, ["dependentSchemas", name]), out);
    out.close();
  }
}
