/**
 * Key digests (sandbox/store/schema/key-digests.ts): HMAC-SHA-256 made from copies of the secret's two
 * starting hashes gives the bytes Node's own HMAC gives, for secrets shorter than, as long as and
 * longer than SHA-256's block, for any key, and when the secret changes between digests.
 */
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { keyDigest } from "../../../../../sandbox/store/schema/key-digests.js";

const hmac = (secret: string, key: string): string => createHmac("sha256", secret).update(key, "utf8").digest("hex");

describe("keyDigest", () => {
  const secrets = [
    "",
    "s",
    "a".repeat(63),
    "b".repeat(64),
    "c".repeat(65),
    "é".repeat(32),
    "d".repeat(500),
    "0f".repeat(32),
  ];
  const keys = ["", "demo-key-harbor", "ключ-🔑", "k".repeat(1000), "\u0000"];

  it("gives the bytes of HMAC-SHA-256 under the secret, for every secret and key", () => {
    for (const secret of secrets)
      for (const key of keys) expect(keyDigest(secret, key), `${secret.length} ${key.length}`).toBe(hmac(secret, key));
  });

  it("gives each secret's digest when secrets alternate, and the same digest every time", () => {
    for (let round = 0; round < 3; round++)
      for (const secret of secrets) expect(keyDigest(secret, "demo-key-harbor")).toBe(hmac(secret, "demo-key-harbor"));
  });
});
