/**
 * `createKeyAuthenticator`: the `authenticate` hook of a fixed set of API keys, compared in
 * constant time with Node's crypto.
 */
/// <reference types="node" />
import { hash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Authenticate } from "./security.js";

/**
 * An `authenticate` hook accepting exactly the given keys: a list (a yes/no hook), or a map from
 * each key to its principal (the hook answers the principal of the key presented). The presented
 * key and every accepted key are hashed with SHA-256 after a random 128-bit salt drawn for this
 * authenticator, and the digests compared with `timingSafeEqual`, against every key: timing
 * reveals neither a key nor its length, and the salt keeps even the digests being compared
 * unknown to the caller. A digest is written as hex into one buffer kept for the comparison, so a
 * check allocates no buffer.
 */
export function createKeyAuthenticator(keys: readonly string[]): Authenticate;
export function createKeyAuthenticator<P extends object>(keys: ReadonlyMap<string, P>): Authenticate<P>;
export function createKeyAuthenticator<P extends object>(
  keys: readonly string[] | ReadonlyMap<string, P>,
): Authenticate | Authenticate<P> {
  const entries: [string, P | true][] = Array.isArray(keys)
    ? keys.map((key) => [key, true])
    : [...(keys as ReadonlyMap<string, P>)];
  const salt = randomBytes(16).toString("base64");
  const known = entries.map(([key]) => Buffer.from(digest(salt, key), "latin1"));
  const candidate = Buffer.alloc(DIGEST_LENGTH);
  return ((credential: string) => {
    candidate.write(digest(salt, credential), "latin1");
    let found = -1;
    for (let i = 0; i < known.length; i++)
      if (timingSafeEqual(known[i] as Buffer, candidate) && found === -1) found = i;
    return found === -1 ? false : (entries[found] as [string, P | true])[1];
  }) as Authenticate | Authenticate<P>;
}

/** The length of a SHA-256 digest in hex. */
const DIGEST_LENGTH = 64;

function digest(salt: string, value: string): string {
  return hash("sha256", salt + value, "hex");
}
