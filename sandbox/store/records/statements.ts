/**
 * Statements built once: the query builder's work (building the tree, the schema's plugin walking
 * it, compiling it to text) was most of a request's own CPU on the hot paths, for a text that never
 * changes, since no statement's text depends on what a request sends (see docs/sandbox.md,
 * "Statements"). A statement defined here is built and compiled once per query layer, with a
 * placeholder standing for each named parameter; a run binds the values by name into the compiled
 * parameters, and runs the same text, which the pool then sends under its name.
 *
 * The builder must not look at its parameters (no `??`, no branch on them): each is a placeholder
 * when it is built. To hold a builder to that, the first run on each query layer also builds the
 * statement with the real values and checks that it gives the same text and parameters.
 */
import type { Compilable, CompiledQuery, Kysely, QueryResult } from "kysely";
import { type DirectQuery, directQueryOf } from "../engine/direct-queries.js";
import type { Database } from "../schema/database.js";

/** What stands for a named parameter while the statement is built. */
class Placeholder {
  constructor(readonly name: string) {}
}

/** Where each compiled parameter comes from: a named parameter, or a value of the statement's own. */
type Source = Placeholder | { readonly value: unknown };

interface Built {
  readonly query: CompiledQuery;
  readonly sources: readonly Source[];
  /** the values of a run in the places of the parameters (`binderOf`) */
  readonly bind: Binder;
  /** how the layer runs the text itself, outside a transaction, where its engine registered its pool */
  readonly direct: DirectQuery | undefined;
  /** whether a run has checked the placeholders against a build with real values */
  checked: boolean;
}

/**
 * A statement of named parameters `P`, answering rows `R`: built on the query layer `db` (once per
 * layer) and run there, or on `on`, a transaction of that layer.
 */
export type Statement<P, R> = (db: Kysely<Database>, parameters: P, on?: Kysely<Database>) => Promise<QueryResult<R>>;

/**
 * Defines a statement: `build` makes it with the query builder from the query layer and the
 * parameters (the same tree for any values; see above).
 */
export function statement<P extends object, R>(
  build: (db: Kysely<Database>, parameters: P) => Compilable<R>,
): Statement<P, R> {
  const built = new WeakMap<Kysely<Database>, Built>();
  return async (db, parameters, on = db) => {
    let entry = built.get(db);
    if (entry === undefined) {
      entry = buildOnce(db, build);
      built.set(db, entry);
    }
    const bound = entry.bind(parameters);
    if (!entry.checked) {
      checkBuild(build(db, parameters).compile(), entry.query.sql, bound);
      entry.checked = true;
    }
    if (on === db && entry.direct !== undefined) return { rows: await entry.direct<R>(entry.query.sql, bound) };
    return on.executeQuery<R>({ ...entry.query, parameters: bound } as CompiledQuery<R>);
  };
}

/** Reads a run's parameters into the values of the statement's places, in their order. */
type Binder = (parameters: object) => unknown[];

/**
 * The binder of a statement whose places are `sources`: a function of its own, made once, whose
 * array literal reads each named parameter by its name (`p["date"]`) and takes the statement's own
 * values from a list. Each read is then V8's load of a named property of one shape of object (the
 * statement's parameters), where `bind`, shared by every statement, reads by a key that changes
 * at each step (a lookup in V8's megamorphic cache each) and grows its array by `push`: about 8,000
 * instructions of a create's 263,000, 3% (docs/benchmarks.md, "Instructions per request"). The
 * literal answers a packed array whatever compiles it, as `bind`'s does. Where code cannot be made
 * at run time (a page whose Content-Security-Policy forbids it), `bind` serves.
 */
function binderOf(sources: readonly Source[]): Binder {
  const values = sources.map((source) => (source instanceof Placeholder ? undefined : source.value));
  const reads = sources.map((source, i) =>
    source instanceof Placeholder ? `p[${JSON.stringify(source.name)}]` : `values[${i}]`,
  );
  try {
    return new Function("values", `"use strict"; return (p) => [${reads.join(", ")}];`)(values) as Binder;
  } catch {
    return (parameters) => bind(sources, parameters);
  }
}

/**
 * The values of a run, in the places of the statement's parameters, where `binderOf` cannot make a
 * binder. Built by `push` from an empty array, not by `map`: an array of the same values then has
 * the same shape (V8's map of a packed array) whether this code runs interpreted or optimised,
 * where `map` answers a packed array from the interpreter and a holey one once the optimising
 * compiler has inlined it; `pg`'s serializer, optimised for one, was thrown away and compiled
 * again on meeting the other.
 */
function bind<P extends object>(sources: readonly Source[], parameters: P): unknown[] {
  const bound: unknown[] = [];
  for (const source of sources)
    bound.push(source instanceof Placeholder ? parameters[source.name as keyof P] : source.value);
  return bound;
}

function buildOnce<P extends object, R>(
  db: Kysely<Database>,
  build: (db: Kysely<Database>, parameters: P) => Compilable<R>,
): Built {
  const placeholders = new Proxy({} as P, {
    get: (_, name) => (typeof name === "string" ? new Placeholder(name) : undefined),
  });
  const query = build(db, placeholders).compile();
  const sources = query.parameters.map((value) => (value instanceof Placeholder ? value : { value }));
  // a transaction's statements run on its connection, through it
  return {
    query,
    sources,
    bind: binderOf(sources),
    direct: db.isTransaction ? undefined : directQueryOf(db),
    checked: false,
  };
}

/** Throws when a build with the real values differs from the statement run (a builder that looked at a parameter). */
function checkBuild(real: CompiledQuery, text: string, bound: readonly unknown[]): void {
  const same =
    real.sql === text &&
    real.parameters.length === bound.length &&
    real.parameters.every((value, i) => Object.is(value, bound[i]));
  if (!same)
    throw new Error(
      `a statement built once differs from its build with the values of a request: its builder must not look at its parameters\n${real.sql}`,
    );
}
