import type { FastifyInstance } from "fastify";
import { describe, expect, it } from "vitest";
import { buildApiServer } from "../../../../runtime/server/app.js";
import { commandLineOf, listenSettingsOf, parsePort } from "../../../../runtime/server/runtime/listen.js";
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
    for (const raw of ["x", "-1", "65536", "1.5"])
      expect(() => parsePort(raw)).toThrow(`PORT must be a port number from 0 to 65535, not ${JSON.stringify(raw)}`);
    expect(parsePort("")).toBe(3000);
  });

  it("takes --port and --host over PORT and HOST", () => {
    const env = { HOST: "0.0.0.0", PORT: "4000" };
    expect(listenSettingsOf(env, ["--port", "4101", "--host=::1"])).toMatchObject({ host: "::1", port: 4101 });
    expect(listenSettingsOf(env, ["--port=0"])).toMatchObject({ host: "0.0.0.0", port: 0 });
    expect(() => listenSettingsOf(env, ["--port", "80a"])).toThrow(
      '--port must be a port number from 0 to 65535, not "80a"',
    );
  });
});

describe("commandLineOf", () => {
  const accepted = [
    ["--port N", "the port"],
    ["--host ADDRESS", "the address"],
  ] as const;
  const takes = "npm start takes --port N and --host ADDRESS (npm start -- --help says what each does)";

  it("reads each option once, with its value after it or after =", () => {
    expect(commandLineOf(["--port", "1", "--host=a=b"], "npm start", accepted)).toEqual({ port: "1", host: "a=b" });
    expect(commandLineOf(["--help"], "npm start", accepted)).toEqual({ help: "true" });
  });

  it.each([
    [["--prot", "4101"], "unknown option --prot"],
    [["--port"], "--port needs a value"],
    [["--port", "--host", "x"], "--port needs a value"],
    [["--port", "1", "--port=2"], "--port is given twice"],
    [["4101"], '"4101" is not an option'],
    [["-p", "4101"], '"-p" is not an option'],
  ])("refuses %j, saying what it takes", (argv, what) => {
    expect(() => commandLineOf(argv, "npm start", accepted)).toThrow(`${what}: ${takes}`);
  });

  it("says a command without options takes none", () => {
    expect(() => commandLineOf(["--force"], "npm run sandbox:reset", [])).toThrow(
      "unknown option --force: npm run sandbox:reset takes no options",
    );
  });
});
