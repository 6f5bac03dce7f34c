/**
 * `discriminator.defaultMapping` (OpenAPI 3.2) through the generated validators and types
 * (test/fixtures/discriminator/default-mapping.yaml): an object whose tag is absent, or one nothing maps,
 * is judged by the default schema, and the types let the default's tag be absent while every
 * other schema the discriminator selects keeps its tag required.
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../../src/index.js";
import { repoRoot } from "../../support/paths.js";
import { typecheck } from "../../support/typecheck.js";

const dir = join(repoRoot, ".tmp", `discriminator-default-${process.pid}`);
const out = join(dir, "generated");

type Validate = (value: unknown) => { valid: boolean; errors?: readonly { message: string }[] };

beforeAll(async () => {
  const result = await generate({ spec: "test/fixtures/discriminator/default-mapping.yaml", out });
  expect(result.diagnostics).toEqual([]);
}, 120_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

async function validator(name: string): Promise<Validate> {
  const module = (await import(join(out, "validators", "index.ts"))) as Record<string, Validate>;
  const validate = module[name];
  if (validate === undefined) throw new Error(`the generated validators have no ${name}`);
  return validate;
}

describe("the generated validators with a defaultMapping", () => {
  it("judge an object without its tag, or with a tag nothing maps, by the default schema", async () => {
    const validateShape = await validator("validateShape");
    expect(validateShape({ kind: "circle", radius: 2 }).valid).toBe(true);
    expect(validateShape({ strokes: 3 }).valid).toBe(true);
    expect(validateShape({ kind: "doodle", strokes: 1 }).valid).toBe(true);
    expect(validateShape({ strokes: 0 }).errors?.map((e) => e.message)).toEqual(["/strokes must be >= 1"]);
    expect(validateShape({ kind: "doodle" }).errors?.map((e) => e.message)).toEqual([
      "must have required property 'strokes'",
    ]);
  });

  it("still judge a mapped tag by its own schema only", async () => {
    const validateShape = await validator("validateShape");
    expect(validateShape({ kind: "square", strokes: 3 }).errors?.map((e) => e.message)).toEqual([
      "must have required property 'side'",
    ]);
  });

  it("check a request body and an answer of the operations that use it", async () => {
    const { routes } = (await import(join(out, "routes.ts"))) as {
      routes: Record<string, { validators: { body?: Record<string, Validate>; responses?: Record<string, Validate> } }>;
    };
    const body = routes.addShape?.validators.body?.["application/json"];
    expect([body?.({ strokes: 2 }).valid, body?.({ kind: "circle" }).valid]).toEqual([true, false]);
    expect(routes.addShape?.validators.responses?.["201"]?.({ kind: "doodle", strokes: 4 }).valid).toBe(true);
    const answer = await validator("validateListNoticesResponse200");
    expect(answer([{ text: "plain" }, { level: "alert", text: "!", code: 3 }]).valid).toBe(true);
  });
});

const usage = `
import type { Alert, Circle, Info, Shape, Sketch } from "./generated/types.js";

// the default's tag may be absent, or any string its own schema allows
export const untagged: Shape = { strokes: 3 };
export const sketch: Sketch = { kind: "doodle", strokes: 1 };
export const info: Info = { text: "no level" };
export const leveled: Info = { level: "info", text: "with one", link: "/help" };
export const circle: Shape = { kind: "circle", radius: 1 };
export const alert: Alert = { level: "alert", text: "!", code: 3 };

// @ts-expect-error a schema the mapping names keeps its tag required
export const untaggedCircle: Circle = { radius: 1 };
// @ts-expect-error an inheriting schema the mapping names keeps its tag required too
export const untaggedAlert: Alert = { text: "!", code: 3 };
// @ts-expect-error the default's own properties still count
export const noStrokes: Sketch = { kind: "doodle" };

export function area(shape: Shape): number {
  return shape.kind === "circle" && "radius" in shape ? Math.PI * shape.radius ** 2 : 0;
}
`;

describe("the generated types with a defaultMapping", () => {
  it("let the default schema's tag be absent and keep the others' required", { timeout: 120_000 }, async () => {
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "usage.ts"), usage);
    expect(typecheck([join(dir, "usage.ts")])).toEqual([]);
  });
});
