import { PassThrough } from "node:stream";
import { describe, expect, it, vi } from "vitest";
import { placeCredentials } from "../../../../runtime/client/auth.js";
import type { RouteSecurityScheme } from "../../../../runtime/route-types.js";
import { createKeyAuthenticator } from "../../../../runtime/server/runtime/key-authenticator.js";
import {
  Admission,
  type Authenticate,
  type AuthResult,
  compileSecurity,
} from "../../../../runtime/server/runtime/security.js";
import { fakeRequest } from "../support/fastify.js";
import { apiKey, http, route } from "../support/routes.js";

const MISSING_TYPE = "urn:problem-type:missing-api-key";
const INVALID = {
  type: "urn:problem-type:invalid-api-key",
  title: "Invalid API key",
  status: 401,
  detail: "The API key is not valid.",
};
const FORBIDDEN = {
  type: "urn:problem-type:forbidden",
  title: "Forbidden",
  status: 403,
  detail: "The API key is not allowed to perform this operation.",
};

/** An authenticate hook answering `verdicts[credential]` (false for any other), recording its calls. */
function hook(verdicts: Readonly<Record<string, AuthResult>>): Authenticate & { calls: [string, string][] } {
  const calls: [string, string][] = [];
  const authenticate = (credential: string, _request: unknown, scheme: RouteSecurityScheme): AuthResult => {
    calls.push([credential, scheme.scheme]);
    return Object.hasOwn(verdicts, credential) ? (verdicts[credential] as AuthResult) : false;
  };
  return Object.assign(authenticate, { calls });
}

/** The verdict of a route's check on a request with these headers and query, over this connection. */
async function verdict(
  security: readonly (readonly RouteSecurityScheme[])[],
  authenticate: Authenticate<unknown> | undefined,
  headers: Record<string, string> = {},
  query: Record<string, unknown> = {},
  raw?: PassThrough,
): Promise<unknown> {
  const check = compileSecurity(route({ security }), authenticate);
  if (check === undefined) throw new Error("no check");
  return check(fakeRequest({ headers, query, ...(raw === undefined ? {} : { raw }) }).request);
}

/** A request stream whose socket is a TLS socket, its client certificate verified or not. */
function overTls(authorized: boolean): PassThrough {
  return Object.assign(new PassThrough(), { socket: { encrypted: true, authorized } });
}

const MTLS: RouteSecurityScheme = { scheme: "mtls", type: "mutualTLS" };

describe("createKeyAuthenticator", () => {
  const request = fakeRequest().request;
  const scheme = apiKey("header", "X-API-KEY");

  it.each([
    ["first-key", true],
    ["sécond ✓", true],
    ["", false],
    ["first-ke", false],
    ["first-key ", false],
    ["FIRST-KEY", false],
    ["first-keyfirst-key", false],
  ])("%j → %s", (credential, expected) => {
    expect(createKeyAuthenticator(["first-key", "sécond ✓"])(credential, request, scheme)).toBe(expected);
  });

  it("accepts nothing without keys, and an empty key only when listed", () => {
    expect(createKeyAuthenticator([])("anything", request, scheme)).toBe(false);
    expect(createKeyAuthenticator([])("", request, scheme)).toBe(false);
    expect(createKeyAuthenticator([""])("", request, scheme)).toBe(true);
  });

  it("answers the principal of the key presented when given a map of keys", () => {
    const dana = { company: 1, person: 7 };
    const sam = { company: 2, person: 1042 };
    const check = createKeyAuthenticator(
      new Map([
        ["key-dana", dana],
        ["key-sam", sam],
      ]),
    );
    expect(check("key-dana", request, scheme)).toBe(dana);
    expect(check("key-sam", request, scheme)).toBe(sam);
    expect(check("key-sa", request, scheme)).toBe(false);
    expect(check("", request, scheme)).toBe(false);
  });

  it("accepts keys of any length, compared in full", () => {
    const long = "k".repeat(10_000);
    const check = createKeyAuthenticator([long]);
    expect(check(long, request, scheme)).toBe(true);
    expect(check(`${long}x`, request, scheme)).toBe(false);
  });
});

describe("compileSecurity", () => {
  it("admits with the principal a hook answers, and fails closed on anything but true or an object", async () => {
    const security = [[apiKey("header", "X-A")]];
    const principal = { company: 5 };
    const answers = { obj: principal, yes: true, text: "yes", one: 1, none: undefined, nil: null } as unknown as Record<
      string,
      AuthResult
    >;
    const admitted = await verdict(security, hook(answers), { "x-a": "obj" });
    expect(admitted).toBeInstanceOf(Admission);
    expect((admitted as Admission).principal).toBe(principal);
    expect(await verdict(security, hook(answers), { "x-a": "yes" })).toBeUndefined();
    for (const key of ["text", "one", "none", "nil"])
      expect(await verdict(security, hook(answers), { "x-a": key }), key).toEqual(INVALID);
    const later = await verdict(security, async () => principal, { "x-a": "obj" });
    expect((later as Admission).principal).toBe(principal);
  });

  it("admits an alternative of several schemes with the first principal its schemes name", async () => {
    const both = [[apiKey("header", "X-A"), apiKey("header", "X-B")]];
    const authenticate = hook({ ka: true, kb: { who: "b" } as unknown as AuthResult });
    expect(((await verdict(both, authenticate, { "x-a": "ka", "x-b": "kb" })) as Admission).principal).toEqual({
      who: "b",
    });
  });

  it.each([
    ["no requirement", []],
    ["only the empty alternative", [[]]],
  ] as const)("needs no check for %s", (_label, security) => {
    expect(compileSecurity(route({ security }), undefined)).toBeUndefined();
  });

  it("checks only mutualTLS without an authenticate hook: a verified client certificate is needed", async () => {
    const missing = {
      type: MISSING_TYPE,
      title: "Missing API key",
      status: 401,
      detail: "The verified client certificate is required.",
    };
    expect(await verdict([[MTLS]], undefined)).toEqual(missing);
    expect(await verdict([[MTLS]], undefined, {}, {}, overTls(false))).toEqual(missing);
    expect(await verdict([[MTLS]], undefined, {}, {}, overTls(true))).toBeUndefined();
  });

  it("needs both a verified client certificate and the key in an alternative of mutualTLS and a key", async () => {
    const security = [[MTLS, apiKey("header", "X-A")]];
    expect(await verdict(security, hook({ k1: true }), { "x-a": "k1" })).toMatchObject({
      type: MISSING_TYPE,
      detail: "The X-A header is required.",
    });
    expect(await verdict(security, hook({ k1: true }), {}, {}, overTls(true))).toMatchObject({ type: MISSING_TYPE });
    expect(await verdict(security, hook({ k1: true }), { "x-a": "k1" }, {}, overTls(true))).toBeUndefined();
    expect(await verdict(security, hook({}), { "x-a": "k2" }, {}, overTls(true))).toEqual(INVALID);
  });

  it("lets a request with a verified client certificate, or the key, through alternatives of mutualTLS or a key", async () => {
    const security = [[MTLS], [apiKey("query", "k")]];
    expect(await verdict(security, hook({}), {}, {}, overTls(true))).toBeUndefined();
    expect(await verdict(security, hook({ k1: true }), {}, { k: "k1" }, overTls(false))).toBeUndefined();
    expect(await verdict(security, hook({}), {}, { k: "k2" }, overTls(false))).toEqual(INVALID);
  });

  it("refuses to serve a secured route without an authenticate hook", () => {
    expect(() =>
      compileSecurity(route({ operationId: "listVenues", security: [[apiKey("header", "X-API-KEY")]] }), undefined),
    ).toThrow("operation listVenues is secured: pass an authenticate function");
  });

  it("serves a route whose security is optional without a hook, letting every request through without a principal", () => {
    const optional = [[http("bearer")], []];
    expect(compileSecurity(route({ operationId: "pinged", security: optional }), undefined)).toBeUndefined();
    expect(compileSecurity(route({ security: [[MTLS], []] }), undefined)).toBeTypeOf("function");
  });

  describe("one apiKey header (checked synchronously)", () => {
    const security = [[apiKey("header", "X-API-KEY")]];
    const check = (authenticate: Authenticate, headers: Record<string, string>): unknown =>
      compileSecurity(route({ security }), authenticate)?.(fakeRequest({ headers }).request);

    it.each<Record<string, string>>([{}, { "x-api-key": "" }])(
      "a missing or empty key %j → 401 naming the header",
      (headers) => {
        const authenticate = vi.fn<Authenticate>(() => true);
        expect(check(authenticate, headers)).toEqual({
          type: MISSING_TYPE,
          title: "Missing API key",
          status: 401,
          detail: "The X-API-KEY header is required.",
        });
        expect(authenticate).not.toHaveBeenCalled();
      },
    );

    it.each([
      [true, undefined],
      [false, INVALID],
      ["unauthorized", INVALID],
      ["forbidden", FORBIDDEN],
    ] as const)("the hook's %j → %j, without a promise", (result, expected) => {
      const authenticate = vi.fn<Authenticate>(() => result);
      expect(check(authenticate, { "x-api-key": "k1" })).toEqual(expected);
      expect(authenticate).toHaveBeenCalledWith("k1", expect.anything(), security[0]?.[0]);
    });

    it("waits for an asynchronous hook", async () => {
      const outcome = check(async (key) => (key === "good" ? true : "forbidden"), { "x-api-key": "bad" });
      expect(outcome).toBeInstanceOf(Promise);
      expect(await outcome).toEqual(FORBIDDEN);
      expect(await check(async () => true, { "x-api-key": "good" })).toBeUndefined();
    });
  });

  it.each([
    ["a query apiKey", [[apiKey("query", "api_key")]], {}, { api_key: "k1" }, "k1"],
    ["a cookie apiKey", [[apiKey("cookie", "session")]], { cookie: "a=1; session = k1=x ; b=2" }, {}, "k1=x"],
    [
      "an apiKey header among alternatives",
      [[apiKey("header", "X-Key")], [apiKey("query", "k")]],
      { "x-key": "k1" },
      {},
      "k1",
    ],
    ["a bearer token", [[http("bearer")]], { authorization: "Bearer  k1 " }, {}, "k1"],
    ["a bearer token, scheme in any case", [[http("bearer")]], { authorization: "bEaReR k1" }, {}, "k1"],
    ["basic credentials, as sent", [[http("basic")]], { authorization: "Basic dTpw" }, {}, "dTpw"],
    ["an oauth2 token", [[{ scheme: "oauth", type: "oauth2" }]], { authorization: "Bearer k1" }, {}, "k1"],
    ["an openIdConnect token", [[{ scheme: "oidc", type: "openIdConnect" }]], { authorization: "Bearer k1" }, {}, "k1"],
  ] as const)("reads %s", async (_label, security, headers, query, credential) => {
    const authenticate = hook({ [credential]: true });
    expect(await verdict(security, authenticate, headers, query)).toBeUndefined();
    expect(authenticate.calls.map(([value]) => value)).toEqual([credential]);
  });

  it.each([
    ["a query apiKey", [[apiKey("query", "api_key")]], {}, {}, "The api_key query parameter is required."],
    [
      "a query apiKey sent twice",
      [[apiKey("query", "api_key")]],
      {},
      { api_key: ["a", "b"] },
      "The api_key query parameter is required.",
    ],
    [
      "a cookie apiKey",
      [[apiKey("cookie", "session")]],
      { cookie: "other=1; sessionx=2" },
      {},
      "The session cookie is required.",
    ],
    ["a bearer token", [[http("bearer")]], { authorization: "Basic k1" }, {}, "The Authorization header is required."],
    [
      "an empty bearer token",
      [[http("bearer")]],
      { authorization: "Bearer " },
      {},
      "The Authorization header is required.",
    ],
    [
      "a bare scheme name",
      [[http("bearer")]],
      { authorization: "Bearer" },
      {},
      "The Authorization header is required.",
    ],
    [
      "a scheme name run on",
      [[http("bearer")]],
      { authorization: "Bearerk1" },
      {},
      "The Authorization header is required.",
    ],
    [
      "one of two schemes needed together",
      [[apiKey("header", "X-A"), apiKey("header", "X-B")]],
      { "x-a": "k1" },
      {},
      "The X-A header is required.",
    ],
    [
      "any alternative, naming the first",
      [[apiKey("cookie", "c")], [http("bearer")]],
      {},
      {},
      "The c cookie is required.",
    ],
  ] as const)(
    "a missing credential: %s → 401 missing, naming the first scheme",
    async (_label, security, headers, query, detail) => {
      const authenticate = hook({ k1: true });
      expect(await verdict(security, authenticate, headers, query)).toEqual({
        type: MISSING_TYPE,
        title: "Missing API key",
        status: 401,
        detail,
      });
      expect(authenticate.calls).toEqual([]);
    },
  );

  it("needs every scheme of an alternative to pass", async () => {
    const both = [[apiKey("header", "X-A", "a"), apiKey("header", "X-B", "b")]];
    expect(await verdict(both, hook({ ka: true, kb: true }), { "x-a": "ka", "x-b": "kb" })).toBeUndefined();
    const authenticate = hook({ ka: true, kb: "forbidden" });
    expect(await verdict(both, authenticate, { "x-a": "ka", "x-b": "kb" })).toEqual(FORBIDDEN);
    expect(authenticate.calls).toEqual([
      ["ka", "a"],
      ["kb", "b"],
    ]);
  });

  it("lets any one alternative suffice, and prefers a 403 to a 401 among refusals", async () => {
    const alternatives = [[apiKey("header", "X-A", "a")], [apiKey("query", "q", "b")], [http("bearer")]];
    expect(await verdict(alternatives, hook({ good: true }), { "x-a": "bad" }, { q: "good" })).toBeUndefined();
    expect(
      await verdict(alternatives, hook({ meh: "forbidden" }), { "x-a": "bad", authorization: "Bearer meh" }),
    ).toEqual(FORBIDDEN);
    expect(
      await verdict(alternatives, hook({ meh: "forbidden" }), { "x-a": "meh", authorization: "Bearer bad" }),
    ).toEqual(FORBIDDEN);
    expect(await verdict(alternatives, hook({}), { "x-a": "bad", authorization: "Bearer bad" })).toEqual(INVALID);
  });

  it("lets a request without credentials through when an alternative is empty, but still refuses a wrong one", async () => {
    const optional = [[apiKey("header", "X-A")], [http("bearer")], []];
    expect(await verdict(optional, hook({}))).toBeUndefined();
    expect(await verdict(optional, hook({}), { authorization: "Bearer wrong" })).toEqual(INVALID);
    expect(await verdict(optional, hook({ right: true }), { "x-a": "right" })).toBeUndefined();
  });

  it("rejects when the hook rejects, for the pipeline's error handler", async () => {
    const failing: Authenticate = () => Promise.reject(new Error("auth service down"));
    await expect(verdict([[http("bearer")]], failing, { authorization: "Bearer x" })).rejects.toThrow(
      "auth service down",
    );
    await expect(verdict([[apiKey("header", "X-A")]], failing, { "x-a": "x" })).rejects.toThrow("auth service down");
  });

  it("reads a scheme named like an Object.prototype member as missing, not as that member", async () => {
    expect(await verdict([[apiKey("header", "constructor")]], hook({}))).toMatchObject({ type: MISSING_TYPE });
    expect(await verdict([[apiKey("query", "constructor")], [apiKey("query", "__proto__")]], hook({}))).toMatchObject({
      type: MISSING_TYPE,
    });
  });

  // An alternative made only of mutualTLS is not the empty alternative ("no authentication
  // needed"): with security [mutualTLS] or [apiKey], a request over a connection without any client
  // certificate (here: no TLS at all) and without a key is refused. Either alternative is needed:
  // the key, or a verified client certificate.
  it("does not let a request with neither a client certificate nor a key through an alternative of mutualTLS", async () => {
    const security = [[{ scheme: "mtls", type: "mutualTLS" }], [apiKey("query", "k")]] as const;
    expect(await verdict(security, hook({ k1: true }))).toEqual({
      type: MISSING_TYPE,
      title: "Missing API key",
      status: 401,
      detail: "The k query parameter is required.",
    });
  });

  // The client's placeCredentials percent-encodes a cookie apiKey (encodeURIComponent), so the
  // server decodes the cookie value before authenticate sees it: a key with any character
  // encodeURIComponent escapes ("+", "/", "=", space, non-ASCII) is accepted.
  it("reads a cookie apiKey as the client sends it", async () => {
    const security = [[apiKey("cookie", "session")]];
    const key = "k+y/=ä b";
    const placed = placeCredentials(route({ security }), { apiKey: key });
    const authenticate = hook({ [key]: true });
    expect(await verdict(security, authenticate, placed.headers)).toBeUndefined();
  });

  it("passes a cookie apiKey with a malformed escape on as it was sent, for authenticate to judge", async () => {
    const authenticate = hook({});
    expect(
      await verdict([[apiKey("cookie", "session")]], authenticate, { cookie: "session=k%E0%A4%A; other=%ZZ" }),
    ).toEqual(INVALID);
    expect(authenticate.calls).toEqual([["k%E0%A4%A", "cookieKey"]]);
  });
});
