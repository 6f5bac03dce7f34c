import { pointerSegments } from "../../json-pointer.js";
import { type Code, code, ident, regexLiteral, str } from "../code/code.js";
import type { HelperName } from "../code/helpers.js";
import type { Direction, FormatMode, ModuleContext } from "../keywords/context.js";
import { AnnotationAnalyzer } from "../registry/annotations.js";
import { DynamicScope } from "../registry/dynamic-scope.js";
import { SchemaCompileError } from "../registry/errors.js";
import type { RefGraph } from "../registry/graph.js";
import { locationKey, type SchemaLocation } from "../registry/location.js";
import type { SchemaRegistry } from "../registry/registry.js";

/** A generated validator function for one schema location, direction and tracking mode. */
export interface FunctionRequest {
  readonly name: Code;
  readonly location: SchemaLocation;
  readonly direction: Direction;
  /** receives the evaluated-annotations tracker of its caller (for unevaluated*) */
  readonly tracking: boolean;
  /** the dynamic scope once the location's resource is entered */
  readonly dynamic: DynamicScope;
}

/** State of one module being generated: used helpers, hoisted constants, requested functions. */
export class ModuleState implements ModuleContext {
  readonly registry: SchemaRegistry;
  readonly graph: RefGraph;
  readonly analyzer: AnnotationAnalyzer;
  readonly formats: FormatMode;
  readonly #helpers = new Map<HelperName, Code>();
  readonly #constants: { readonly name: string; readonly declaration: Code }[] = [];
  readonly #constantNames = new Map<string, Code>();
  /** per unit (function or exported entry), the functions and constants its code names */
  readonly #uses = new Map<string, Set<string>>();
  #unit: Set<string> | undefined;
  readonly #functions = new Map<string, FunctionRequest>();
  readonly #queue: FunctionRequest[] = [];
  #next = 0;
  readonly #names = new Set<string>();
  /** per base name, the next numeric suffix to try (many inline schemas share a base name) */
  readonly #nextSuffix = new Map<string, number>();

  constructor(registry: SchemaRegistry, graph: RefGraph, formats: FormatMode) {
    this.registry = registry;
    this.graph = graph;
    this.analyzer = new AnnotationAnalyzer(registry);
    this.formats = formats;
  }

  /** Marks a runtime helper as used and returns its identifier. */
  helper(name: HelperName): Code {
    const known = this.#helpers.get(name);
    if (known !== undefined) return known;
    const identifier = ident(`$${name}`);
    this.#helpers.set(name, identifier);
    return identifier;
  }

  get helpersUsed(): ReadonlySet<HelperName> {
    return new Set(this.#helpers.keys());
  }

  /**
   * Runs `build` as the code of one unit of the module (a function, or an exported entry) and
   * records which functions and constants it names, so a part of the module can be laid out
   * with exactly what it needs (`uses`).
   */
  unit<T>(name: string, build: () => T): T {
    const outer = this.#unit;
    const uses = new Set<string>();
    this.#uses.set(name, uses);
    this.#unit = uses;
    try {
      return build();
    } finally {
      this.#unit = outer;
    }
  }

  /** The functions and constants a unit's code names (empty for a constant: constants name only helpers). */
  uses(name: string): ReadonlySet<string> {
    return this.#uses.get(name) ?? new Set();
  }

  /**
   * A module-level constant, declared once per distinct `key`. Its `init` is data: literals and
   * runtime helpers, never a function or another constant of the module. It is marked pure
   * (every init is a call of a helper or `new`), so a bundler drops it when no code kept names it.
   */
  constant(key: string, prefix: string, init: Code, call = true): Code {
    const known = this.#constantNames.get(key);
    if (known !== undefined) return this.#used(known);
    const name = ident(`$${prefix}${this.#constantNames.size}`);
    this.#constantNames.set(key, name);
    // a call is marked pure, so that a bundler drops the constant when nothing reads it
    const declaration = call ? code`const ${name} = /* @__PURE__ */ ${init};` : code`const ${name} = ${init};`;
    this.#constants.push({ name: name.toString(), declaration });
    return this.#used(name);
  }

  #used(name: Code): Code {
    this.#unit?.add(name.toString());
    return name;
  }

  /** A module-level constant holding a JSON value, parsed once when the module loads. */
  jsonConstant(prefix: string, value: unknown, cast: Code = code``): Code {
    const text = JSON.stringify(value);
    return this.constant(`${prefix}:${text}`, prefix, code`${this.helper("json")}(${str(text)})${cast}`);
  }

  /** The constants, in the order they were declared. */
  get constants(): readonly { readonly name: string; readonly declaration: Code }[] {
    return this.#constants;
  }

  /**
   * A hoisted RegExp (a literal where the pattern can be written as one): with the `u` flag, as JSON Schema 2020-12 (OpenAPI 3.1) reads patterns. An
   * OpenAPI 3.0 pattern is ECMA-262 5.1, which has no `u` flag and allows identity escapes such as
   * `\:`: one that does not compile with `u` but does without is compiled without (the loader warns
   * of it). Any other invalid pattern is a compile error at `at`.
   */
  regex(pattern: string, at: SchemaLocation): Code {
    const reason = regexError(pattern, "u");
    if (reason === undefined) {
      const literal = regexLiteral(pattern);
      if (literal !== undefined) return this.constant(`re:${pattern}`, "re", literal, false);
      return this.constant(`re:${pattern}`, "re", code`${this.helper("regex")}(${str(pattern)})`);
    }
    if (this.registry.rules.name === "openapi-3.0" && regexError(pattern, "") === undefined) {
      return this.constant(`re5:${pattern}`, "re", code`${this.helper("regexWithoutUnicode")}(${str(pattern)})`);
    }
    throw new SchemaCompileError(
      this.registry.pointer(at),
      `invalid regular expression ${JSON.stringify(pattern)} (${reason}); patterns are ECMA-262 with the "u" flag, so escape only syntax characters`,
    );
  }

  /**
   * The function validating `location`, called where `outer` is the dynamic scope; compiled
   * later, once per variant (the location's resource joins the scope).
   */
  request(location: SchemaLocation, direction: Direction, tracking: boolean, outer = DynamicScope.empty): Code {
    const effective = this.#effectiveDirection(location, direction);
    const { registry } = this;
    const dynamic = registry.hasDynamicAnchors
      ? outer.enter(registry.dynamicAnchors(registry.resourceOf(location)))
      : outer;
    const key = `${locationKey(location)}|${effective}|${tracking ? "t" : ""}|${dynamic.key}`;
    const known = this.#functions.get(key);
    if (known !== undefined) return this.#used(known.name);
    const request: FunctionRequest = {
      name: this.#functionName(location, effective, tracking),
      location,
      direction: effective,
      tracking,
      dynamic,
    };
    this.#functions.set(key, request);
    this.#queue.push(request);
    return this.#used(request.name);
  }

  /** Next function waiting to be compiled. */
  takeQueued(): FunctionRequest | undefined {
    return this.#queue[this.#next++];
  }

  #effectiveDirection(location: SchemaLocation, direction: Direction): Direction {
    if (direction === "request" && this.graph.hasReadOnly(location)) return "request";
    if (direction === "response" && this.graph.hasWriteOnly(location)) return "response";
    return "neutral";
  }

  #functionName(location: SchemaLocation, direction: Direction, tracking: boolean): Code {
    const last = pointerSegments(location.ptr).pop() ?? "root";
    const hint = last.replace(/[^A-Za-z0-9_]/g, "_").slice(0, 48) || "schema";
    const suffix = (direction === "neutral" ? "" : direction === "request" ? "_req" : "_res") + (tracking ? "_ev" : "");
    const base = `$v_${hint}${suffix}`;
    let name = base;
    let n = this.#nextSuffix.get(base) ?? 2;
    for (; this.#names.has(name); n++) name = `${base}_${n}`;
    this.#nextSuffix.set(base, n);
    this.#names.add(name);
    return ident(name);
  }
}

/** Why a pattern does not compile with these flags, or undefined when it does. */
export function regexError(pattern: string, flags: string): string | undefined {
  try {
    new RegExp(pattern, flags);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
