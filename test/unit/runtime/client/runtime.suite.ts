import { describe, expect, it } from "vitest";
import { ApiError } from "../../../../runtime/client/errors.js";
import { Runtime, type ServerUrl, TableRuntime } from "../../../../runtime/client/runtime.js";
import { isDeclaredApiError } from "../../../../runtime/client/typed-errors.js";
import { content, refusing, route, stringProperties } from "../support/routes.js";

const json = content("application/json");
const ROUTES = {
  getThing: route({
    operationId: "getThing",
    path: "/things/{id}",
    pathParams: ["id"],
    responses: { "200": [json], "404": [json], "5XX": [json] },
  }),
  deleteThing: route({
    operationId: "deleteThing",
    method: "DELETE",
    path: "/things/{id}",
    pathParams: ["id"],
    responses: { "204": [], "409": [json] },
    validators: { body: {}, responses: { "409": stringProperties("reason") } },
  }),
};
/** The default base URL of a spec whose server is "{origin}/api/{version}", as the generator writes it. */
const serverUrl: ServerUrl = (variables) =>
  `${variables?.["origin"] ?? "http://localhost:3000"}/api/${variables?.["version"] ?? "v1"}`;

describe("Runtime", () => {
  it("calls an operation by its route, at the first server's URL", async () => {
    const urls: string[] = [];
    const fetch = async (url: string): Promise<Response> => {
      urls.push(url);
      return Response.json({ id: "8" });
    };
    const runtime = new Runtime(serverUrl, { fetch });
    expect(await runtime.call(ROUTES.getThing, { path: { id: "8" } }, undefined)).toEqual({ id: "8" });
    expect(urls).toEqual(["http://localhost:3000/api/v1/things/8"]);
  });

  it("with its route table (TableRuntime), calls the operations by key or by route", async () => {
    const urls: string[] = [];
    const fetch = async (url: string): Promise<Response> => {
      urls.push(url);
      return Response.json({ id: "7" });
    };
    const runtime = new TableRuntime(ROUTES, serverUrl, { fetch, serverVariables: { version: "v2" } });
    expect(await runtime.call("getThing", { path: { id: "7" } }, undefined)).toEqual({ id: "7" });
    expect(await runtime.call(ROUTES.getThing, { path: { id: "9" } }, undefined)).toEqual({ id: "7" });
    expect(urls).toEqual(["http://localhost:3000/api/v2/things/7", "http://localhost:3000/api/v2/things/9"]);
    await expect(runtime.call("listThings", undefined, undefined)).rejects.toThrow(
      'no operation "listThings" in the route table',
    );
  });

  it("makes its base URL from the server variables given, unless given a base URL, without a trailing slash", async () => {
    const urls: string[] = [];
    const fetch = async (url: string): Promise<Response> => {
      urls.push(url);
      return Response.json({ id: "1" });
    };
    const asked: unknown[] = [];
    const recorded: ServerUrl = (variables) => {
      asked.push(variables);
      return `${serverUrl(variables)}/`;
    };
    const variables = { origin: "https://example.test" };
    await new Runtime(recorded, { fetch, serverVariables: variables }).call(
      ROUTES.getThing,
      { path: { id: "1" } },
      undefined,
    );
    await new Runtime(recorded, { fetch, baseUrl: "https://given.test/v3//" }).call(
      ROUTES.getThing,
      { path: { id: "2" } },
      undefined,
    );
    expect(asked).toEqual([variables]);
    expect(urls).toEqual(["https://example.test/api/v1/things/1", "https://given.test/v3/things/2"]);
  });
});

describe("isDeclaredApiError", () => {
  const answer = (status: number) => new Response(null, { status });

  it("is true for an answer of a status the operation declares, exactly or by class", () => {
    expect(isDeclaredApiError(ROUTES, new ApiError("getThing", answer(404), undefined), "getThing")).toBe(true);
    expect(isDeclaredApiError(ROUTES, new ApiError("getThing", answer(503), undefined), "getThing")).toBe(true);
    expect(isDeclaredApiError(ROUTES, new ApiError("getThing", answer(409), undefined), "getThing")).toBe(false);
  });

  it("is false for another operation, another table's operation, or a body its status's schema refuses", () => {
    expect(isDeclaredApiError(ROUTES, new ApiError("getThing", answer(404), undefined), "deleteThing")).toBe(false);
    expect(isDeclaredApiError({}, new ApiError("getThing", answer(404), undefined), "getThing")).toBe(false);
    expect(
      isDeclaredApiError(ROUTES, new ApiError("deleteThing", answer(409), { reason: "in use" }), "deleteThing"),
    ).toBe(true);
    expect(isDeclaredApiError(ROUTES, new ApiError("deleteThing", answer(409), { reason: 1 }), "deleteThing")).toBe(
      false,
    );
    expect(
      isDeclaredApiError(
        {
          getThing: route({
            responses: { "404": [json] },
            validators: { body: {}, responses: { "404": refusing("no") } },
          }),
        },
        new ApiError("getThing", answer(404), {}),
        "getThing",
      ),
    ).toBe(false);
  });
});
