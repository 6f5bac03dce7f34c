/**
 * Statements prepared once per connection: the pool handed to Kysely names each SQL text it has
 * seen before, so `pg` sends it with a name, and the server parses it once per connection and
 * then only binds and executes it. The sandbox's queries are few texts run many times (an event's
 * insert, the revision of a company's events), and parsing them again on every call is most of
 * their cost on the embedded engine.
 *
 * A text is named the second time it is run, so a statement run once (a migration, a seed's bulk
 * insert) is never kept on the server; at most MOST_NAMED texts are named, and any after them run
 * unnamed, as before, so what each connection keeps is bounded. A name is the text's SHA-1, so any
 * pool over one connection (PGlite's, shared) gives one text the one name.
 */
import { createHash } from "node:crypto";
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from "kysely";
import type { Pool, PoolClient, QueryResultRow } from "pg";
import { isDatabaseOutage } from "../outage.js";
import type { DirectQuery } from "./direct-queries.js";

/**
 * The most texts named per pool; later ones run unnamed. Each named text costs the engine memory
 * for as long as the connection lives (on PGlite about 66 KB on average for texts of 1 to 500
 * parameters, more for longer ones), and the service's statements are a fixed set of about 25
 * texts (none depends on a request's lists or fields): the bound leaves room for them and keeps a
 * text that did vary from filling the memory.
 */
export const MOST_NAMED = 100;

/** The most texts whose first run is remembered, waiting for a second; the memory is then emptied. */
const MOST_WAITING = 5000;

/** The texts of one pool: those named, and those run once so far. */
export class StatementNames {
  readonly #named = new Map<string, string>();
  #waiting = new Set<string>();

  /** The name `text` runs under, or undefined when it runs unnamed (the first time, or past the bound). */
  nameOf(text: string): string | undefined {
    const name = this.#named.get(text);
    if (name !== undefined || this.#named.size >= MOST_NAMED) return name;
    if (!this.#waiting.has(text)) {
      if (this.#waiting.size >= MOST_WAITING) this.#waiting = new Set();
      this.#waiting.add(text);
      return undefined;
    }
    this.#waiting.delete(text);
    const named = `s_${createHash("sha1").update(text).digest("base64url")}`;
    this.#named.set(text, named);
    return named;
  }

  /** The query `pg` is given for `text` with `values`: under its name when it has one (`nameOf`). */
  configOf(text: string, values: readonly unknown[]): { name?: string; text: string; values: unknown[] } {
    const name = this.nameOf(text);
    const parameters = values as unknown[];
    return name === undefined ? { text, values: parameters } : { name, text, values: parameters };
  }

  /** How many texts are named. */
  get size(): number {
    return this.#named.size;
  }
}

/**
 * `pool` as Kysely's PostgreSQL dialect takes it, each query named by `names` (see above), and
 * each error a query meets passed to `heard` too. Each connection of the pool is handed to Kysely
 * as the same object every time it is checked out: Kysely keeps its own connection object per
 * object it is handed, so a new one per checkout would cost a connection object, and a weak map's
 * entry, per query.
 */
export function preparingPool(
  pool: Pool,
  names = new StatementNames(),
  heard: (error: unknown) => void = () => undefined,
): PreparingPool {
  const handed = new WeakMap<PoolClient, PreparingClient>();
  return {
    run: (text, parameters) => runOn(pool, names, heard, text, parameters),
    connect: async () => {
      const client = await pool.connect();
      let preparing = handed.get(client);
      if (preparing === undefined) {
        preparing = new PreparingClient(client, names, heard);
        handed.set(client, preparing);
      }
      return preparing;
    },
    end: () => pool.end(),
  };
}

/** The pool Kysely takes, and `run`, the same queries for the statements run without Kysely (./direct-queries.ts). */
export interface PreparingPool extends PostgresPool {
  readonly run: DirectQuery;
}

/**
 * Runs `text` on a connection of `pool` as `PreparingClient` runs it (named by `names`, an error
 * passed to `heard`, a connection that met an outage released as broken), through `pg`'s callbacks:
 * one promise a query, where the checkout, the query and the release as Kysely's client makes them
 * are a promise and a turn of the microtask queue each.
 */
function runOn<R>(
  pool: Pool,
  names: StatementNames,
  heard: (error: unknown) => void,
  text: string,
  parameters: readonly unknown[],
): Promise<R[]> {
  return new Promise((resolve, reject) => {
    pool.connect((failed, client, release) => {
      if (failed !== undefined && failed !== null) return reject(failed);
      if (client === undefined) return reject(new Error("the pool handed no connection"));
      try {
        client.query<QueryResultRow>(names.configOf(text, parameters), (error, result) => {
          if (error === undefined || error === null) {
            release();
            return resolve(result.rows as R[]);
          }
          try {
            heard(error);
          } finally {
            release(outageOf(error));
            reject(error);
          }
        });
      } catch (error) {
        release();
        reject(error);
      }
    });
  });
}

/**
 * A connection as Kysely takes it. One on which a query met an outage (the server ended it, or
 * its socket failed) goes back to the pool as broken, so the pool closes it and the next request
 * gets a new one: `pg` only learns that the socket closed a moment after the query's error, and a
 * connection released before then would be handed, dead, to the next request.
 */
class PreparingClient implements PostgresPoolClient {
  readonly #client: PoolClient;
  readonly #names: StatementNames;
  readonly #listener: (error: unknown) => void;
  /** the outage a query of this checkout met */
  #broken: Error | undefined;

  constructor(client: PoolClient, names: StatementNames, listener: (error: unknown) => void) {
    this.#client = client;
    this.#names = names;
    this.#listener = listener;
  }

  query<R>(sql: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query(text: string | PostgresCursor<unknown>, values: readonly unknown[] = []): unknown {
    // a cursor (an object) is passed on as it is
    if (typeof text !== "string") return this.#client.query(text as never);
    return this.#client.query(this.#names.configOf(text, values)).catch(this.#heard);
  }

  release(): void {
    const broken = this.#broken;
    this.#broken = undefined;
    this.#client.release(broken);
  }

  readonly #heard = (error: unknown): never => {
    this.#listener(error);
    this.#broken ??= outageOf(error);
    throw error;
  };
}

/** The error a connection is released with when `error` is an outage (the pool then closes it), else undefined. */
function outageOf(error: unknown): Error | undefined {
  if (!isDatabaseOutage(error)) return undefined;
  return error instanceof Error ? error : new Error("the connection failed");
}
