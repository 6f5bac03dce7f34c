import { type Block, type Code, code, joinCode, num, str, tsOnly } from "../code/code.js";
import { childLocation } from "../registry/location.js";
import { compileBranch } from "./branch.js";
import { childChecks } from "./child.js";
import { type InstancePath, type ObjectNodeCtx, onChild } from "./context.js";
import { failWith, params } from "./fail.js";
import { count } from "./wording.js";

/** The messages of the keywords compiled here, written at generation time (see wording.ts). */
const messages = {
  maxProperties: (limit: number) => `must have at most ${count(limit, "property", "properties")}`,
  minProperties: (limit: number) => `must have at least ${count(limit, "property", "properties")}`,
  required: (name: string) => `must have required property '${name}'`,
} as const;

/** The messages whose wording needs values known only at run time. */
const runtimeMessages = {
  additional: (key: Code) => code`${str("must not have additional property '")} + ${key} + "'"`,
  propertyName: (key: Code) => code`${str("must have valid property names; invalid: '")} + ${key} + "'"`,
} as const;

/** The object keywords of one node, read and checked. */
export interface PropertyPlan {
  readonly properties: readonly string[];
  readonly required: readonly string[];
  readonly patterns: readonly string[];
  readonly additional: unknown;
  readonly propertyNames: unknown;
  readonly minProperties: number | undefined;
  readonly maxProperties: number | undefined;
}

interface LoopVars {
  readonly o: Code;
  readonly k: Code;
  /** counts required properties seen, when some are required */
  readonly found: Code | null;
  /** counts own keys, for min/maxProperties */
  readonly count: Code | null;
  /** set when some declared property or pattern matched (only when additionalProperties needs it) */
  readonly matched: Code | null;
  /** additionalProperties applies to keys the switch does not know */
  readonly additionalInDefault: boolean;
}

/** The single pass over own keys. */
export function compilePropertyLoop(ctx: ObjectNodeCtx, out: Block, o: Code, plan: PropertyPlan): void {
  const vars = loopVars(ctx, o, plan);
  if (vars.found !== null) out.line(code`let ${vars.found} = 0;`);
  if (vars.count !== null) out.line(code`let ${vars.count} = 0;`);
  out.open(code`for (const ${vars.k} in ${o})`);
  emitLoopBody(ctx, out, plan, vars);
  out.close();
  if (vars.found !== null) {
    out.open(code`if (${vars.found} !== ${num(plan.required.length)})`);
    emitMissing(ctx, out, plan.required, hasOwn(ctx, o));
    out.close();
  }
  if (vars.count !== null) emitCounts(ctx, out, vars.count, plan);
}

function loopVars(ctx: ObjectNodeCtx, o: Code, plan: PropertyPlan): LoopVars {
  const additional = plan.additional !== undefined && plan.additional !== true;
  const matched = additional && plan.patterns.length > 0 ? ctx.fn.fresh("m") : null;
  return {
    o,
    k: ctx.fn.fresh("k"),
    found: plan.required.length > 0 ? ctx.fn.fresh("r") : null,
    count: plan.minProperties !== undefined || plan.maxProperties !== undefined ? ctx.fn.fresh("n") : null,
    matched,
    additionalInDefault: additional && matched === null,
  };
}

function emitLoopBody(ctx: ObjectNodeCtx, out: Block, plan: PropertyPlan, vars: LoopVars): void {
  out.line(code`if (!${ctx.fn.module.helper("hop")}.call(${vars.o}, ${vars.k})) continue;`);
  if (vars.count !== null) out.line(code`${vars.count}++;`);
  if (plan.propertyNames !== undefined) emitPropertyName(ctx, out, vars.k);
  if (vars.matched !== null) out.line(code`let ${vars.matched} = false;`);
  emitDeclared(ctx, out, plan, vars);
  for (const pattern of plan.patterns) emitPattern(ctx, out, pattern, vars);
  if (vars.matched === null) return;
  out.open(code`if (!${vars.matched})`);
  emitAdditional(ctx, out, vars);
  out.close();
}

/** A switch over the key: declared and required names, and additionalProperties as the default. */
function emitDeclared(ctx: ObjectNodeCtx, out: Block, plan: PropertyPlan, vars: LoopVars): void {
  const names = [...new Set([...plan.properties, ...plan.required])];
  if (names.length === 0 && !vars.additionalInDefault) return;
  const sets = { required: new Set(plan.required), properties: new Set(plan.properties) };
  out.open(code`switch (${vars.k})`);
  for (const name of names) emitCase(ctx, out, name, sets, vars);
  if (vars.additionalInDefault) {
    out.open(code`default:`);
    emitAdditional(ctx, out, vars);
    out.close();
  }
  out.close();
}

interface NameSets {
  readonly required: ReadonlySet<string>;
  readonly properties: ReadonlySet<string>;
}

function emitCase(ctx: ObjectNodeCtx, out: Block, name: string, sets: NameSets, vars: LoopVars): void {
  out.open(code`case ${str(name)}:`);
  if (vars.found !== null && sets.required.has(name)) out.line(code`${vars.found}++;`);
  if (sets.properties.has(name)) {
    emitValue(ctx, out, ["properties", name], vars, ctx.path.child(name));
    if (ctx.evaluated !== null) out.line(code`${ctx.evaluated}.k.add(${vars.k});`);
  }
  if (vars.matched !== null) out.line(code`${vars.matched} = true;`);
  out.line(code`break;`);
  out.close();
}

/**
 * Names the standard `Object.prototype` has: an object inherits them, so they are always looked
 * up with hasOwnProperty (they would turn the fast own-property test below off for every name).
 */
const PROTOTYPE_NAMES = new Set([
  "__proto__",
  "__defineGetter__",
  "__defineSetter__",
  "__lookupGetter__",
  "__lookupSetter__",
  "constructor",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
  "toString",
  "valueOf",
]);

/**
 * Declared and required properties looked up by name, in declaration order, when no keyword
 * needs the other keys. Each test is `name in h`, where `h` is the object itself when its
 * prototype is `Object.prototype` and that has none of the names (V8 folds those tests to map
 * checks, where hasOwnProperty with a constant key is a call), and otherwise a null-prototype
 * set of its own keys (`$ownKeys`: null or another prototype, another realm's object, a
 * polluted prototype, an own `__proto__`). Reading `o["__proto__"]` first checks the map in a
 * way that lets `Object.getPrototypeOf` fold for several maps too (alone, it is a runtime call).
 * Required properties are checked after the declared ones, as the key loop reports them.
 *
 * The form is also cheap for TypeScript's checker, which walks back over every earlier
 * statement of the function for each reference to an outer variable: one reference per test
 * (`h`, cast so that `in` does not narrow it) instead of the object, a flag and hasOwnProperty.
 */
export function compileDirectProperties(ctx: ObjectNodeCtx, out: Block, o: Code, plan: PropertyPlan): void {
  const declared: { name: string; checks: Block }[] = [];
  for (const name of plan.properties) {
    const checks = childChecks(ctx, ["properties", name], ctx.path.child(name), code`${o}[${str(name)}]`);
    if (!checks.empty || ctx.evaluated !== null) declared.push({ name, checks });
  }
  const tested = [...new Set([...declared.map(({ name }) => name), ...plan.required])];
  const own = ownTest(
    ctx,
    out,
    o,
    tested.filter((name) => !PROTOTYPE_NAMES.has(name)),
  );
  for (const { name, checks } of declared) {
    out.open(code`if (${own(name)})`);
    out.append(checks);
    if (ctx.evaluated !== null) out.line(code`${ctx.evaluated}.k.add(${str(name)});`);
    out.close();
  }
  emitMissing(ctx, out, plan.required, own);
}

/** Declares `h`, the object the own-property tests look names up in, and returns the test of a name. */
function ownTest(ctx: ObjectNodeCtx, out: Block, o: Code, fast: readonly string[]): (name: string) => Code {
  const slow = hasOwn(ctx, o);
  if (fast.length === 0) return slow;
  const proto = ctx.fn.module.helper("proto");
  const ownKeys = ctx.fn.module.helper("ownKeys");
  const keys = ctx.fn.fresh("h");
  const absent = fast.map((name) => code` && !(${str(name)} in ${proto})`);
  out.line(
    code`const ${keys} = ${o}["__proto__"] === ${proto} && Object.getPrototypeOf(${o}) === ${proto}${joinCode(absent, code``)} ? ${o} : ${ownKeys}(${o});`,
  );
  const names = new Set(fast);
  return (name) => (names.has(name) ? code`${str(name)} in (${keys}${tsOnly` as object`})` : slow(name));
}

function emitPattern(ctx: ObjectNodeCtx, out: Block, pattern: string, vars: LoopVars): void {
  const regex = ctx.fn.module.regex(pattern, childLocation(ctx.at, "patternProperties", pattern));
  out.open(code`if (${regex}.test(${vars.k}))`);
  if (vars.matched !== null) out.line(code`${vars.matched} = true;`);
  emitValue(ctx, out, ["patternProperties", pattern], vars, ctx.path.dynamic("key", vars.k));
  if (ctx.evaluated !== null) out.line(code`${ctx.evaluated}.k.add(${vars.k});`);
  out.close();
}

function emitAdditional(ctx: ObjectNodeCtx, out: Block, vars: LoopVars): void {
  if (ctx.schema["additionalProperties"] !== false) {
    emitValue(ctx, out, ["additionalProperties"], vars, ctx.path.dynamic("key", vars.k));
    return;
  }
  out.line(
    failWith(ctx, "additionalProperties", params({ additionalProperty: vars.k }), runtimeMessages.additional(vars.k)),
  );
}

/** Validates `o[k]` against the subschema at `tokens`, skipping subschemas with no checks. */
function emitValue(
  ctx: ObjectNodeCtx,
  out: Block,
  tokens: readonly string[],
  vars: LoopVars,
  path: InstancePath,
): void {
  out.append(childChecks(ctx, tokens, path, code`${vars.o}[${vars.k}]`));
}

function emitPropertyName(ctx: ObjectNodeCtx, out: Block, k: Code): void {
  const name = ctx.fn.fresh("p");
  out.line(code`const ${name}${tsOnly`: unknown`} = ${k};`);
  const ok = compileBranch(onChild(ctx, ["propertyNames"], name, ctx.path), out, true);
  out.line(
    code`if (!${ok}) ${failWith(ctx, "propertyNames", params({ propertyName: k }), runtimeMessages.propertyName(k))}`,
  );
}

function emitCounts(ctx: ObjectNodeCtx, out: Block, count: Code, plan: PropertyPlan): void {
  const { minProperties: min, maxProperties: max } = plan;
  if (min !== undefined && min > 0) {
    const fail = failWith(ctx, "minProperties", params({ limit: num(min) }), messages.minProperties(min));
    out.line(code`if (${count} < ${num(min)}) ${fail}`);
  }
  if (max !== undefined) {
    const fail = failWith(ctx, "maxProperties", params({ limit: num(max) }), messages.maxProperties(max));
    out.line(code`if (${count} > ${num(max)}) ${fail}`);
  }
}

/** The own-property test of a name by hasOwnProperty, which holds for any object. */
function hasOwn(ctx: ObjectNodeCtx, o: Code): (name: string) => Code {
  return (name) => code`${ctx.fn.module.helper("hop")}.call(${o}, ${str(name)})`;
}

/** Emits one failure per required property that `own` does not find. */
function emitMissing(ctx: ObjectNodeCtx, out: Block, required: readonly string[], own: (name: string) => Code): void {
  for (const name of required) {
    const fail = failWith(ctx, "required", params({ missingProperty: str(name) }), messages.required(name));
    out.line(code`if (!(${own(name)})) ${fail}`);
  }
}
