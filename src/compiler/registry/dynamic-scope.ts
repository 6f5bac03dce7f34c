/**
 * The dynamic scope of `$dynamicRef` (JSON Schema 2020-12 §8.2.3.2), known at generation time.
 * Evaluation enters schema resources as it follows references and embedded `$id`s; a
 * `$dynamicRef` whose first target declares the matching `$dynamicAnchor` then goes to the
 * outermost resource entered so far that declares that anchor. Only the first binding of each
 * anchor name can ever matter, so the scope is kept as those bindings: it only grows, a function
 * is compiled once per distinct scope (its key), and a document without `$dynamicAnchor` has one,
 * empty, scope.
 */
import { locationKey, type SchemaLocation } from "./location.js";

/** The anchors a resource declares with `$dynamicAnchor`, by name. */
export type DynamicAnchors = ReadonlyMap<string, SchemaLocation>;

/** Anchor names bound by the outermost resource entered that declares them. */
export class DynamicScope {
  static readonly empty = new DynamicScope(new Map());
  readonly #bindings: ReadonlyMap<string, SchemaLocation>;
  /** distinguishes the compiled variants of one function: "" when nothing is bound */
  readonly key: string;

  private constructor(bindings: ReadonlyMap<string, SchemaLocation>) {
    this.#bindings = bindings;
    this.key = [...bindings]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([name, location]) => `${name}=${locationKey(location)}`)
      .join(",");
  }

  /** The scope after entering a resource that declares `anchors`; itself when that binds nothing new. */
  enter(anchors: DynamicAnchors | undefined): DynamicScope {
    if (anchors === undefined) return this;
    let bindings: Map<string, SchemaLocation> | undefined;
    for (const [name, location] of anchors) {
      if (this.#bindings.has(name)) continue;
      bindings ??= new Map(this.#bindings);
      bindings.set(name, location);
    }
    return bindings === undefined ? this : new DynamicScope(bindings);
  }

  /** Where the outermost resource entered binds `name`, if one does. */
  lookup(name: string): SchemaLocation | undefined {
    return this.#bindings.get(name);
  }
}
