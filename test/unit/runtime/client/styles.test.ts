/**
 * Label and matrix path parameters and cookie parameters against OpenAPI's style table (the
 * `color` examples: "blue", ["blue", "black", "brown"], { R: 100, G: 200, B: 150 }): the client
 * writes each row's text (client/styles.ts) and the server reads it back (server/runtime/parameters.ts),
 * items holding the styles' own delimiters included; the client engine uses these writers only
 * when the route names them, and refuses a route written by hand that needs them otherwise.
 */
import { describe, expect, it } from "vitest";
import { fillPath, parameterEncoder } from "../../../../runtime/client/parameters.js";
import { Runtime } from "../../../../runtime/client/runtime.js";
import { cookieHeader, styledPathText, styleEncoder } from "../../../../runtime/client/styles.js";
import type { CallRoute, RouteParameter, Validator } from "../../../../runtime/route-types.js";
import { readCookies } from "../../../../runtime/server/runtime/cookies.js";
import {
  compileCookieReader,
  compileStyledPathReader,
  readStyledPath,
} from "../../../../runtime/server/runtime/parameters.js";
import { filledOrRefused } from "../support/routes.js";

const string = "blue";
const array = ["blue", "black", "brown"];
const object = { R: "100", G: "200", B: "150" };

function parameter(style: string, explode: boolean, shape: "string" | "array" | "object"): RouteParameter {
  return {
    name: "color",
    required: true,
    style,
    explode,
    array: shape === "array",
    ...(shape === "object" ? { properties: ["R", "G", "B"] } : {}),
  };
}

const TABLE: readonly (readonly [string, boolean, "string" | "array" | "object", unknown, string])[] = [
  ["label", false, "string", string, ".blue"],
  ["label", false, "array", array, ".blue,black,brown"],
  ["label", false, "object", object, ".R,100,G,200,B,150"],
  ["label", true, "string", string, ".blue"],
  ["label", true, "array", array, ".blue.black.brown"],
  ["label", true, "object", object, ".R=100.G=200.B=150"],
  ["matrix", false, "string", string, ";color=blue"],
  ["matrix", false, "array", array, ";color=blue,black,brown"],
  ["matrix", false, "object", object, ";color=R,100,G,200,B,150"],
  ["matrix", true, "string", string, ";color=blue"],
  ["matrix", true, "array", array, ";color=blue;color=black;color=brown"],
  ["matrix", true, "object", object, ";R=100;G=200;B=150"],
  ["matrix", false, "string", "", ";color"],
];

/** A route with a label path parameter and a cookie parameter, as the client engine calls it (its encoders named). */
const labelRoute: CallRoute = {
  operationId: "getX",
  method: "GET",
  path: "/x/{color}",
  pathParams: ["color"],
  pathStyles: [parameter("label", true, "array")],
  query: [],
  headers: [],
  cookies: [{ ...parameter("form", false, "string"), name: "session" }],
  responses: { "204": [] },
  security: [],
  validators: { body: {} },
  encoders: { parameters: parameterEncoder, styles: styleEncoder },
};

describe("label and matrix path parameters", () => {
  it.each(TABLE)(
    "%s, explode %s, %s: written as the table says and read back",
    (style, explode, shape, value, text) => {
      const p = parameter(style, explode, shape);
      expect(styledPathText(p, value)).toBe(text);
      expect(readStyledPath(p, text)).toEqual(value);
    },
  );

  it("reads a value without its prefix as missing, for the validator to refuse", () => {
    expect(readStyledPath(parameter("label", false, "string"), "blue")).toBeUndefined();
    expect(readStyledPath(parameter("matrix", false, "string"), "color=blue")).toBeUndefined();
    expect(readStyledPath(parameter("matrix", false, "string"), ";other=blue")).toBeUndefined();
  });

  it("keeps an item holding the style's own delimiters whole, read from the target as sent", () => {
    const items = ["a.b", "c,d", "e;f=g", "h i"];
    for (const [style, explode] of [
      ["label", true],
      ["label", false],
      ["matrix", true],
      ["matrix", false],
    ] as const) {
      const p = parameter(style, explode, "array");
      const text = styledPathText(p, items);
      expect(readStyledPath(p, text)).toEqual(items);
      const read = compileStyledPathReader("/x/{color}", [p]);
      // the router's value is decoded; the reader takes the target's text instead
      expect(read({ color: decodeURIComponent(text) }, `/api/x/${text}?q=1`)).toEqual({ color: items });
    }
    // a target the template does not match (a router option): the router's decoded value
    const reader = compileStyledPathReader("/x/{color}", [parameter("label", true, "array")]);
    expect(reader({ color: ".a.b" }, "/elsewhere")).toEqual({ color: ["a", "b"] });
  });

  it("refuses a label that would be a dot segment, written plainly or encoded", () => {
    const template = "/x/{color}";
    const styled = (_: string, value: unknown) => styledPathText(parameter("label", true, "array"), value);
    expect(filledOrRefused(() => fillPath("op", template, { color: [""] }, styled))).toEqual({ dotSegment: "color" });
    expect(filledOrRefused(() => fillPath("op", template, { color: ["."] }, styled))).toEqual({ dotSegment: "color" });
    expect(filledOrRefused(() => fillPath("op", template, { color: ["a", "."] }, styled))).toBe("/x/.a.%2E");
  });
});

describe("cookie parameters", () => {
  const parameters = [
    parameter("form", false, "string"),
    { ...parameter("form", false, "array"), name: "list" },
    { ...parameter("form", false, "object"), name: "rgb" },
    { ...parameter("content", false, "string"), name: "json" },
  ];
  const values = { color: "a;b c", list: ["x,y", "z"], rgb: object, json: { n: 1 } };

  it("are written as one Cookie header, each item percent-encoded, and read back", () => {
    const header = cookieHeader(parameters, values);
    expect(header).toBe("color=a%3Bb%20c; list=x%2Cy,z; rgb=R,100,G,200,B,150; json=%7B%22n%22%3A1%7D");
    expect(compileCookieReader(parameters, readCookies)({ cookie: header })).toEqual(values);
  });

  it("leaves out what has no value, and reads no header as no cookie", () => {
    expect(cookieHeader(parameters, { list: undefined })).toBe("");
    expect(compileCookieReader(parameters, readCookies)({})).toEqual({});
  });
});

/** A cookie validator written by hand: `session` required. */
const validateSession: Validator = (value) =>
  Object.hasOwn(value as object, "session")
    ? { valid: true, value }
    : {
        valid: false,
        errors: [
          { instancePath: "", schemaPath: "#/required", keyword: "required", params: {}, message: "is required" },
        ],
      };

describe("the client engine", () => {
  it("writes a route's label path and cookies with the style encoder it names, after the client's own cookie", async () => {
    const sent: [string, RequestInit][] = [];
    const fetch = async (url: string, init: RequestInit) => {
      sent.push([url, init]);
      return new Response(null, { status: 204 });
    };
    const options = { baseUrl: "http://127.0.0.1:1", fetch, headers: { cookie: "theme=dark" } };
    const runtime = new Runtime(() => "", options);
    await runtime.call(labelRoute, { path: { color: ["a", "b"] }, cookies: { session: "s;1" } }, undefined);
    expect(sent.map(([url, init]) => [url, (init.headers as Record<string, string>)["cookie"]])).toEqual([
      ["http://127.0.0.1:1/x/.a.b", "theme=dark; session=s%3B1"],
    ]);
  });

  it("writes and checks the cookies of a route whose only parameters are cookies through its parameter encoder", async () => {
    const sent: RequestInit[] = [];
    const fetch = async (_url: string, init: RequestInit) => {
      sent.push(init);
      return new Response(null, { status: 204 });
    };
    const validators = { body: {}, cookies: validateSession };
    const cookieRoute: CallRoute = { ...labelRoute, path: "/x", pathParams: [], pathStyles: undefined, validators };
    const runtime = new Runtime(() => "", { baseUrl: "http://127.0.0.1:1", fetch, validateRequests: true });
    await runtime.call(cookieRoute, { cookies: { session: "s" }, headers: { "X-Trace": 7 } }, undefined);
    expect(sent.map((init) => init.headers)).toEqual([{ cookie: "session=s", "x-trace": "7" }]);
    await expect(runtime.call(cookieRoute, { cookies: {} }, undefined)).rejects.toMatchObject({
      name: "RequestValidationError",
      errors: [{ in: "cookie", keyword: "required" }],
    });
    expect(sent).toHaveLength(1);
    const bare: CallRoute = { ...cookieRoute, encoders: { styles: styleEncoder } };
    await expect(runtime.call(bare, { cookies: { session: "s" } }, undefined)).rejects.toThrow(
      "getX: the route names no `encoders.parameters` (client/parameters.ts), which the operation needs",
    );
  });

  it("refuses such a route written by hand without a style encoder, rather than send it wrong", async () => {
    const runtime = new Runtime(() => "", { baseUrl: "http://127.0.0.1:1" });
    const bare: CallRoute = { ...labelRoute, encoders: { parameters: parameterEncoder } };
    await expect(runtime.call(bare, { path: { color: ["a"] } }, undefined)).rejects.toThrow(
      "getX: the route names no `encoders.styles` (client/styles.ts), which the operation needs",
    );
  });
});
