import { escapePointerSegment } from "../../json-pointer.js";
import type { JsonObject } from "../../json-value.js";
import type { Block } from "../code/code.js";
import { type Code, code, ident, joinCode, str } from "../code/code.js";
import type { HelperName } from "../code/helpers.js";
import type { AnnotationAnalyzer } from "../registry/annotations.js";
import type { DynamicScope } from "../registry/dynamic-scope.js";
import { childLocation, type SchemaLocation } from "../registry/location.js";
import type { SchemaRegistry } from "../registry/registry.js";
import { activeKeywords, inactiveKeywords } from "../registry/vocabulary.js";
import { KeywordReader } from "./read.js";

/** Which properties count as forbidden: readOnly ones in requests, writeOnly ones in responses. */
export type Direction = "request" | "response" | "neutral";

type Segment =
  | { readonly kind: "static"; readonly token: string }
  | { readonly kind: "index" | "key"; readonly expr: Code };

/** The instance path relative to the data a generated function received; rendered only on failure. */
export class InstancePath {
  static readonly root = new InstancePath([]);
  readonly #segments: readonly Segment[];

  private constructor(segments: readonly Segment[]) {
    this.#segments = segments;
  }

  get isRoot(): boolean {
    return this.#segments.length === 0;
  }

  /** Whether the path is known when the code is generated (no index or key known only at run time). */
  get isStatic(): boolean {
    return this.#segments.every((segment) => segment.kind === "static");
  }

  /** The path's text when it is static ("/venue/name"), else undefined. */
  get staticText(): string | undefined {
    let text = "";
    for (const segment of this.#segments) {
      if (segment.kind !== "static") return undefined;
      text += `/${escapePointerSegment(segment.token)}`;
    }
    return text;
  }

  child(token: string | number): InstancePath {
    return new InstancePath([...this.#segments, { kind: "static", token: String(token) }]);
  }

  /** A segment known only at run time: an array index or an object key. */
  dynamic(kind: "index" | "key", expr: Code): InstancePath {
    return new InstancePath([...this.#segments, { kind, expr }]);
  }

  /** The path as a string expression; `escapeKey` names the key-escaping helper. */
  render(escapeKey: () => Code): Code {
    const parts: Code[] = [];
    let text = "";
    for (const segment of this.#segments) {
      if (segment.kind === "static") {
        text += `/${escapePointerSegment(segment.token)}`;
        continue;
      }
      parts.push(str(`${text}/`));
      text = "";
      parts.push(segment.kind === "index" ? segment.expr : code`${escapeKey()}(${segment.expr})`);
    }
    if (text !== "" || parts.length === 0) parts.push(str(text));
    return joinCode(parts, code` + `);
  }
}

/** Where control goes when a check fails: out of the function, or out of a labelled branch block. */
export class FailScope {
  readonly okVar: Code;
  readonly label: Code | null;
  #labelUsed = false;

  constructor(okVar: Code, label: Code | null) {
    this.okVar = okVar;
    this.label = label;
  }

  /** The statement that stops checking in this scope. */
  exit(): Code {
    if (this.label === null) return code`return false`;
    this.#labelUsed = true;
    return code`break ${this.label}`;
  }

  get labelUsed(): boolean {
    return this.#labelUsed;
  }
}

/** Whether `format` is checked ("assert") or only informative ("annotate"). */
export type FormatMode = "assert" | "annotate";

/**
 * What a keyword may ask of the module being built (module/module-state.ts implements it): the
 * schemas, the helpers and constants its code names, the functions it calls. Keywords see the
 * module through this, and so import nothing of the floor above theirs.
 */
export interface ModuleContext {
  readonly registry: SchemaRegistry;
  readonly analyzer: AnnotationAnalyzer;
  readonly formats: FormatMode;
  /** marks a runtime helper as used and returns its identifier */
  helper(name: HelperName): Code;
  /** a module-level constant, declared once per distinct `key` */
  constant(key: string, prefix: string, init: Code): Code;
  /** a module-level constant holding a JSON value */
  jsonConstant(prefix: string, value: unknown, cast?: Code): Code;
  /** a hoisted RegExp of a `pattern` at `at` */
  regex(pattern: string, at: SchemaLocation): Code;
  /** the function validating `location`, compiled later */
  request(location: SchemaLocation, direction: Direction, tracking: boolean, outer?: DynamicScope): Code;
}

/** Emits the checks of one schema node (keywords/node.ts's `compileNode`). */
export type CompileNode = (ctx: NodeCtx, out: Block) => void;

/** Per generated function: fresh variable names, and how often code refers to `e` and `a`. */
export class FunctionBuilder {
  readonly module: ModuleContext;
  /**
   * The dispatcher of node.ts, given by the floor above (module/function.ts): the keywords that
   * apply a subschema reach it through here (`compileSubschema`) rather than by importing it, as
   * Ajv's keywords reach subschemas through their context, so node.ts, which imports every
   * keyword family, is imported by none of them.
   */
  readonly compileNode: CompileNode;
  /**
   * The function's own schema path, which its errors' schema paths start with: held in a local
   * (`sp`) and written once, so each error names only what follows it (a page's validator then
   * holds the long prefix once per function). Undefined where no prefix is shared.
   */
  readonly schemaPath: string | undefined;
  #counter = 0;
  #sinkUses = 0;
  #allUses = 0;
  #prefixUses = 0;

  constructor(module: ModuleContext, compileNode: CompileNode, schemaPath?: string) {
    this.module = module;
    this.compileNode = compileNode;
    this.schemaPath = schemaPath;
  }

  /**
   * `schemaPath` as `$fail`'s arguments: the local holding the function's own path and, last, the
   * rest (which `$fail` joins only when it records an error); or the whole path alone.
   */
  schemaPathCode(schemaPath: string): { readonly path: Code; readonly rest?: Code } {
    const own = this.schemaPath;
    if (own === undefined || !schemaPath.startsWith(`${own}/`)) return { path: str(schemaPath) };
    this.#prefixUses++;
    return { path: code`sp`, rest: str(schemaPath.slice(own.length)) };
  }

  /** Whether emitted code reads the local `sp` (see `schemaPath`). */
  get usesSchemaPath(): boolean {
    return this.#prefixUses > 0;
  }

  fresh(prefix: string): Code {
    this.#counter++;
    return ident(`${prefix}${this.#counter}`);
  }

  /** Records that emitted code reads the error sink `e` and/or the allErrors flag `a`. */
  uses(sink: boolean, all: boolean): void {
    if (sink) this.#sinkUses++;
    if (all) this.#allUses++;
  }

  /** Counters to compare before and after compiling a block. */
  get usage(): { readonly sink: number; readonly all: number } {
    return { sink: this.#sinkUses, all: this.#allUses };
  }
}

/** Everything needed to compile one schema node against one data expression. */
export interface NodeCtx {
  readonly fn: FunctionBuilder;
  readonly schema: unknown;
  readonly at: SchemaLocation;
  /** base URI around this node (its own `$id` not yet applied) */
  readonly base: string;
  /** identifier holding the instance */
  readonly data: Code;
  readonly path: InstancePath;
  readonly scope: FailScope;
  /** identifier of the run-time evaluated-annotations tracker for this instance, if any */
  readonly evaluated: Code | null;
  readonly direction: Direction;
  /** the `$dynamicAnchor`s bound by the resources evaluation has entered */
  readonly dynamic: DynamicScope;
}

/** A schema object node after its own `$id` was applied. */
export interface ObjectNodeCtx extends NodeCtx {
  readonly schema: JsonObject;
  /** base URI inside this node */
  readonly inner: string;
  readonly reader: KeywordReader;
}

/** Emits the checks of a subschema, given its context (`inPlace`, `onChild`), through the function's dispatcher. */
export function compileSubschema(sub: NodeCtx, out: Block): void {
  sub.fn.compileNode(sub, out);
}

/** Context for a subschema applied to the same instance (allOf, $ref siblings, then/else, ...). */
export function inPlace(
  ctx: ObjectNodeCtx,
  tokens: readonly (string | number)[],
  changes: Partial<NodeCtx> = {},
): NodeCtx {
  return {
    fn: ctx.fn,
    schema: follow(ctx.schema, tokens),
    at: childLocation(ctx.at, ...tokens),
    base: ctx.inner,
    data: changes.data ?? ctx.data,
    path: changes.path ?? ctx.path,
    scope: changes.scope ?? ctx.scope,
    evaluated: changes.evaluated === undefined ? ctx.evaluated : changes.evaluated,
    direction: ctx.direction,
    dynamic: ctx.dynamic,
  };
}

/** Context for a subschema applied to a child instance (property value, array item). */
export function onChild(
  ctx: ObjectNodeCtx,
  tokens: readonly (string | number)[],
  data: Code,
  path: InstancePath,
): NodeCtx {
  return inPlace(ctx, tokens, { data, path, evaluated: null });
}

function follow(schema: JsonObject, tokens: readonly (string | number)[]): unknown {
  let node: unknown = schema;
  for (const token of tokens) node = (node as Record<string, unknown>)[String(token)];
  return node;
}

/** Reads and checks keyword values of the node's schema. */
export function readerOf(ctx: ObjectNodeCtx): KeywordReader {
  return ctx.reader;
}

/** The object-node context of a schema object, with its own `$id` applied. */
export function objectNode(ctx: NodeCtx, written: JsonObject): ObjectNodeCtx {
  const registry = ctx.fn.module.registry;
  const schema = activeKeywords(written, inactiveKeywords(registry, ctx.at));
  const reader = new KeywordReader(schema, () => registry.pointer(ctx.at));
  const inner = registry.baseWithin(schema, ctx.base);
  // an embedded resource (its own `$id`) joins the dynamic scope as evaluation enters it
  const dynamic = inner === ctx.base ? ctx.dynamic : ctx.dynamic.enter(registry.dynamicAnchors(inner));
  return { ...ctx, schema, inner, reader, dynamic };
}
