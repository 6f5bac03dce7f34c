import type { FastifyInstance } from "fastify";
import { describe, expect, it } from "vitest";
import { buildApiServer } from "../../../runtime/server/app.js";
import { listenSettingsOf, parsePort } from "../../../runtime/server/runtime/listen.js";
import { apiKey, route } from "../support/routes.js";

const ROUTES = { getThings: route({ security: [[apiKey("header", "X-Secret")]] }) };

/** A plugin answering GET /things under the base path it is given, as the generated registerRoutes does. */
function registerThings(app: FastifyInstance, options: { readonly basePath?: string }): Promise<void> {
  app.get(`${options.basePath ?? "/api"}/things`, async () => ({ things: [] }));
  return Promise.resolve();
}

describe("buildApiServer", () => {
  it("serves the routes the api's plugin registers, with problem answers outside them", async () => {
    const app = await buildApiServer({ routes: ROUTES, basePath: "/api", registerRoutes: registerThings }, {});
    expect((await app.inject({ url: "/api/things" })).json()).toEqual({ things: [] });
    const outside = await app.inject({ url: "/elsewhere" });
    expect(outside.statusCode).toBe(404);
    expect(outside.headers["content-type"]).toContain("application/problem+json");
    await app.close();
  });

  it("passes the options on to the plugin, the base path among them", async () => {
    const app = await buildApiServer(
      { routes: ROUTES, basePath: "/api", registerRoutes: registerThings },
      { basePath: "/v2" },
    );
    expect((await app.inject({ url: "/v2/things" })).statusCode).toBe(200);
    await app.close();
  });
});

describe("listenSettingsOf", () => {
  it("reads HOST, PORT and API_KEYS, with defaults", async () => {
    expect(listenSettingsOf({})).toMatchObject({ host: "127.0.0.1", port: 3000 });
    expect(listenSettingsOf({ HOST: "0.0.0.0", PORT: "0" })).toMatchObject({ host: "0.0.0.0", port: 0 });
    const open = listenSettingsOf({}).authenticate;
    const closed = listenSettingsOf({ API_KEYS: " one , two,," }).authenticate;
    const scheme = apiKey("header", "X-Key");
    expect(await open("anything", {} as never, scheme)).toBe(true);
    expect(await closed("two", {} as never, scheme)).toBe(true);
    expect(await closed("three", {} as never, scheme)).not.toBe(true);
  });

  it("refuses a PORT that is not a port number", () => {
    for (const raw of ["x", "-1", "65536", "1.5"]) expect(() => parsePort(raw)).toThrow(/PORT must be a port number/);
    expect(parsePort("")).toBe(3000);
  });
});
