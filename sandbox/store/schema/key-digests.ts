/**
 * API keys are stored only as digests: HMAC-SHA-256 under a secret of the database, drawn when
 * the schema is first seeded and kept across resets.
 */
import type { Kysely } from "kysely";
import type { Database } from "./database.js";

/** The setting holding the secret that key digests are made with. */
const KEY_SECRET = "key_secret";

/**
 * Node's crypto, where there is Node (taken without a static import, which a browser bundle could
 * not resolve): there a digest is made at once, so checking a key takes no trip through the
 * thread pool, and a request's body is read right after its key is checked, as the server expects.
 */
const NODE_CRYPTO = (
  globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
).process?.getBuiltinModule?.("node:crypto") as typeof import("node:crypto") | undefined;

/** The HMAC keys of the secrets seen, imported once each (Web Crypto, where there is no Node). */
const HMAC_KEYS = new Map<string, Promise<CryptoKey>>();

/** The digest a key is stored as (hex): HMAC-SHA-256 of its UTF-8 bytes under the secret's UTF-8 bytes. */
export function keyDigest(secret: string, key: string): string | Promise<string> {
  if (NODE_CRYPTO !== undefined) return nodeDigest(NODE_CRYPTO, secret, key);
  return webDigest(secret, key);
}

/** SHA-256's block, in bytes. */
const BLOCK = 64;

/** The two hashes HMAC starts from under a secret (RFC 2104): the padded secret XOR ipad, and XOR opad. */
interface HmacStart {
  readonly secret: string;
  readonly inner: import("node:crypto").Hash;
  readonly outer: import("node:crypto").Hash;
}

/** The start of the last secret's HMAC: there is one secret per database, and a digest is made per request. */
let lastStart: HmacStart | undefined;

/**
 * HMAC-SHA-256 from copies of the secret's two starting hashes: a request's key is digested
 * without setting up an HMAC under the secret again (OpenSSL's HMAC set-up was, measured under
 * load, most of a request's digest). The same bytes as `createHmac`, which the tests compare.
 */
function nodeDigest(crypto: typeof import("node:crypto"), secret: string, key: string): string {
  if (lastStart?.secret !== secret) lastStart = hmacStart(crypto, secret);
  const inner = lastStart.inner.copy().update(key, "utf8").digest();
  return lastStart.outer.copy().update(inner).digest("hex");
}

function hmacStart(crypto: typeof import("node:crypto"), secret: string): HmacStart {
  const bytes = new TextEncoder().encode(secret);
  const padded = new Uint8Array(BLOCK);
  padded.set(bytes.length > BLOCK ? crypto.createHash("sha256").update(bytes).digest() : bytes);
  const start = (pad: number) => crypto.createHash("sha256").update(padded.map((byte) => byte ^ pad));
  return { secret, inner: start(0x36), outer: start(0x5c) };
}

async function webDigest(secret: string, key: string): Promise<string> {
  let hmac = HMAC_KEYS.get(secret);
  if (hmac === undefined) {
    hmac = crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
    ]);
    HMAC_KEYS.set(secret, hmac);
  }
  return hex(new Uint8Array(await crypto.subtle.sign("HMAC", await hmac, new TextEncoder().encode(key))));
}

function hex(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += byte.toString(16).padStart(2, "0");
  return text;
}

/** The secret key digests are made with, drawn the first time it is asked for. */
export async function keySecret(db: Kysely<Database>): Promise<string> {
  const existing = await db
    .selectFrom("sandbox_settings")
    .select("value")
    .where("name", "=", KEY_SECRET)
    .executeTakeFirst();
  if (existing !== undefined) return existing.value;
  await db
    .insertInto("sandbox_settings")
    .values({ name: KEY_SECRET, value: hex(crypto.getRandomValues(new Uint8Array(32))) })
    .onConflict((conflict) => conflict.column("name").doNothing())
    .execute();
  const row = await db
    .selectFrom("sandbox_settings")
    .select("value")
    .where("name", "=", KEY_SECRET)
    .executeTakeFirstOrThrow();
  return row.value;
}
