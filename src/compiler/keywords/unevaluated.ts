import { type Block, type Code, code, joinCode, num, str, tsOnly } from "../code/code.js";
import type { StaticEvaluation, StaticProps } from "../registry/annotations.js";
import { childLocation } from "../registry/location.js";
import { childChecks } from "./child.js";
import type { ObjectNodeCtx } from "./context.js";
import { failWith, params } from "./fail.js";

/** The messages whose wording needs values known only at run time. */
const runtimeMessages = {
  unevaluatedItem: (index: Code) => code`${str("must not have unevaluated item at index ")} + ${index}`,
  unevaluatedProperty: (key: Code) => code`${str("must not have unevaluated property '")} + ${key} + "'"`,
} as const;

/** How a node with unevaluated* keywords learns what was evaluated. */
export interface Tracking {
  /** the node context its other keywords are compiled with (tracker set when dynamic) */
  readonly ctx: ObjectNodeCtx;
  /** this node's own run-time tracker, when static analysis was not enough */
  readonly own: Code | null;
  /** the tracker of the enclosing node for the same instance, if any */
  readonly parent: Code | null;
  readonly analysis: StaticEvaluation | null;
}

/** Decides static or run-time tracking before the node's other keywords are compiled. */
export function openTracking(node: ObjectNodeCtx, out: Block): Tracking {
  const hasProps = node.schema["unevaluatedProperties"] !== undefined;
  const hasItems = node.schema["unevaluatedItems"] !== undefined;
  const idle: Tracking = { ctx: node, own: null, parent: node.evaluated, analysis: null };
  if (!hasProps && !hasItems) return idle;
  const analysis = node.fn.module.analyzer.beforeUnevaluated(node.schema, node.at, node.inner);
  const dynamic = (hasProps && analysis.props === null) || (hasItems && analysis.items === null);
  if (!dynamic) return { ...idle, analysis };
  const own = node.fn.fresh("t");
  out.line(code`const ${own} = ${node.fn.module.helper("tracker")}();`);
  return { ctx: { ...node, evaluated: own }, own, parent: node.evaluated, analysis };
}

/** Emits unevaluatedProperties / unevaluatedItems and reports evaluation to the enclosing node. */
export function closeTracking(node: ObjectNodeCtx, tracking: Tracking, out: Block): void {
  if (tracking.analysis === null) return;
  if (node.schema["unevaluatedProperties"] !== undefined) emitProperties(node, tracking, out);
  if (node.schema["unevaluatedItems"] !== undefined) emitItems(node, tracking, out);
  if (tracking.own !== null && tracking.parent !== null) {
    out.line(code`${node.fn.module.helper("merge")}(${tracking.parent}, ${tracking.own});`);
  }
}

function emitProperties(node: ObjectNodeCtx, tracking: Tracking, out: Block): void {
  const d = node.data;
  const stat = tracking.own === null ? (tracking.analysis?.props ?? null) : null;
  out.open(code`if (typeof ${d} === "object" && ${d} !== null && !Array.isArray(${d}))`);
  if (stat === null || !stat.all) {
    const o = node.fn.fresh("o");
    const k = node.fn.fresh("k");
    out.line(code`const ${o} = ${d}${tsOnly` as Record<string, unknown>`};`);
    out.open(code`for (const ${k} in ${o})`);
    out.line(code`if (!${node.fn.module.helper("hop")}.call(${o}, ${k})) continue;`);
    const skip =
      tracking.own !== null
        ? code`${tracking.own}.all || ${tracking.own}.k.has(${k})`
        : staticSkip(node, stat as StaticProps, k);
    if (skip !== null) out.line(code`if (${skip}) continue;`);
    emitUnevaluatedValue(node, out, "unevaluatedProperties", code`${o}[${k}]`, k, "key");
    out.close();
  }
  if (tracking.parent !== null) out.line(code`${tracking.parent}.all = true;`);
  out.close();
}

function staticSkip(node: ObjectNodeCtx, props: StaticProps, k: Code): Code | null {
  const tests: Code[] = [];
  if (props.names.length > 8) {
    const init = code`new Set${tsOnly`<string>`}([${joinCode(props.names.map(str), code`, `)}])`;
    tests.push(code`${node.fn.module.constant(`names:${JSON.stringify(props.names)}`, "names", init)}.has(${k})`);
  } else {
    tests.push(...props.names.map((name) => code`${k} === ${str(name)}`));
  }
  for (const pattern of props.patterns) {
    tests.push(code`${node.fn.module.regex(pattern, childLocation(node.at, "unevaluatedProperties"))}.test(${k})`);
  }
  return tests.length === 0 ? null : joinCode(tests, code` || `);
}

function emitItems(node: ObjectNodeCtx, tracking: Tracking, out: Block): void {
  const d = node.data;
  const stat = tracking.own === null ? (tracking.analysis?.items ?? null) : null;
  out.open(code`if (Array.isArray(${d}))`);
  if (stat === null || !stat.all) {
    const arr = node.fn.fresh("arr");
    const i = node.fn.fresh("i");
    out.line(code`const ${arr} = ${d}${tsOnly` as unknown[]`};`);
    out.open(code`for (let ${i} = ${num(stat?.prefix ?? 0)}; ${i} < ${arr}.length; ${i}++)`);
    if (tracking.own !== null)
      out.line(code`if (${tracking.own}.all || ${i} < ${tracking.own}.n || ${tracking.own}.k.has(${i})) continue;`);
    emitUnevaluatedValue(node, out, "unevaluatedItems", code`${arr}[${i}]`, i, "index");
    out.close();
  }
  if (tracking.parent !== null) out.line(code`${tracking.parent}.all = true;`);
  out.close();
}

function emitUnevaluatedValue(
  node: ObjectNodeCtx,
  out: Block,
  keyword: string,
  value: Code,
  key: Code,
  kind: "key" | "index",
): void {
  if (node.schema[keyword] === false) {
    const errorParams = kind === "key" ? params({ unevaluatedProperty: key }) : params({ index: key });
    const message = kind === "key" ? runtimeMessages.unevaluatedProperty(key) : runtimeMessages.unevaluatedItem(key);
    out.line(failWith(node, keyword, errorParams, message));
    return;
  }
  out.append(childChecks(node, [keyword], node.path.dynamic(kind, key), value));
}
