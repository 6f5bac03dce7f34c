import { type FastifyInstance, fastify } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deepObjectQueryEncoder } from "../../../../runtime/client/deep-object.js";
import { headersAsSent, headerText, headerValue } from "../../../../runtime/client/headers.js";
import { fillPath, pathAsSent } from "../../../../runtime/client/parameters.js";
import { queryEncoder } from "../../../../runtime/client/query.js";
import { deepEntries, isPlainObject, scalar } from "../../../../runtime/client/values.js";
import type { RouteParameter } from "../../../../runtime/route-types.js";
import { compileHeaderReader, compileQueryReader } from "../../../../runtime/server/runtime/parameters.js";
import { filledOrRefused, param } from "../support/routes.js";

const DATE = new Date(Date.UTC(2024, 3, 20, 9, 30));

// the query encoder of every style, deepObject's included (query.ts and deep-object.ts)
const encodeQuery = deepObjectQueryEncoder.encode;
const queryAsSent = deepObjectQueryEncoder.asSent;

describe("scalar", () => {
  it.each<[unknown, string]>([
    ["text ✓", "text ✓"],
    ["", ""],
    [null, ""],
    [undefined, ""],
    [0, "0"],
    [-1.5, "-1.5"],
    [true, "true"],
    [DATE, "2024-04-20T09:30:00.000Z"],
    [{ a: [1, "x"] }, '{"a":[1,"x"]}'],
    [[1, 2], "[1,2]"],
  ])("%j → %j", (value, text) => {
    expect(scalar(value)).toBe(text);
  });

  it("writes a bigint in full", () => {
    expect(scalar(10n ** 20n)).toBe("100000000000000000000");
  });
});

describe("isPlainObject", () => {
  it.each<[unknown, boolean]>([
    [{}, true],
    [Object.create(null), true],
    [{ a: 1 }, true],
    [[], false],
    [DATE, false],
    [null, false],
    [undefined, false],
    ["{}", false],
    [1, false],
  ])("%j → %s", (value, expected) => {
    expect(isPlainObject(value)).toBe(expected);
  });
});

describe("fillPath", () => {
  const template = "/workers/{id}/files/{name}";

  it.each<[Record<string, unknown>, string]>([
    [{ id: 7, name: "cv.pdf" }, "/workers/7/files/cv.pdf"],
    [{ id: "a/b", name: "x y?#%" }, "/workers/a%2Fb/files/x%20y%3F%23%25"],
    [{ id: "ä✓", name: "" }, "/workers/%C3%A4%E2%9C%93/files/"],
    [{ id: [1, "a,b"], name: { k: "v w" } }, "/workers/1,a%2Cb/files/k,v%20w"],
    [{ id: DATE, name: false }, "/workers/2024-04-20T09%3A30%3A00.000Z/files/false"],
    [{ id: 0, name: "n", extra: "ignored" }, "/workers/0/files/n"],
  ])("%j → %j", (values, path) => {
    expect(filledOrRefused(() => fillPath("op", template, values))).toBe(path);
  });

  it.each<[Record<string, unknown>, string]>([
    [{}, "id"],
    [{ id: null, name: "x" }, "id"],
    [{ id: 1 }, "name"],
    [{ id: 1, name: undefined }, "name"],
  ])("%j → the first missing name, %j", (values, missing) => {
    expect(filledOrRefused(() => fillPath("op", template, values))).toEqual({ missing });
  });

  it("fills a path without placeholders as it is, and reads only whole placeholders", () => {
    expect(filledOrRefused(() => fillPath("op", "/things", {}))).toBe("/things");
    expect(filledOrRefused(() => fillPath("op", "", {}))).toBe("");
    expect(filledOrRefused(() => fillPath("op", "{a}{b}", { a: 1, b: "x" }))).toBe("1x");
    expect(filledOrRefused(() => fillPath("op", "/a/{user-id}.json", { "user-id": 7 }))).toBe("/a/7.json");
    expect(filledOrRefused(() => fillPath("op", "/a/{}/b/{x", {}))).toBe("/a/{}/b/{x");
    expect(filledOrRefused(() => fillPath("op", "/a/{{x}}", { x: "$&" }))).toBe("/a/{%24%26}");
  });

  it.each<[Record<string, unknown>, string]>([
    [{ id: ".", name: "x" }, "id"],
    [{ id: 1, name: ".." }, "name"],
    [{ id: ["."], name: "x" }, "id"],
  ])("%j → the parameter that is a dot segment, %j", (values, dotSegment) => {
    expect(filledOrRefused(() => fillPath("op", template, values))).toEqual({ dotSegment });
  });

  it("fills values that only contain dots", () => {
    expect(filledOrRefused(() => fillPath("op", template, { id: "...", name: ".a" }))).toBe("/workers/.../files/.a");
    expect(filledOrRefused(() => fillPath("op", template, { id: "a.", name: "./" }))).toBe("/workers/a./files/.%2F");
  });
});

// fillPath, encodeQuery, queryAsSent and headersAsSent read own properties only: a parameter named
// like an Object.prototype member ("constructor", e.g. a racing API's query filter) that the call
// leaves out is missing, not read as that member ("function Object() { [native code] }").
describe("parameters named like Object.prototype members", () => {
  it("are missing when the call leaves them out", () => {
    expect(filledOrRefused(() => fillPath("op", "/teams/{constructor}", {}))).toEqual({ missing: "constructor" });
    expect(encodeQuery([param("constructor")], {})).toBe("");
    expect(queryAsSent([param("constructor")], {})).toEqual({});
    expect(headersAsSent([param("constructor")], {})).toEqual({});
  });

  it("are read when the call gives them", () => {
    expect(filledOrRefused(() => fillPath("op", "/teams/{constructor}", { constructor: "ferrari" }))).toBe(
      "/teams/ferrari",
    );
    expect(encodeQuery([param("constructor")], { constructor: "mclaren" })).toBe("constructor=mclaren");
  });
});

describe("deepEntries", () => {
  const entries = (prefix: string, value: unknown, encodeKey: (key: string) => string = String): [string, string][] => {
    const out: [string, string][] = [];
    deepEntries(prefix, value, encodeKey, out);
    return out;
  };

  it.each<[unknown, [string, string][]]>([
    ["x", [["f", "x"]]],
    [null, [["f", ""]]],
    [
      { a: 1, b: { c: true } },
      [
        ["f[a]", "1"],
        ["f[b][c]", "true"],
      ],
    ],
    [
      [{ id: 7 }, { id: 8 }],
      [
        ["f[0][id]", "7"],
        ["f[1][id]", "8"],
      ],
    ],
    [{ a: undefined, b: [], c: {} }, []],
    [{ d: DATE }, [["f[d]", "2024-04-20T09:30:00.000Z"]]],
  ])("%j → %j", (value, expected) => {
    expect(entries("f", value)).toEqual(expected);
  });

  it("encodes keys with the given function, not the prefix", () => {
    expect(entries("a b", { "k[]": { ä: 1 } }, encodeURIComponent)).toEqual([["a b[k%5B%5D][%C3%A4]", "1"]]);
  });

  it("appends to what is already collected", () => {
    const out: [string, string][] = [["x", "1"]];
    deepEntries("y", 2, String, out);
    expect(out).toEqual([
      ["x", "1"],
      ["y", "2"],
    ]);
  });
});

describe("encodeQuery", () => {
  it.each<[string, RouteParameter, unknown, string]>([
    ["a string, encoded", param("q"), "a b&c=d/ä", "q=a%20b%26c%3Dd%2F%C3%A4"],
    ["a name, encoded", param("page size"), 5, "page%20size=5"],
    ["null as empty", param("q"), null, "q="],
    ["a date", param("since"), DATE, "since=2024-04-20T09%3A30%3A00.000Z"],
    ["form, exploded array", param("tags", { array: true }), ["x", "y,z"], "tags=x&tags=y%2Cz"],
    ["form, exploded empty array", param("tags", { array: true }), [], ""],
    ["form, comma-separated array", param("ids", { array: true, explode: false }), [1, "a,b"], "ids=1,a%2Cb"],
    ["form, comma-separated empty array", param("ids", { array: true, explode: false }), [], ""],
    ["form, comma-separated array of one empty text", param("ids", { array: true, explode: false }), [""], "ids="],
    [
      "form, comma-separated array, a space inside an item",
      param("ids", { array: true, explode: false }),
      ["a b", "c"],
      "ids=a%20b,c",
    ],
    [
      "spaceDelimited, a space inside an item as +",
      param("s", { array: true, style: "spaceDelimited", explode: false }),
      ["a", "b c+d"],
      "s=a%20b+c%2Bd",
    ],
    ["spaceDelimited, empty array", param("s", { array: true, style: "spaceDelimited", explode: false }), [], ""],
    ["pipeDelimited", param("p", { array: true, style: "pipeDelimited", explode: false }), ["a", "b|c"], "p=a|b%7Cc"],
    ["form, exploded object", param("point"), { x: 1, y: undefined, z: "a b" }, "x=1&z=a%20b"],
    ["form, object", param("point", { explode: false }), { x: 1, y: 2 }, "point=x,1,y,2"],
    [
      "pipeDelimited, object",
      param("point", { style: "pipeDelimited", explode: false }),
      { x: 1, y: "a|b" },
      "point=x|1|y|a%7Cb",
    ],
    [
      "deepObject",
      param("filter", { style: "deepObject" }),
      { status: "open", range: { min: 3 }, ids: [1, 2] },
      "filter[status]=open&filter[range][min]=3&filter[ids][0]=1&filter[ids][1]=2",
    ],
    [
      "deepObject, keys encoded",
      param("f", { style: "deepObject" }),
      { "a b": "ä", "[x]": 1 },
      "f[a%20b]=%C3%A4&f[%5Bx%5D]=1",
    ],
    [
      "content, as JSON",
      param("where", { style: "content" }),
      { a: [1, "ä"] },
      "where=%7B%22a%22%3A%5B1%2C%22%C3%A4%22%5D%7D",
    ],
  ])("%s", (_label, parameter, value, query) => {
    expect(encodeQuery([parameter], { [parameter.name]: value })).toBe(query);
  });

  it("encodes the declared parameters with a value, in declaration order, and nothing else", () => {
    const parameters = [param("b"), param("a"), param("c")];
    expect(encodeQuery(parameters, { a: 1, b: 2, c: undefined, d: 4 })).toBe("b=2&a=1");
    expect(encodeQuery(parameters, {})).toBe("");
    expect(encodeQuery([], { a: 1 })).toBe("");
  });

  it("writes the other styles as the deepObject encoder does, and refuses deepObject without it", () => {
    const parameters = [param("q"), param("ids", { array: true, explode: false }), param("w", { style: "content" })];
    const values = { q: "a b", ids: [1, 2], w: { a: 1 } };
    expect(queryEncoder.encode(parameters, values)).toBe(encodeQuery(parameters, values));
    expect(queryEncoder.asSent(parameters, values)).toEqual(queryAsSent(parameters, values));
    expect(() => queryEncoder.encode([param("filter", { style: "deepObject" })], { filter: { a: 1 } })).toThrow(
      /query parameter "filter" is of style deepObject: .*`deepObjectQueryEncoder` \(client\/deep-object.ts\)/,
    );
  });
});

describe("headerText", () => {
  it("sends a header of style content as JSON text, and one of style simple as headerValue does", () => {
    expect(headerText(param("X-Filter", { style: "content" }), { a: [1, "b"] })).toBe('{"a":[1,"b"]}');
    expect(headerText(param("X-Filter", { style: "content" }), "x")).toBe('"x"');
    expect(headerText(param("X-Point", { style: "simple", explode: true }), { x: 1 })).toBe("x=1");
    expect(headerText(undefined, ["a", "b"])).toBe("a,b");
  });
});

describe("headerValue", () => {
  it.each<[unknown, boolean, string]>([
    ["text ä", false, "text ä"],
    [7, false, "7"],
    [null, false, ""],
    [["a", 1, DATE], false, "a,1,2024-04-20T09:30:00.000Z"],
    [[], false, ""],
    [{ x: 1, y: "b c", z: undefined }, false, "x,1,y,b c"],
    [{ x: 1, y: 2 }, true, "x=1,y=2"],
  ])("%j (explode %s) → %j", (value, explode, text) => {
    expect(headerValue(value, explode)).toBe(text);
  });
});

describe("pathAsSent", () => {
  it("gives the text of each path parameter with a value, as the server reads it", () => {
    expect(
      pathAsSent({ id: 7, big: 2 ** 53, tags: ["a", "b"], point: { x: 1 }, when: DATE, none: null, gone: undefined }),
    ).toEqual({
      id: "7",
      big: "9007199254740992",
      tags: "a,b",
      point: "x,1",
      when: "2024-04-20T09:30:00.000Z",
    });
  });

  it("keeps __proto__ as an own data key", () => {
    const out = pathAsSent(JSON.parse('{"__proto__":"x"}') as Record<string, unknown>);
    expect(Object.getOwnPropertyDescriptor(out, "__proto__")?.value).toBe("x");
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });
});

describe("queryAsSent", () => {
  it("gives the text, list of texts or object of texts of each declared parameter", () => {
    const parameters = [
      param("q"),
      param("n"),
      param("tags", { array: true }),
      param("one", { array: true }),
      param("filter", { style: "deepObject" }),
      param("where", { style: "content" }),
      param("absent"),
    ];
    const where = { a: 1 };
    const out = queryAsSent(parameters, {
      q: "x",
      n: 2 ** 53,
      tags: [1, "b"],
      one: 5,
      filter: { min: 3, range: { to: DATE }, skip: undefined },
      where,
      other: "no",
    });
    expect(out).toEqual({
      q: "x",
      n: "9007199254740992",
      tags: ["1", "b"],
      one: ["5"],
      filter: { min: "3", range: { to: "2024-04-20T09:30:00.000Z" } },
      where,
    });
    expect(out.where).toBe(where);
  });

  it("leaves out a value that sends nothing: an empty array, an object without properties", () => {
    const parameters = [
      param("a", { array: true }),
      param("b", { array: true, explode: false }),
      param("f", { style: "deepObject" }),
      param("p", { properties: ["x"] }),
    ];
    expect(queryAsSent(parameters, { a: [], b: [], f: {}, p: { y: 1 } })).toEqual({});
    expect(queryAsSent([param("w", { style: "content" })], { w: [] })).toEqual({ w: [] });
  });

  it("keeps __proto__ as an own data key, as a name and inside an object", () => {
    const out = queryAsSent(
      [param("__proto__"), param("f", { style: "deepObject" })],
      JSON.parse('{"__proto__":"1","f":{"__proto__":{"x":2}}}') as Record<string, unknown>,
    );
    expect(Object.getOwnPropertyDescriptor(out, "__proto__")?.value).toBe("1");
    const f = out.f as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(f, "__proto__")?.value).toEqual({ x: "2" });
    expect(Object.getPrototypeOf(f)).toBe(Object.prototype);
  });
});

describe("headersAsSent", () => {
  it("gives the text, or list of texts, of each declared header, keyed as the spec spells it", () => {
    const parameters = [
      param("X-Trace"),
      param("X-Tags", { array: true }),
      param("X-Point", { explode: true }),
      param("X-Json", { style: "content" }),
      param("X-None"),
    ];
    const json = { a: 1 };
    expect(
      headersAsSent(parameters, {
        "X-Trace": 5,
        "X-Tags": ["a", " b"],
        "X-Point": { x: 1 },
        "X-Json": json,
        "x-trace": "ignored",
      }),
    ).toEqual({
      "X-Trace": "5",
      "X-Tags": ["a", "b"],
      "X-Point": "x=1",
      "X-Json": json,
    });
  });

  it("splits an array header the server will split: a comma inside an item makes two", () => {
    expect(headersAsSent([param("X-Tags", { array: true })], { "X-Tags": ["a,b"] })).toEqual({ "X-Tags": ["a", "b"] });
  });
});

/**
 * The client checks `queryAsSent` and `headersAsSent` with the validators the server runs on
 * what it reads off the wire, so these must equal what the server's readers make of what
 * `encodeQuery` and `headerText` send, through a real Fastify request.
 */
describe("what the client checks is what the server reads", () => {
  let app: FastifyInstance;
  let parameters: RouteParameter[] = [];

  beforeAll(async () => {
    app = fastify();
    app.get("/q", (request) => ({
      query: compileQueryReader(parameters)(request.url),
      headers: compileHeaderReader(parameters)(request.headers),
    }));
    await app.ready();
  });
  afterAll(() => app.close());

  async function queryRoundTrip(
    parameter: RouteParameter,
    value: unknown,
  ): Promise<{ server: unknown; client: unknown }> {
    parameters = [parameter];
    const query = encodeQuery(parameters, { [parameter.name]: value });
    const answer = (await app.inject(`/q?${query}`)).json<{ query: unknown }>();
    return { server: answer.query, client: queryAsSent(parameters, { [parameter.name]: value }) };
  }

  async function headerRoundTrip(
    parameter: RouteParameter,
    value: unknown,
  ): Promise<{ server: unknown; client: unknown }> {
    parameters = [parameter];
    const answer = (await app.inject({ url: "/q", headers: { [parameter.name]: headerText(parameter, value) } })).json<{
      headers: unknown;
    }>();
    return { server: answer.headers, client: headersAsSent(parameters, { [parameter.name]: value }) };
  }

  it.each<[string, RouteParameter, unknown]>([
    ["a string with reserved characters", param("q"), "a b&c=d+e/ä%"],
    ["an empty string", param("q"), ""],
    ["null", param("q"), null],
    ["a large integer", param("n"), 2 ** 53],
    ["a date", param("d"), DATE],
    ["an exploded array", param("tags", { array: true }), ["a,b", "", "ä"]],
    ["one value of an array", param("tags", { array: true }), "a"],
    ["a comma-separated array", param("ids", { array: true, explode: false }), [1, 2, 3]],
    ["a space-delimited array", param("s", { array: true, style: "spaceDelimited", explode: false }), ["a", "b"]],
    ["a pipe-delimited array", param("p", { array: true, style: "pipeDelimited", explode: false }), ["a", "b"]],
    ["a deepObject one level deep", param("filter", { style: "deepObject" }), { status: "open", "a b": "ä", n: 1 }],
  ])("query: %s", async (_label, parameter, value) => {
    const { server, client } = await queryRoundTrip(parameter, value);
    expect(server).toEqual(client);
  });

  it.each<[string, RouteParameter, unknown]>([
    ["a string", param("X-Trace"), "a b;c"],
    ["a number", param("X-N"), 2 ** 53],
    ["an array", param("X-Tags", { array: true }), ["a", "b", ""]],
    ["an empty array", param("X-Tags", { array: true }), []],
    ["an array with a comma inside an item", param("X-Tags", { array: true }), ["a,b", "c"]],
    ["an object", param("X-Point"), { x: 1, y: 2 }],
    ["a parameter of style content", param("X-Filter", { style: "content" }), { a: [1, "b"], n: null }],
  ])("header: %s", async (_label, parameter, value) => {
    const { server, client } = await headerRoundTrip(parameter, value);
    expect(server).toEqual(client);
  });

  // An empty array cannot be told apart on the wire (exploded, it sends nothing; comma-separated,
  // "ids=" is [""]): it is not sent, and the client checks it as missing, as the server reads it.
  it("query: an empty array", async () => {
    for (const explode of [true, false]) {
      const { server, client } = await queryRoundTrip(param("ids", { array: true, explode }), []);
      expect(server).toEqual(client);
    }
  });

  // The client percent-encodes a delimiter inside an item (["a,b", "c"] → "ids=a%2Cb,c"; a space
  // as "+", spaceDelimited's delimiter being "%20"), and the server splits the query text at the
  // literal delimiters before it decodes.
  it("query: a delimited array with the delimiter inside an item", async () => {
    for (const [style, item] of [
      ["form", "a,b"],
      ["spaceDelimited", "a b"],
      ["spaceDelimited", "a+b%20"],
      ["pipeDelimited", "a|b"],
      ["pipeDelimited", "a%7Cb"],
    ] as const) {
      const { server, client } = await queryRoundTrip(param("ids", { array: true, explode: false, style }), [
        item,
        "c",
      ]);
      expect(server).toEqual(client);
    }
  });

  // The client writes nested deepObject values ("filter[range][min]=3", "filter[ids][0]=1") and
  // checks them as nested objects; the server reads them as URL-encoded forms are read.
  it("query: a deepObject with a nested object or array", async () => {
    const { server, client } = await queryRoundTrip(param("filter", { style: "deepObject" }), {
      range: { min: 3 },
      ids: [1, 2],
    });
    expect(server).toEqual(client);
  });

  // The client sends an object parameter of style form as "point=x,1,y,2", or "x=1&y=2" exploded;
  // the server reads it by the property names the route table gives.
  it("query: an object of style form", async () => {
    for (const explode of [false, true]) {
      const { server, client } = await queryRoundTrip(param("point", { explode, properties: ["x", "y"] }), {
        x: 1,
        y: 2,
      });
      expect(server).toEqual(client);
    }
  });

  it("query: an object of style form, with a delimiter inside a value, or pipe-delimited", async () => {
    for (const parameter of [
      param("point", { explode: false, properties: ["x", "y"] }),
      param("point", { style: "pipeDelimited", explode: false, properties: ["x", "y"] }),
    ]) {
      const { server, client } = await queryRoundTrip(parameter, { x: "a,b|c d", y: 2 });
      expect(server).toEqual(client);
    }
  });

  it("query: an exploded object of style form with a property the route table does not declare", async () => {
    const { server, client } = await queryRoundTrip(param("point", { properties: ["x"] }), { x: 1, other: 2 });
    expect(server).toEqual(client);
  });

  // A query parameter of style content is sent as JSON text and checked by the client as the value
  // itself; the server parses the JSON text.
  it("query: a parameter of style content", async () => {
    const { server, client } = await queryRoundTrip(param("where", { style: "content" }), { a: [1, "ä"] });
    expect(server).toEqual(client);
  });
});
