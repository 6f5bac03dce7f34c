/**
 * The open databases of this process, shared: one embedded engine in memory for every in-memory
 * sandbox (each works in a schema of its own), one per data directory, one pool per PostgreSQL URL
 * (and bound of its statements).
 * Opening an embedded engine costs about a second; a sandbox after the first in a process only
 * creates its schema.
 *
 * An engine is closed when its last sandbox closes: at once for a data directory (which frees it
 * for another process), after a short grace for the others, so that a test file that closes its
 * sandbox and a next one that opens another share the engine. An open PGlite keeps the process
 * alive; the grace timer does not, so a process whose sandboxes are all closed exits soon after.
 *
 * The registry is kept on `globalThis`, so that copies of this module loaded apart (a test runner
 * loads modules again for each test file) still share the engines of the process.
 */
import { resolve } from "node:path";
import { type DatabaseLocation, DEFAULT_TIMEOUT_MS, type Engine, type OpenOptions, openEngine } from "./engine.js";

/** How long an engine with no sandbox left stays open for the next one. */
const GRACE_MS = 2000;

interface Shared {
  readonly engine: Promise<Engine>;
  users: number;
  closing: ReturnType<typeof setTimeout> | undefined;
}

const REGISTRY = Symbol.for("workforce-scheduling-api/sandbox/engines");

function registry(): Map<string, Shared> {
  const global = globalThis as { [REGISTRY]?: Map<string, Shared> };
  global[REGISTRY] ??= new Map();
  return global[REGISTRY];
}

function keyOf(location: DatabaseLocation, options: OpenOptions): string {
  if (location.kind === "memory") return "memory";
  if (location.kind === "directory") return `directory:${resolve(location.path)}`;
  return `postgres:${options.timeout ?? DEFAULT_TIMEOUT_MS}:${location.url}`;
}

/**
 * The engine for a location, opened (with `options`) if this process has none open; `release` when
 * done with it.
 */
export async function acquireEngine(
  location: DatabaseLocation,
  options: OpenOptions = {},
): Promise<{ engine: Engine; release: () => Promise<void> }> {
  const shared = registry();
  const key = keyOf(location, options);
  let entry = shared.get(key);
  if (entry === undefined) {
    const opening = openEngine(location, options);
    entry = { engine: opening, users: 0, closing: undefined };
    shared.set(key, entry);
    opening.catch(() => shared.delete(key));
  }
  const held = entry;
  held.users++;
  if (held.closing !== undefined) clearTimeout(held.closing);
  held.closing = undefined;
  let engine: Engine;
  try {
    engine = await held.engine;
  } catch (error) {
    held.users--;
    throw error;
  }
  let released = false;
  const close = async (): Promise<void> => {
    if (held.users > 0 || shared.get(key) !== held) return;
    shared.delete(key);
    await engine.close();
  };
  return {
    engine,
    release: async () => {
      if (released) return;
      released = true;
      held.users--;
      if (held.users > 0) return;
      if (location.kind === "directory") return close();
      held.closing = setTimeout(() => void close().catch(() => undefined), GRACE_MS);
      held.closing.unref();
    },
  };
}
