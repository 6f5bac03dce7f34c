/**
 * readOnly and writeOnly per direction in the generated types: a request type leaves readOnly
 * properties out, a response type writeOnly ones; the component type keeps them all. Checked by
 * compiling code against the types generated from the read-write fixture.
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generate } from "../../../src/index.js";
import { repoRoot } from "../../support/paths.js";
import { typecheck } from "../../support/typecheck.js";

const usage = `
import type { Account, CreateAccountBody, CreateAccountResponse201, ListOwnersResponse200 } from "./generated/types.js";

export const request: CreateAccountBody = { email: "a@example.com", password: "secret-1", owners: [{ name: "Ann" }] };
// @ts-expect-error readOnly "id" is not part of a request
export const requestWithId: CreateAccountBody = { id: "1", email: "a@example.com", password: "secret-1" };
// @ts-expect-error readOnly "id" of a nested owner is not part of a request either
export const nestedId: CreateAccountBody = { email: "a@example.com", password: "secret-1", owners: [{ id: "9", name: "Ann" }] };

export const response: CreateAccountResponse201 = { id: "1", createdAt: "2024-01-01T00:00:00Z", email: "a@example.com" };
// @ts-expect-error writeOnly "password" is not part of a response
export const leaked: CreateAccountResponse201 = { id: "1", email: "a@example.com", password: "secret-1" };
export const owners: ListOwnersResponse200 = [{ id: "9", name: "Ann" }];

export const everything: Account = { id: "1", email: "a@example.com", password: "secret-1" };
`;

describe("direction-specific types", () => {
  it("leave readOnly out of requests and writeOnly out of responses", { timeout: 120_000 }, async () => {
    const dir = join(repoRoot, ".tmp", `read-write-types-${process.pid}`);
    try {
      await generate({ spec: "test/fixtures/read-write/openapi.yaml", out: join(dir, "generated") });
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, "usage.ts"), usage);
      expect(typecheck([join(dir, "usage.ts")])).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
