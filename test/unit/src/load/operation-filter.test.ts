/**
 * Operation filters (`--include-operation`, `--exclude-operation`): the operations selected by
 * operationId, `tag:NAME` or `path:GLOB`, chosen before the document is checked, so what is left
 * out (an invalid operation, a path that repeats another's template, a schema that does not
 * compile, a duplicate operationId) keeps nothing else from generating; what only the operations
 * left out use is left out too. A selector that names nothing is an error with the nearest names.
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { buildModel, GenerationFailed, generate, loadSpec, type OperationSelection } from "../../../../src/index.js";
import { repoRoot } from "../../../support/paths.js";

const out = join(repoRoot, ".tmp", `operation-filter-${process.pid}`);
afterAll(() => rm(out, { recursive: true, force: true }));

const ok = {
  "200": { description: "OK.", content: { "application/json": { schema: { $ref: "#/components/schemas/Item" } } } },
};
const operation = (operationId: string, tags: string[] = [], responses: object = ok) => ({
  operationId,
  tags,
  responses,
});

/** A document with faults that only the operations a filter leaves out have. */
const DOCUMENT = {
  openapi: "3.1.0",
  info: { title: "Filters", version: "1" },
  paths: {
    "/items": { get: operation("listItems", ["items"]), post: operation("createItem", ["items", "admin"]) },
    "/items/{id}": {
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
      get: operation("getItem", ["items"]),
    },
    // the same template as /items/{id}, and a GET too: refused unless one of the two is left out
    "/items/{sku}": {
      get: {
        ...operation("getItemBySku", ["legacy"], {
          "200": {
            description: "OK.",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Broken" } } },
          },
        }),
        parameters: [{ name: "sku", in: "path", required: true, schema: { type: "string" } }],
      },
    },
    // an invalid Response Object (no description), and an operationId that listItems has
    "/legacy/items": { get: operation("listItems", ["legacy"], { "200": { content: {} } }) },
    "/admin/audit": { $ref: "#/components/pathItems/Audit" },
  },
  webhooks: {
    itemChanged: {
      post: { operationId: "itemChanged", tags: ["items"], responses: { "204": { description: "Taken." } } },
    },
  },
  components: {
    schemas: {
      Item: { type: "object", properties: { id: { type: "string" } } },
      // a type name that is no type: only getItemBySku uses it
      Broken: { type: "strnig" },
      Unused: { type: "object" },
    },
    pathItems: {
      Audit: { get: operation("readAudit", ["admin"]), delete: operation("clearAudit", ["admin"]) },
    },
  },
};

async function load(selection: OperationSelection, document: object = DOCUMENT) {
  const loaded = await loadSpec("filters.yaml", stringify(document), undefined, selection);
  return { loaded, model: buildModel(loaded, "filters.yaml").model };
}

async function refusal(selection: OperationSelection, document: object = DOCUMENT): Promise<string[]> {
  return loadSpec("filters.yaml", stringify(document), undefined, selection).then(
    () => expect.fail("the document loaded"),
    (thrown: unknown) => {
      expect(thrown).toBeInstanceOf(GenerationFailed);
      return (thrown as GenerationFailed).diagnostics.map((d) => `${d.code} ${d.message}`);
    },
  );
}

const ids = (model: { operations: readonly { id: string }[]; webhooks: readonly { id: string }[] }) => [
  ...model.operations.map((o) => o.id),
  ...model.webhooks.map((w) => `webhook ${w.id}`),
];

describe("operation filters", () => {
  it("the document as it is is refused, for the faults of the operations the filters below leave out", async () => {
    expect((await refusal({})).join("\n")).toMatch(
      /OAS_INVALID .*legacy~1items.* must have required property 'description'/,
    );
  });

  it("exclude by tag: the faulty operations left out, the rest generated, and what only they used", async () => {
    const { loaded, model } = await load({ exclude: ["tag:legacy"] });
    expect(ids(model)).toEqual([
      "clearAudit",
      "createItem",
      "getItem",
      "listItems",
      "readAudit",
      "webhook itemChanged",
    ]);
    expect(Object.keys((loaded.document.components as { schemas: object }).schemas)).toEqual(["Item"]);
    expect(loaded.diagnostics).toEqual([]);
  });

  it("include by operationId, tag and path glob; the webhooks only where selected", async () => {
    expect(ids((await load({ include: ["getItem", "tag:admin"] })).model)).toEqual([
      "clearAudit",
      "createItem",
      "getItem",
      "readAudit",
    ]);
    expect(ids((await load({ include: ["path:/items", "itemChanged"] })).model)).toEqual([
      "createItem",
      "listItems",
      "webhook itemChanged",
    ]);
    expect(ids((await load({ include: ["path:/items/*"], exclude: ["getItemBySku"] })).model)).toEqual(["getItem"]);
    expect(ids((await load({ include: ["path:/**/audit"] })).model)).toEqual(["clearAudit", "readAudit"]);
  });

  it("leaves one operation of a Path Item given by $ref out: the Path Item is written in place without it", async () => {
    const { loaded, model } = await load({ include: ["readAudit"] });
    expect(ids(model)).toEqual(["readAudit"]);
    const paths = loaded.document.paths as Record<string, Record<string, unknown>>;
    expect(Object.keys(paths["/admin/audit"] ?? {})).toEqual(["get"]);
    expect(loaded.document.components).toEqual({ schemas: { Item: DOCUMENT.components.schemas.Item } });
  });

  it("copies what a kept operation refers to inside an operation left out", async () => {
    const shared = structuredClone(DOCUMENT) as unknown as { paths: Record<string, unknown> };
    shared.paths["/items/{id}"] = {
      get: { ...operation("getItem"), parameters: [{ $ref: "#/paths/~1items~1%7Bsku%7D/get/parameters/0" }] },
    };
    shared.paths["/items/{sku}"] = {
      get: {
        ...operation("getItemBySku"),
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string", minLength: 3 } }],
      },
    };
    const { model } = await load({ exclude: ["getItemBySku", "tag:legacy"] }, shared);
    expect(model.operations.find((o) => o.id === "getItem")?.parameters.path.map((p) => p.name)).toEqual(["id"]);
  });

  it("refuses a selector that names nothing, with the nearest names the document has", async () => {
    expect(
      await refusal({ include: ["getitems", "tag:Admin", "path:/item/*"], exclude: ["tag:nothing-like-it"] }),
    ).toEqual([
      'OPERATION_FILTER_INVALID the operation filter "getitems" names no operation of the document; the nearest: getItem, listItems, getItemBySku',
      'OPERATION_FILTER_INVALID the operation filter "tag:Admin" names no tag of the document; the nearest: tag:admin, tag:items, tag:legacy',
      'OPERATION_FILTER_INVALID the operation filter "path:/item/*" matches no path of the document; the nearest: path:/items, path:/items/{id}, path:/items/{sku}',
      expect.stringMatching(/^OPERATION_FILTER_INVALID the operation filter "tag:nothing-like-it" names no tag/),
    ]);
    expect(await refusal({ include: ["tag:admin"], exclude: ["tag:admin"] })).toEqual([
      "OPERATION_FILTER_INVALID the operation filters leave no operation to generate",
    ]);
  });

  it("reads the operations of a Path Item in another file", async () => {
    const folder = join(out, "multi-file");
    await mkdir(folder, { recursive: true });
    const audit = JSON.stringify(DOCUMENT.components.pathItems.Audit).replaceAll(
      '"#/components',
      '"./openapi.yaml#/components',
    );
    await writeFile(join(folder, "audit.yaml"), stringify(JSON.parse(audit)));
    const document = {
      ...DOCUMENT,
      paths: { "/items": DOCUMENT.paths["/items"], "/admin/audit": { $ref: "./audit.yaml" } },
    };
    await writeFile(join(folder, "openapi.yaml"), stringify(document));
    const generated = await generate({
      spec: join(folder, "openapi.yaml"),
      out: join(folder, "out"),
      operations: { include: ["readAudit", "listItems"] },
    });
    expect(ids(generated.model)).toEqual(["listItems", "readAudit"]);
  });
});

/** An OpenAPI 3.2 document whose Path Items hold `query` and `additionalOperations` operations, one given by `$ref`. */
const METHODS_32 = {
  openapi: "3.2.0",
  info: { title: "Methods", version: "1" },
  paths: {
    "/items": {
      get: operation("listItems", ["items"]),
      query: operation("searchItems", ["items"]),
      additionalOperations: {
        PURGE: operation("purgeItems", ["admin"]),
        LINK: operation("linkItems", ["items"]),
      },
    },
    "/cache": { $ref: "#/components/pathItems/Cache" },
  },
  components: {
    schemas: { Item: { type: "object", properties: { id: { type: "string" } } } },
    pathItems: {
      Cache: {
        get: operation("readCache", ["cache"]),
        additionalOperations: { PURGE: operation("purgeCache", ["cache", "admin"]) },
      },
    },
  },
};

describe("operation filters on the methods of additionalOperations", () => {
  it("select them by operationId, tag and path as the fixed methods", async () => {
    expect(ids((await load({ include: ["purgeItems"] }, METHODS_32)).model)).toEqual(["purgeItems"]);
    expect(ids((await load({ include: ["tag:admin"] }, METHODS_32)).model)).toEqual(["purgeCache", "purgeItems"]);
    expect(ids((await load({ include: ["path:/items"], exclude: ["tag:admin"] }, METHODS_32)).model)).toEqual([
      "linkItems",
      "listItems",
      "searchItems",
    ]);
  });

  it("take an operation left out from additionalOperations, the field with its last one", async () => {
    const { loaded } = await load({ exclude: ["purgeItems", "purgeCache"] }, METHODS_32);
    const paths = loaded.document.paths as Record<string, Record<string, unknown>>;
    expect(Object.keys(paths["/items"]?.additionalOperations ?? {})).toEqual(["LINK"]);
    // a Path Item given by $ref is written in place without it
    expect(paths["/cache"]).toEqual({ get: operation("readCache", ["cache"]) });
  });

  it("name the operationIds of additionalOperations among the nearest", async () => {
    expect(await refusal({ include: ["purgeItem"] }, METHODS_32)).toEqual([
      'OPERATION_FILTER_INVALID the operation filter "purgeItem" names no operation of the document; the nearest: purgeItems, purgeCache, linkItems',
    ]);
  });

  it("keep a schema that only a discriminator's defaultMapping names", async () => {
    const document = structuredClone(METHODS_32) as unknown as {
      paths: Record<string, Record<string, unknown>>;
      components: { schemas: Record<string, unknown> };
    };
    document.components.schemas.Entry = {
      anyOf: [{ $ref: "#/components/schemas/Item" }],
      discriminator: { propertyName: "kind", defaultMapping: "Fallback" },
    };
    document.components.schemas.Fallback = { type: "object", required: ["raw"] };
    const linked = document.paths["/items"]?.additionalOperations as Record<string, Record<string, unknown>>;
    linked.LINK = operation("linkItems", ["items"], {
      "200": {
        description: "OK.",
        content: { "application/json": { schema: { $ref: "#/components/schemas/Entry" } } },
      },
    });
    const { loaded } = await load({ include: ["linkItems"] }, document);
    expect(Object.keys((loaded.document.components as { schemas: object }).schemas)).toEqual([
      "Item",
      "Entry",
      "Fallback",
    ]);
  });
});
