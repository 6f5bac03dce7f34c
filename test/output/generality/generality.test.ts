/**
 * Documents of shapes the generator met in the wild (test/fixtures/generality/, one defect each,
 * reduced from public API descriptions): each generates, its output typechecks under strict
 * settings, and its validators (and JSON Schemas) say what JSON Schema says; or, where the document
 * really is invalid, it is refused with one clear diagnostic per fault.
 */
import { cp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Diagnostic, GenerationFailed, generate } from "../../../src/index.js";
import { repoRoot } from "../../support/paths.js";
import { listTypeScript, typecheck } from "../../support/typecheck.js";

/** The fixtures that generate, and the warnings each must give (code and the start of the message). */
const GENERATING: Readonly<Record<string, readonly (readonly [string, RegExp])[]>> = {
  "1.yaml": [
    ["OPERATION_ID_MISSING", /GET \/a/],
    ["OPERATION_ID_MISSING", /GET \/b/],
  ],
  "1-multifile/main.yaml": [
    ["OPERATION_ID_MISSING", /GET \/a/],
    ["OPERATION_ID_MISSING", /GET \/b/],
  ],
  "2.yaml": [],
  "2-3.1.yaml": [],
  "3.yaml": [],
  "3b.yaml": [["OPERATION_ID_MISSING", /GET \/tree/]],
  "4.yaml": [],
  "5.yaml": [["PATTERN_WITHOUT_UNICODE", /the pattern "\^\[a-z0-9_\\\\-\\\\:\]\+\$" does not compile with the u flag/]],
  "6.yaml": [],
  "9-webhooks-only.yaml": [["OPERATION_ID_MISSING", /^webhook "REFUND" \(POST\) has no operationId/]],
  "8.yaml": [["OPERATION_ID_MISSING", /GET \/items\/\{id\}/]],
  "10-styles-and-cookies.yaml": [],
  // named like one of the route table's types, which the package root exports beside the schemas'
  // (Credentials), and like one it no longer exports (PathTemplate), which keeps its name
  "13-schema-named-like-route-type.yaml": [
    ["NAME_ADJUSTED", /^schema "Credentials": generated name "CredentialsSchema" instead of "Credentials"/],
  ],
};

const out = join(repoRoot, ".tmp", `generality-${process.pid}`);
const warnings = new Map<string, readonly Diagnostic[]>();

beforeAll(async () => {
  for (const fixture of Object.keys(GENERATING)) {
    const result = await generate({
      spec: join(repoRoot, "test/fixtures/generality", fixture),
      out: join(out, fixture.replace(/\W/g, "_")),
    });
    warnings.set(fixture, result.diagnostics);
  }
  const styles = join(out, "10_styles_and_cookies_yaml", "checks");
  await mkdir(styles, { recursive: true });
  await writeFile(join(styles, "typed.ts"), STYLES_CHECK);
}, 120_000);

/**
 * Cookie parameters and label and matrix path parameters, typed for the handlers, the client, the
 * webhook handlers and the sender as their schemas say (typechecked with the output).
 */
const STYLES_CHECK = `import type { Client } from "../client/client.js";
import type { Handlers } from "../server/handlers.js";
import type { WebhookHandlers } from "../webhooks/handlers.js";
import type { WebhookSender } from "../webhooks/sender.js";

export const handlers: Pick<Handlers, "getSession" | "getLabel"> = {
  getSession: ({ cookies }) => ({ status: 200, body: { session: cookies.session.length, visits: cookies.visits ?? 0 } }),
  getLabel: ({ params }) => ({ status: 200, body: { id: params.id + 1, tags: params.tags.join(), x: params.point.x } }),
};
export const hook: WebhookHandlers["loginHook"] = ({ cookies }) => ({ status: 204, headers: { "x-session": cookies.session } });
export const calls = (client: Client, sender: WebhookSender) => [
  client.getSession({ cookies: { session: "abcd", visits: 1, flags: ["a"], prefs: { theme: "dark" } } }),
  client.getMatrix({ path: { id: "ab", tags: [1], spread: ["x"], point: { x: 1 } } }),
  sender.loginHook({ cookies: { session: "s" } }),
  // @ts-expect-error a cookie of the wrong type
  client.getSession({ cookies: { session: 1 } }),
  // @ts-expect-error a required cookie left out
  client.getSession({ cookies: {} }),
];
`;
afterAll(() => rm(out, { recursive: true, force: true }));

/** The validators generated from a fixture. */
async function validators(fixture: string): Promise<Record<string, (value: unknown) => { valid: boolean }>> {
  return (await import(join(out, fixture.replace(/\W/g, "_"), "validators", "index.ts"))) as Record<
    string,
    (value: unknown) => { valid: boolean }
  >;
}

describe("documents met in the wild", () => {
  it.each(Object.entries(GENERATING))("%s generates, with the warnings it deserves", (fixture, expected) => {
    const found = (warnings.get(fixture) ?? []).map((d) => [d.code, d.message] as const);
    expect(found.map(([code]) => code)).toEqual(expected.map(([code]) => code));
    for (const [index, [, message]] of found.entries()) expect(message).toMatch(expected[index]?.[1] ?? /^$/);
  });

  it("all of their output typechecks under strict settings", { timeout: 120_000 }, () => {
    expect(typecheck(listTypeScript(out))).toEqual([]);
  });

  it.each([
    ["1.yaml", "validateItem", [{ id: "x" }, {}], [{ id: 1 }, []]],
    ["1-multifile/main.yaml", "validateGetBResponse200", [{ data: { id: "x" } }], [{ data: { id: 2 } }]],
    ["2.yaml", "validateDerived", [null, { a: "x" }], [{}, { a: 1 }, 3]],
    ["2-3.1.yaml", "validateDerived", [null, { a: "x" }], [{}, { a: 1 }, 3]],
    ["3.yaml", "validateEvent", [{ kind: "created" }, {}], [{ kind: "updated" }]],
    ["3b.yaml", "validateForest", [[], [{ children: [{ children: [] }] }]], [[{ children: [1] }], [{ children: {} }]]],
    ["4.yaml", "validateEvent", [{ kind: "deleted" }], [{ kind: "nope" }]],
    ["5.yaml", "validateTagName", ["a:b", "x-y_z"], ["A", "a b", ""]],
  ] as const)("%s: %s accepts and refuses as JSON Schema says", async (fixture, name, valid, invalid) => {
    const validate = (await validators(fixture))[name];
    expect(validate, `${fixture} exports ${name}`).toBeTypeOf("function");
    for (const value of valid) expect(validate?.(value).valid, JSON.stringify(value)).toBe(true);
    for (const value of invalid) expect(validate?.(value).valid, JSON.stringify(value)).toBe(false);
  });

  it("writes JSON Schemas that a JSON Schema validator resolves: anchors, recursion outside the components", async () => {
    const { jsonSchemas } = (await import(join(out, "3_yaml", "json-schemas.ts"))) as {
      jsonSchemas: Record<string, object>;
    };
    const validate = new Ajv2020({ strict: false }).compile(jsonSchemas.Event as object);
    expect([validate({ kind: "created" }), validate({ kind: "updated" })]).toEqual([true, false]);
    const forest = (
      (await import(join(out, "3b_yaml", "json-schemas.ts"))) as {
        jsonSchemas: Record<string, { $defs: Record<string, unknown> }>;
      }
    ).jsonSchemas.Forest;
    expect(Object.keys(forest?.$defs ?? {})).toEqual([
      "Forest",
      "components/responses/Tree/content/application~1json/schema",
    ]);
  });

  it("routes an operation with a matrix path parameter, the style listed for the client and server", async () => {
    const { routes } = (await import(join(out, "8_yaml", "routes.ts"))) as {
      routes: Record<string, { pathStyles?: readonly { name: string; style: string }[] }>;
    };
    expect(routes["getItemsById"]?.pathStyles).toEqual([
      { name: "id", required: true, style: "matrix", explode: false, array: false },
    ]);
  });
});

describe("a multi-file document (test/fixtures/multi-file)", () => {
  it("names each schema of another file after what names it, and --check follows every file", async () => {
    const copy = join(out, "multi-file-copy");
    await cp(join(repoRoot, "test/fixtures/multi-file"), copy, { recursive: true });
    const spec = join(copy, "openapi.yaml");
    const generated = await generate({ spec, out: join(out, "multi-file-out") });
    expect(generated.model.schemas.map((schema) => [schema.name, schema.typeName])).toEqual([
      ["Category", "Category"],
      ["Currency", "Currency"],
      ["Customer", "Customer"],
      ["Order", "Order"],
      ["OrderCreate", "OrderCreate"],
      ["OrderLine", "OrderLine"],
      ["Price", "Price"],
      ["customer-id", "CustomerId"],
    ]);
    expect(generated.sources.map((file) => file.slice(copy.length + 1)).sort()).toEqual([
      "openapi.yaml",
      "parameters/customer-id.yaml",
      "schemas/Category.yaml",
      "schemas/common/customer-id.yaml",
      "schemas/common/money.yaml",
      "schemas/customers/Customer.yaml",
      "schemas/orders/Order.yaml",
      "schemas/orders/OrderCreate.yaml",
      "schemas/orders/OrderLine.yaml",
    ]);
    expect((await generate({ spec, out: join(out, "multi-file-out"), check: true })).drift).toEqual({
      changed: [],
      missing: [],
      stale: [],
    });
    const line = join(copy, "schemas/orders/OrderLine.yaml");
    await writeFile(line, (await readFile(line, "utf8")).replace("minimum: 1", "minimum: 2"));
    const drift = (await generate({ spec, out: join(out, "multi-file-out"), check: true })).drift;
    expect(drift?.changed).toEqual(expect.arrayContaining(["validators/index.ts"]));
  });
});

describe("invalid documents met in the wild", () => {
  it("7.yaml, operations given as a $ref: refused with one message per misplaced $ref", async () => {
    const error = await generate({
      spec: join(repoRoot, "test/fixtures/generality/7.yaml"),
      out: join(out, "7"),
      check: true,
    }).then(
      () => expect.fail("7.yaml generated"),
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(GenerationFailed);
    const diagnostics = (error as GenerationFailed).diagnostics.map((d) => [
      d.code,
      d.location?.pointer,
      d.location?.line,
      d.message,
    ]);
    expect(diagnostics).toEqual(
      ["/a/get", "/a/delete", "/b/get"].map((operation, index) => {
        const pointer = `#/paths/~1${operation.slice(1).replace("/", "/")}`;
        return [
          "OAS_INVALID",
          pointer,
          [6, 8, 11][index],
          `${pointer} is a $ref, but OpenAPI allows no Reference Object here: inline the object`,
        ];
      }),
    );
  });
});
