import { fastify } from "fastify";
import { describe, expect, it } from "vitest";
import { readCookies } from "../../../../runtime/server/runtime/cookies.js";
import {
  compileCookieReader,
  compileHeaderReader,
  compilePathReader,
  compileQueryReader,
  toRouterPath,
} from "../../../../runtime/server/runtime/parameters.js";
import { PROBLEM_TYPES, ProblemError } from "../../../../runtime/server/runtime/problems.js";
import { param } from "../support/routes.js";

describe("toRouterPath", () => {
  it.each([
    ["/things", { url: "/things" }],
    ["/", { url: "/" }],
    ["", { url: "" }],
    ["/workers/{id}/documents", { url: "/workers/:id/documents" }],
    ["/a/{first}/b/{second_2}", { url: "/a/:first/b/:second_2" }],
    ["/items?beta=true", { url: "/items" }],
    ["/items/{id}?beta=true", { url: "/items/:id" }],
    ["/time/12:30", { url: "/time/12::30" }],
    ["/x/{__proto__}", { url: "/x/:__proto__" }],
  ])("%j → %j", (template, expected) => {
    expect(toRouterPath(template)).toEqual(expected);
  });

  it.each([
    ["/users/{user-id}", "/users/:p0", [["p0", "user-id"]]],
    [
      "/a/{ok}/{not ok}",
      "/a/:ok/:p1",
      [
        ["ok", "ok"],
        ["p1", "not ok"],
      ],
    ],
    [
      "/a/{id}/b/{id}",
      "/a/:id/b/:p1",
      [
        ["id", "id"],
        ["p1", "id"],
      ],
    ],
    ["/a/{1st}", "/a/:p0", [["p0", "1st"]]],
    ["/a/{}", "/a/:p0", [["p0", ""]]],
    ["/a/{näme}", "/a/:p0", [["p0", "näme"]]],
  ])("renames the names the router cannot take: %j → %j", (template, url, renamed) => {
    expect(toRouterPath(template)).toEqual({ url, renamed });
  });

  it("bounds a parameter followed by a literal colon, so the router can tell them apart", () => {
    expect(toRouterPath("/files/{name}:download")).toEqual({ url: "/files/:name(^[^/:]+)::download" });
  });

  it("gives Fastify's router paths it matches as the template means", async () => {
    const app = fastify();
    const templates = ["/files/{name}:download", "/users/{user-id}/a:b", "/x/{__proto__}"];
    for (const template of templates) {
      const path = toRouterPath(template);
      const read = compilePathReader(path);
      app.get(path.url, (request) => ({ params: read(request.params), own: Object.keys(read(request.params)) }));
    }
    const body = async (url: string): Promise<unknown> => (await app.inject(url)).json();
    expect(await body("/files/report.pdf:download")).toEqual({ params: { name: "report.pdf" }, own: ["name"] });
    expect(await body("/users/u%201/a:b")).toEqual({ params: { "user-id": "u 1" }, own: ["user-id"] });
    expect(await body("/x/abc")).toEqual({ params: JSON.parse('{"__proto__":"abc"}'), own: ["__proto__"] });
    expect((await app.inject("/files/report.pdf")).statusCode).toBe(404);
    await app.close();
  });
});

describe("compilePathReader", () => {
  it("passes the router's parameters through when none was renamed", () => {
    const params = { id: "7" };
    expect(compilePathReader({ url: "/a/:id" })(params)).toBe(params);
  });

  it("keys renamed parameters by the spec's names, as own data keys", () => {
    const read = compilePathReader(toRouterPath("/a/{user-id}/{__proto__}"));
    const out = read(JSON.parse('{"p0":"u1","__proto__":"x"}'));
    expect(out).toEqual(JSON.parse('{"user-id":"u1","__proto__":"x"}'));
    expect(Object.hasOwn(out, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });

  it("lets the later of two same-named parameters win", () => {
    expect(compilePathReader(toRouterPath("/a/{id}/b/{id}"))({ id: "1", p1: "2" })).toEqual({ id: "2" });
  });
});

describe("compileQueryReader", () => {
  const read = (parameters: Parameters<typeof compileQueryReader>[0], url: string): unknown =>
    compileQueryReader(parameters)(url);

  it("keeps only the declared parameters, keyed as the spec spells them", () => {
    expect(read([param("limit"), param("Sort")], "/things?limit=5&Sort=name&other=x&sort=y")).toEqual({
      limit: "5",
      Sort: "name",
    });
  });

  it.each(["/things", "/things?", "/things?&&", "/things?other=1"])("reads %j as no parameters", (url) => {
    expect(read([param("limit", { required: true })], url)).toEqual({});
  });

  it("decodes names and values: percent escapes, and + as a space; a malformed escape stays as sent", () => {
    const parameters = [param("q"), param("a b"), param("bad"), param("flag"), param("e")];
    expect(read(parameters, "/?q=%C3%A4+x%2By&a%20b=1&bad=%E0%A4%A&flag&e=")).toEqual({
      q: "ä x+y",
      "a b": "1",
      bad: "%E0%A4%A",
      flag: "",
      e: "",
    });
  });

  it("reads the query after the first ?, a later ? being part of it", () => {
    expect(read([param("q")], "/a?q=x?y")).toEqual({ q: "x?y" });
  });

  it("leaves a repeated scalar as its list, for the validator to refuse", () => {
    expect(read([param("limit")], "/?limit=1&limit=2")).toEqual({ limit: ["1", "2"] });
  });

  it.each([
    ["form, exploded", { style: "form", explode: true }, "tags=a&tags=b", ["a", "b"]],
    ["form, exploded, one value", { style: "form", explode: true }, "tags=a", ["a"]],
    ["form, exploded, values with commas", { style: "form", explode: true }, "tags=a,b&tags=c", ["a,b", "c"]],
    ["form, comma-separated", { style: "form", explode: false }, "tags=a,b,,c", ["a", "b", "", "c"]],
    ["form, comma-separated, repeated", { style: "form", explode: false }, "tags=a,b&tags=c", ["a", "b", "c"]],
    ["form, comma-separated, empty", { style: "form", explode: false }, "tags=", [""]],
    [
      "form, comma-separated, an encoded comma inside an item",
      { style: "form", explode: false },
      "tags=a%2Cb,c",
      ["a,b", "c"],
    ],
    ["spaceDelimited", { style: "spaceDelimited", explode: false }, "tags=a%20b", ["a", "b"]],
    [
      "spaceDelimited, a + for a space inside an item",
      { style: "spaceDelimited", explode: false },
      "tags=a+b%20c",
      ["a b", "c"],
    ],
    ["pipeDelimited", { style: "pipeDelimited", explode: false }, "tags=a|b|%C3%A4", ["a", "b", "ä"]],
    [
      "pipeDelimited, an encoded pipe inside an item",
      { style: "pipeDelimited", explode: false },
      "tags=a%7Cb|c",
      ["a|b", "c"],
    ],
    ["pipeDelimited, exploded", { style: "pipeDelimited", explode: true }, "tags=a|b", ["a|b"]],
    ["an unknown style, comma-separated", { style: "matrix", explode: false }, "tags=a,b", ["a", "b"]],
  ])("reads an array parameter, %s", (_label, style, query, expected) => {
    expect(read([param("tags", { array: true, ...style })], `/?${query}`)).toEqual({ tags: expected });
  });

  it.each([
    ["form", { explode: false }, "point=x,1,y,a%2Cb", { x: "1", y: "a,b" }],
    ["form, exploded: its declared properties", { explode: true }, "x=1&y=a%20b&z=3&point=no", { x: "1", y: "a b" }],
    ["pipeDelimited", { style: "pipeDelimited", explode: false }, "point=x|1|y|2", { x: "1", y: "2" }],
    ["spaceDelimited", { style: "spaceDelimited", explode: false }, "point=x%201%20y%20a+b", { x: "1", y: "a b" }],
    [
      "form, an odd count of items as its text, for the validator to refuse",
      { explode: false },
      "point=x,1,y",
      "x,1,y",
    ],
  ])("reads an object parameter, %s", (_label, style, query, expected) => {
    expect(read([param("point", { properties: ["x", "y"], ...style })], `/?${query}`)).toEqual({ point: expected });
  });

  it("leaves out an exploded form object none of whose properties is sent", () => {
    expect(read([param("point", { properties: ["x", "y"] })], "/?point=1&z=2")).toEqual({});
  });

  it("reads deepObject parameters, nested as URL-encoded forms are", () => {
    const parameters = [param("filter", { style: "deepObject" }), param("page", { style: "deepObject" })];
    const query =
      "filter[size]=2&filter[colour]=red&filter[colour]=blue&filter[a][b]=x&filter[ids][0]=1&filter[ids][1]=2&filter=ignored&filterx[y]=no&filter[z=no";
    expect(read(parameters, `/?${query}`)).toEqual({
      filter: { size: "2", colour: ["red", "blue"], a: { b: "x" }, ids: ["1", "2"] },
    });
  });

  it("reads a deepObject key at its literal brackets, an encoded bracket being part of the key; or, all encoded, at the decoded ones", () => {
    const parameters = [param("f", { style: "deepObject" })];
    expect(read(parameters, "/?f[a%20b]=%C3%A4&f[%5Bx%5D]=1")).toEqual({ f: { "a b": "ä", "[x]": "1" } });
    expect(read(parameters, "/?f%5Bsize%5D=2&f%5Br%5D%5Bmin%5D=3")).toEqual({ f: { size: "2", r: { min: "3" } } });
  });

  it("parses a parameter of style content as JSON, and leaves text that is not JSON as it is", () => {
    const parameters = [param("where", { style: "content" }), param("raw", { style: "content" })];
    expect(read(parameters, `/?where=${encodeURIComponent('{"a":[1,"ä"]}')}&raw=not+json`)).toEqual({
      where: { a: [1, "ä"] },
      raw: "not json",
    });
  });

  it("keeps __proto__ as an own data key, as a parameter name and as a deepObject key", () => {
    const out = read(
      [param("__proto__"), param("q", { style: "deepObject" })],
      "/?__proto__=1&q[__proto__]=2&q[constructor]=3",
    ) as Record<string, unknown>;
    expect(Object.hasOwn(out, "__proto__")).toBe(true);
    expect(Object.getOwnPropertyDescriptor(out, "__proto__")?.value).toBe("1");
    const q = out.q as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(q, "__proto__")?.value).toBe("2");
    expect(Object.getPrototypeOf(q)).toBe(Object.prototype);
    expect(q.constructor).toBe("3");
  });

  it("leaves out an absent parameter whose name is also a member of Object.prototype", () => {
    expect(
      read([param("limit"), param("toString"), param("constructor", { style: "deepObject" })], "/?other=1"),
    ).toEqual({});
  });
});

describe("compileHeaderReader", () => {
  it("reads Node's lower-cased names into the spec's spelling, declared headers only", () => {
    const read = compileHeaderReader([param("X-Request-ID"), param("If-Match")]);
    expect(read({ "x-request-id": "abc", "if-match": "", host: "x", "X-Request-ID": "ignored" })).toEqual({
      "X-Request-ID": "abc",
      "If-Match": "",
    });
  });

  it("leaves out missing headers", () => {
    expect(compileHeaderReader([param("X-A")])({})).toEqual({});
  });

  it.each([
    ["a,b", ["a", "b"]],
    [" a , b ,, c ", ["a", "b", "", "c"]],
    ["", [""]],
    ["ä,✓", ["ä", "✓"]],
  ])("splits an array header %j at commas → %j", (value, expected) => {
    expect(compileHeaderReader([param("X-Tags", { array: true })])({ "x-tags": value })).toEqual({
      "X-Tags": expected,
    });
  });

  it("keeps a header Node already gave as a list", () => {
    expect(compileHeaderReader([param("X-Tags", { array: true })])({ "x-tags": ["a, b", "c"] })).toEqual({
      "X-Tags": ["a, b", "c"],
    });
    expect(compileHeaderReader([param("Set-Cookie")])({ "set-cookie": ["a=1", "b=2"] })).toEqual({
      "Set-Cookie": ["a=1", "b=2"],
    });
  });

  it("parses a header of style content as JSON, and leaves text that is not JSON as it is", () => {
    const read = compileHeaderReader([param("X-Filter", { style: "content" }), param("X-Raw", { style: "content" })]);
    expect(read({ "x-filter": '{"a":[1,"b"]}', "x-raw": "a,b" })).toEqual({
      "X-Filter": { a: [1, "b"] },
      "X-Raw": "a,b",
    });
  });

  it("keys a header named __proto__ as an own data key", () => {
    const own = compileHeaderReader([param("__proto__")])(JSON.parse('{"__proto__":"x"}'));
    expect(Object.getOwnPropertyDescriptor(own, "__proto__")?.value).toBe("x");
    expect(Object.getPrototypeOf(own)).toBe(Object.prototype);
  });

  // Node's (and Fastify's) header object inherits from Object.prototype: an absent header declared
  // as "Constructor" or "__proto__" must not be read as Object / Object.prototype, which its
  // validator would refuse (a 400 for a request that left out an optional header).
  it("leaves out an absent header whose name is also a member of Object.prototype", () => {
    const read = compileHeaderReader([param("Constructor"), param("__proto__")]);
    expect(read({ host: "x" })).toEqual({});
    expect(Object.keys(read({}))).toEqual([]);
  });
});

describe("JSON in parameters, and cookies", () => {
  const nested = (levels: number): string => `${"[".repeat(levels)}${"]".repeat(levels)}`;

  /** The problem a reader threw. */
  function thrown(read: () => unknown): unknown {
    try {
      read();
    } catch (error) {
      if (error instanceof ProblemError) return error.problem;
      throw error;
    }
    throw new Error("expected a ProblemError");
  }

  it("refuses JSON in a query parameter, a header or a cookie nested deeper than a body may be, with 400", () => {
    const content = param("where", { style: "content" });
    const query = (levels: number) => compileQueryReader([content])(`/?where=${nested(levels)}`);
    const header = (levels: number) => compileHeaderReader([content])({ where: nested(levels) });
    const cookie = (levels: number) =>
      compileCookieReader([content], readCookies)({ cookie: `where=${nested(levels)}` });
    for (const read of [query, header, cookie]) expect(JSON.stringify(read(1000))).toContain(nested(1000));
    expect([thrown(() => query(1001)), thrown(() => header(7000)), thrown(() => cookie(1001))]).toEqual([
      {
        ...PROBLEM_TYPES.malformedRequest,
        detail: 'The query parameter "where" is nested more than 1000 levels deep.',
      },
      {
        ...PROBLEM_TYPES.malformedRequest,
        detail: 'The header parameter "where" is nested more than 1000 levels deep.',
      },
      { ...PROBLEM_TYPES.malformedRequest, detail: 'The cookie "where" is nested more than 1000 levels deep.' },
    ]);
  });

  it("decodes a cookie's percent escapes, and refuses one malformed or not UTF-8 with 400, as a path's", () => {
    const read = compileCookieReader([param("name"), param("tags", { array: true, explode: false })], readCookies);
    expect(read({ cookie: "name=%C3%A4%2C%25; tags=a%2Cb,c" })).toEqual({ name: "ä,%", tags: ["a,b", "c"] });
    for (const sent of ["%zz", "50%", "%C0%AF", "%FF", "%ED%A0%80", "%E2%82"])
      expect(
        thrown(() => read({ cookie: `name=${sent}` })),
        sent,
      ).toEqual({
        ...PROBLEM_TYPES.malformedRequest,
        detail:
          'The cookie "name" is not valid percent-encoded UTF-8: write a "%" as %25, and percent-encode its text as UTF-8.',
      });
    expect(thrown(() => read({ cookie: "tags=a,%FF" }))).toMatchObject({ status: 400 });
  });
});
