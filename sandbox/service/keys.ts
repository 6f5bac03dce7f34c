/**
 * Callers, from their API keys. A key is stored only as its HMAC-SHA-256 digest under a secret of
 * the database, and never logged. To authenticate, the presented key's digest is compared with every
 * stored digest in constant time (every byte of all of them, whatever matched), so timing
 * tells nothing of any key. The digests are read from the database when first needed, and again
 * when a key is not found (at most once a second): a reset, or another process, may have changed them.
 * The digests are read on their own, and a holder's name when their key is first used, by company:
 * on Citus the keys are a reference table, so neither read goes to every shard.
 * Extra keys (`API_KEYS`) are never stored: each is accepted as another key of the database, the
 * seed's first, and so calls as that key's holder.
 * The keys last found are remembered, in memory only, with the digest they matched, for as long as
 * the digests read are: a key presented again (every request of a client) is compared with them,
 * in constant time too, and found without its digest being made again, its caller answered at once
 * (not as a promise) once its holder's name is read.
 */
import type { Kysely } from "kysely";
import type { Authenticate } from "workforce-scheduling-api/handlers";
import { guardOutage } from "../store/outage.js";
import { keyRows } from "../store/records/keys.js";
import { personName } from "../store/records/workers.js";
import type { Database } from "../store/schema/database.js";
import { keyDigest, keySecret } from "../store/schema/key-digests.js";

/** Who calls: the company the key belongs to, and the person holding it. */
export interface Caller {
  readonly companyId: number;
  readonly personnelId: number;
  /** the holder's name */
  readonly name: string;
}

/** How long a refused key waits before the digests are read again, at least. */
const REFRESH_INTERVAL_MS = 1000;

/** The sandbox's `authenticate` hook, with a way to drop what it read (after a reset). */
export interface KeyBook {
  readonly authenticate: Authenticate<Caller>;
  /** reads the keys again on the next request */
  forget(): void;
}

interface Known {
  readonly secret: string;
  readonly digests: readonly string[];
  /** each digest's company and holder */
  readonly holders: readonly Omit<Caller, "name">[];
  /** the callers whose holder's name is being or has been read, by the digest's index */
  readonly callers: Map<number, Promise<Caller>>;
  /** the callers whose holder's name has been read, by the digest's index */
  readonly named: Map<number, Caller>;
  /** the keys last found, with their digest's index, the latest last (at most REMEMBERED) */
  readonly found: { readonly key: string; readonly index: number }[];
}

/** How many of the keys last found are remembered. */
const REMEMBERED = 16;

/** Keys accepted besides the stored ones, each as the stored key `as` (its company and holder). */
export interface ExtraKeys {
  readonly keys: readonly string[];
  readonly as: string;
}

export function createKeyBook(db: Kysely<Database>, extra: ExtraKeys = { keys: [], as: "" }): KeyBook {
  const state: KeyReading = { readAt: 0 };
  const read = (): Promise<Known> => readInto(db, state);
  const lookUp = async (key: string): Promise<Caller | false> => {
    let book = await (state.known ?? read());
    let found = await find(book, key);
    if (found === -1 && Date.now() - state.readAt >= REFRESH_INTERVAL_MS) {
      book = await read();
      found = await find(book, key);
    }
    return found === -1 ? false : callerOf(db, book, found);
  };
  // reading the keys is the first query of most requests: a database away answers 503 here
  const authenticate: Authenticate<Caller> = guardOutage((presented) => {
    const key = isExtraKey(extra.keys, presented) ? extra.as : presented;
    // a key found before, whose holder's name is read, is answered at once: no promise, no turn
    // of the event loop (every request of a client after its first)
    const ready = state.ready;
    const index = ready === undefined ? -1 : rememberedIndex(ready, key);
    return (index === -1 ? undefined : ready?.named.get(index)) ?? lookUp(key);
  });
  return {
    authenticate,
    forget: () => {
      state.known = undefined;
      state.ready = undefined;
    },
  };
}

/** The keys as read from the database: the reading under way (or done), and the book once read. */
interface KeyReading {
  known?: Promise<Known>;
  /** the book of `known` once read: a key found before is answered from it at once */
  ready?: Known;
  readAt: number;
}

/** Reads the keys again into `state`; a failed reading is forgotten, so the next request reads again. */
function readInto(db: Kysely<Database>, state: KeyReading): Promise<Known> {
  state.readAt = Date.now();
  const reading = readKeys(db);
  state.known = reading;
  state.ready = undefined;
  reading.then(
    (book) => {
      if (state.known === reading) state.ready = book;
    },
    () => {
      if (state.known === reading) state.known = undefined;
    },
  );
  return reading;
}

async function readKeys(db: Kysely<Database>): Promise<Known> {
  const secret = await keySecret(db);
  const rows = await keyRows(db);
  return {
    secret,
    digests: rows.map((row) => row.key_digest),
    holders: rows.map((row) => ({ companyId: row.company_id, personnelId: row.personnel_id })),
    callers: new Map(),
    named: new Map(),
    found: [],
  };
}

/** The caller of the digest at `index`, with their name (read once, from their company's rows). */
function callerOf(db: Kysely<Database>, known: Known, index: number): Promise<Caller> {
  let caller = known.callers.get(index);
  if (caller === undefined) {
    const holder = known.holders[index] as Omit<Caller, "name">;
    caller = personName(db, holder.companyId, holder.personnelId).then((name) => {
      const named = { ...holder, name };
      known.named.set(index, named);
      return named;
    });
    caller.catch(() => known.callers.delete(index));
    known.callers.set(index, caller);
  }
  return caller;
}

/**
 * The index of the digest of `key`, or -1: a key found before is recognised among those
 * remembered, any other is digested and compared with every stored digest; both in constant time.
 */
async function find(known: Known, key: string): Promise<number> {
  const remembered = rememberedIndex(known, key);
  if (remembered !== -1) return remembered;
  const digest = await keyDigest(known.secret, key);
  let found = -1;
  for (let i = 0; i < known.digests.length; i++) {
    if (sameDigest(known.digests[i] ?? "", digest) && found === -1) found = i;
  }
  if (found !== -1) {
    if (known.found.length >= REMEMBERED) known.found.shift();
    known.found.push({ key, index: found });
  }
  return found;
}

/** The index of the digest a remembered key matched, or -1, comparing `key` with every one of them whole. */
function rememberedIndex(known: Known, key: string): number {
  let index = -1;
  for (const entry of known.found) if (sameDigest(entry.key, key) && index === -1) index = entry.index;
  return index;
}

/** Whether `key` is one of the extra keys, comparing with each of them in constant time. */
function isExtraKey(keys: readonly string[], key: string): boolean {
  let found = false;
  for (const extra of keys) found = sameDigest(extra, key) || found;
  return found;
}

/** Whether two hex digests are equal, looking at every character of both whatever differs. */
function sameDigest(a: string, b: string): boolean {
  let difference = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) difference |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0);
  return difference === 0;
}
