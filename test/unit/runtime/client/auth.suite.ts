import { describe, expect, it } from "vitest";
import { type Credentials, placeCredentials } from "../../../../runtime/client/auth.js";
import type { RouteSecurityScheme } from "../../../../runtime/route-types.js";
import { apiKey, http, route } from "../support/routes.js";

const place = (
  security: readonly (readonly RouteSecurityScheme[])[],
  credentials: Credentials,
): ReturnType<typeof placeCredentials> => placeCredentials(route({ security }), credentials);
const NOTHING = { headers: {}, query: "" };

describe("placeCredentials", () => {
  it.each<[string, RouteSecurityScheme, Credentials, ReturnType<typeof placeCredentials>]>([
    [
      "an apiKey header, by its lower-cased name",
      apiKey("header", "X-API-KEY"),
      { apiKey: "k ä" },
      { headers: { "x-api-key": "k ä" }, query: "" },
    ],
    [
      "an apiKey query parameter, encoded",
      apiKey("query", "api key"),
      { apiKey: "k&1=ä" },
      { headers: {}, query: "api%20key=k%261%3D%C3%A4" },
    ],
    [
      "an apiKey cookie, its value encoded",
      apiKey("cookie", "session"),
      { apiKey: "a b;c" },
      { headers: { cookie: "session=a%20b%3Bc" }, query: "" },
    ],
    [
      "a bearer token",
      http("bearer"),
      { bearerToken: "t0k3n" },
      { headers: { authorization: "Bearer t0k3n" }, query: "" },
    ],
    [
      "basic credentials, UTF-8 in base64",
      http("basic"),
      { basic: { username: "ünïcode", password: "p:ss" } },
      { headers: { authorization: `Basic ${Buffer.from("ünïcode:p:ss").toString("base64")}` }, query: "" },
    ],
    [
      "an oauth2 token",
      { scheme: "oauth", type: "oauth2" },
      { bearerToken: "t" },
      { headers: { authorization: "Bearer t" }, query: "" },
    ],
    [
      "an openIdConnect token",
      { scheme: "oidc", type: "openIdConnect" },
      { bearerToken: "t" },
      { headers: { authorization: "Bearer t" }, query: "" },
    ],
    [
      "an http scheme that is neither, by its scheme name",
      http("digest", "dig"),
      { credentials: { dig: "abc" } },
      { headers: { authorization: "Digest abc" }, query: "" },
    ],
    [
      "basic credentials given as encoded text, by scheme name",
      http("basic", "b"),
      { credentials: { b: "dTpw" } },
      { headers: { authorization: "Basic dTpw" }, query: "" },
    ],
    [
      "user and password in an apiKey",
      apiKey("header", "X-Key", "k"),
      { credentials: { k: { username: "u", password: "p" } } },
      { headers: { "x-key": "u:p" }, query: "" },
    ],
  ])("places %s", (_label, scheme, credentials, placed) => {
    expect(place([[scheme]], credentials)).toEqual(placed);
  });

  it("prefers a credential given by scheme name to one given by kind", () => {
    expect(
      place([[apiKey("header", "X-Key", "keyA")]], {
        apiKey: "general",
        credentials: { keyA: "specific", other: "x" },
      }),
    ).toEqual({ headers: { "x-key": "specific" }, query: "" });
    expect(
      place([[apiKey("header", "X-Key", "keyA")]], { apiKey: "general", credentials: { keyA: undefined } }),
    ).toEqual({ headers: { "x-key": "general" }, query: "" });
  });

  it("places every scheme of the first alternative the credentials satisfy, cookies joined", () => {
    const security = [
      [apiKey("header", "X-A", "a"), http("bearer")],
      [apiKey("cookie", "c1", "c1"), apiKey("cookie", "c2", "c2"), apiKey("query", "q", "q")],
      [http("basic")],
    ];
    expect(place(security, { apiKey: "k", basic: { username: "u", password: "p" } })).toEqual({
      headers: { cookie: "c1=k; c2=k" },
      query: "q=k",
    });
    expect(place(security, { apiKey: "k", bearerToken: "t" })).toEqual({
      headers: { "x-a": "k", authorization: "Bearer t" },
      query: "",
    });
    expect(place(security, { basic: { username: "u", password: "p" } })).toEqual({
      headers: { authorization: "Basic dTpw" },
      query: "",
    });
  });

  it("skips the empty alternative, so that credentials given are still sent", () => {
    expect(place([[], [http("bearer")]], { bearerToken: "t" })).toEqual({
      headers: { authorization: "Bearer t" },
      query: "",
    });
    expect(place([[], [http("bearer")]], {})).toEqual(NOTHING);
  });

  it("sends nothing when no alternative is satisfied, or none is required", () => {
    expect(place([[apiKey("header", "X-A")], [http("bearer")]], { basic: { username: "u", password: "p" } })).toEqual(
      NOTHING,
    );
    expect(place([[http("basic")]], { bearerToken: "t" })).toEqual(NOTHING);
    expect(place([[http("digest")]], { bearerToken: "t" })).toEqual(NOTHING);
    expect(place([], { apiKey: "k", bearerToken: "t" })).toEqual(NOTHING);
  });

  it("counts mutualTLS as satisfied, placing nothing for it", () => {
    const security = [[{ scheme: "mtls", type: "mutualTLS" as const }, apiKey("header", "X-A")]];
    expect(place(security, { apiKey: "k" })).toEqual({ headers: { "x-a": "k" }, query: "" });
    expect(place([[{ scheme: "mtls", type: "mutualTLS" }], [apiKey("header", "X-A")]], { apiKey: "k" })).toEqual(
      NOTHING,
    );
  });

  it("sends an empty key as given", () => {
    expect(place([[apiKey("header", "X-A")]], { apiKey: "" })).toEqual({ headers: { "x-a": "" }, query: "" });
  });
});
