/**
 * The pairs where peer tools go wrong (the reference study's tricky pairs): each must give
 * exactly the rules listed, nothing more.
 */
import { describe, expect, it } from "vitest";
import { reportOn } from "../../../../src/diff/compare-specs.js";
import { createSideCache } from "./support/check-pairs.js";
import { baseDocument, changesOf, type Json, rulesOf, without, withValue } from "./support/support.js";

const SCHEMAS = "#/components/schemas";
const V = `${SCHEMAS}/Venue`;
const VC = `${SCHEMAS}/VenueCreate`;
const CREATED = "#/paths/~1venues/post/responses/201/content/application~1json/schema";
const sideOf = createSideCache();

async function compare(base: Json, head: Json): Promise<ReturnType<typeof reportOn>> {
  const [before, after] = await Promise.all([sideOf(base), sideOf(head)]);
  return reportOn(before, after);
}

const venueParts = {
  base: {
    type: "object",
    properties: { venue_id: { type: "integer" }, name: { type: "string", maxLength: 100 } },
    required: ["venue_id", "name"],
  },
  rest: { type: "object", properties: { city: { type: "string" }, kind: { type: "string", enum: ["hall", "park"] } } },
};

describe("where $refs and allOf are written differently", () => {
  it("an inline schema moved into a component is no HTTP change; the operation's validator becomes the component's", async () => {
    const base = baseDocument();
    const created = (base.paths as Json)["/venues"] as Json;
    const schema = (
      ((((created.post as Json).responses as Json)["201"] as Json).content as Json)["application/json"] as Json
    ).schema;
    const head = withValue(withValue(base, `${SCHEMAS}/Created`, schema), CREATED, { $ref: `${SCHEMAS}/Created` });
    const report = await compare(base, head);
    expect(report.changes.filter((c) => c.direction !== "package")).toEqual([]);
    expect(rulesOf(report)).toEqual(["api-schema-added", "package-export-removed"]);
    expect(changesOf(report, "package-export-removed")[0]?.message).toBe(
      "operation createVenue: export(s) validateCreateVenueResponse201 no longer exist (now validateCreated)",
    );
  });

  it("an equivalent allOf restructuring changes nothing but the new component", async () => {
    const base = baseDocument();
    const head = withValue(withValue(base, `${SCHEMAS}/VenueBase`, venueParts.base), V, {
      allOf: [{ $ref: `${SCHEMAS}/VenueBase` }, venueParts.rest],
    });
    const report = await compare(base, head);
    expect(rulesOf(report)).toEqual(["api-schema-added"]);
  });

  it("a property moved from one allOf member to another changes nothing", async () => {
    const member = (names: readonly string[]): Json => ({
      type: "object",
      properties: Object.fromEntries(names.map((n) => [n, { type: "string" }])),
    });
    const base = withValue(baseDocument(), VC, { allOf: [member(["a"]), member(["b", "c"])], required: ["a"] });
    const head = withValue(base, VC, { allOf: [member(["a", "b"]), member(["c"])], required: ["a"] });
    expect((await compare(base, head)).changes).toEqual([]);
  });
});

describe("readOnly, writeOnly and nullability", () => {
  it("a required readOnly property is not asked of requests", async () => {
    const base = baseDocument();
    const head = withValue(
      withValue(base, `${VC}/properties/id`, { type: "integer", readOnly: true }),
      `${VC}/required`,
      ["name", "id"],
    );
    const report = await compare(base, head);
    expect(report.changes.filter((c) => c.direction === "request")).toEqual([]);
    expect(rulesOf(report)).toEqual(["package-export-added"]);
  });

  it("null allowed in a response, written as a type list, a oneOf with null, an anyOf with null: breaking each time", async () => {
    const base = withValue(
      withValue(baseDocument(), `${SCHEMAS}/Address`, { type: "object", properties: { street: { type: "string" } } }),
      `${V}/properties/address`,
      { $ref: `${SCHEMAS}/Address` },
    );
    const nullable = [
      withValue(base, `${V}/properties/city/type`, ["string", "null"]),
      withValue(base, `${V}/properties/address`, { oneOf: [{ type: "null" }, { $ref: `${SCHEMAS}/Address` }] }),
      withValue(base, `${V}/properties/address`, { anyOf: [{ $ref: `${SCHEMAS}/Address` }, { const: null }] }),
    ];
    for (const head of nullable) {
      const report = await compare(base, head);
      expect(rulesOf(report)).toEqual(["response-property-became-nullable"]);
      expect(changesOf(report, "response-property-became-nullable")[0]?.severity).toBe("breaking");
    }
  });

  it("OpenAPI 3.0's nullable: true is the same as 3.1's type list", async () => {
    const legacy = withValue(withValue(baseDocument(), "#/openapi", "3.0.3"), `${V}/properties/city`, {
      type: "string",
      nullable: true,
    });
    const modern = withValue(baseDocument(), `${V}/properties/city`, { type: ["string", "null"] });
    expect(rulesOf(await compare(legacy, modern))).toEqual(["openapi-version-changed"]);
    const plain = withValue(baseDocument(), "#/openapi", "3.0.3");
    expect(rulesOf(await compare(plain, legacy))).toEqual(["response-property-became-nullable"]);
  });
});

describe("changes that look like tightenings but are not", () => {
  it("a pattern every string matches restricts nothing: replacing a pattern by one loosens it", async () => {
    const base = withValue(baseDocument(), `${VC}/properties/city/pattern`, "^\\w+$");
    for (const everything of ["", ".*", "[\\s\\S]*"]) {
      const report = await compare(base, withValue(base, `${VC}/properties/city/pattern`, everything));
      expect(report.changes.map((c) => [c.rule, c.severity])).toEqual([
        ["request-property-constraint-loosened", "info"],
      ]);
    }
    expect(
      rulesOf(await compare(baseDocument(), withValue(baseDocument(), `${VC}/properties/city/pattern`, ""))),
    ).toEqual([]);
  });

  it("a pattern replaced by another is a change whose effect is not worked out: breaking both ways", async () => {
    const base = withValue(baseDocument(), `${VC}/properties/city/pattern`, "^[a-f]+[0-9]$");
    const report = await compare(base, withValue(base, `${VC}/properties/city/pattern`, "^[0-9][a-f]+$"));
    expect(report.changes.map((c) => [c.rule, c.severity])).toEqual([
      ["request-property-constraint-changed", "breaking"],
    ]);
  });

  it("a pattern replaced by one whose strings it holds, or by another spelling of it, is worked out", async () => {
    const base = withValue(baseDocument(), `${VC}/properties/city/pattern`, "[0-9a-f]+");
    const narrower = await compare(base, withValue(base, `${VC}/properties/city/pattern`, "^\\d+$"));
    expect(narrower.changes.map((c) => [c.rule, c.severity])).toEqual([
      ["request-property-constraint-tightened", "breaking"],
    ]);
    const respelt = await compare(base, withValue(base, `${VC}/properties/city/pattern`, "[a-f0-9]{1,}"));
    expect(respelt.changes).toEqual([]);
  });

  it("an OAuth scope declared in the scheme but required by no operation changes no call", async () => {
    const scheme = {
      type: "oauth2",
      flows: { implicit: { authorizationUrl: "https://auth.example.com/authorize", scopes: { read: "Read" } } },
    };
    const base = withValue(baseDocument(), "#/components/securitySchemes/OAuth", scheme);
    const report = await compare(
      base,
      withValue(base, "#/components/securitySchemes/OAuth/flows/implicit/scopes/admin", "Administer"),
    );
    expect(report.changes.map((c) => [c.rule, c.severity, c.message])).toEqual([
      [
        "api-security-scheme-scopes-changed",
        "info",
        "security scheme OAuth, implicit flow: scope(s) admin now declared",
      ],
    ]);
  });

  it("an OAuth URL changed names the field, not the scheme's type twice", async () => {
    const scheme = {
      type: "oauth2",
      flows: { implicit: { authorizationUrl: "https://auth.example.com/authorize", scopes: { read: "Read" } } },
    };
    const base = withValue(baseDocument(), "#/components/securitySchemes/OAuth", scheme);
    const report = await compare(
      base,
      withValue(
        base,
        "#/components/securitySchemes/OAuth/flows/implicit/authorizationUrl",
        "https://login.example.com/authorize",
      ),
    );
    expect(changesOf(report, "api-security-scheme-changed").map((c) => c.message)).toEqual([
      "security scheme OAuth: flows.implicit.authorizationUrl changed; clients must obtain or send their credentials differently",
    ]);
  });
});

describe("defaults", () => {
  it("a default changed on a required value never applies: documentation only", async () => {
    const base = withValue(baseDocument(), `${VC}/properties/name/default`, "Hall");
    const report = await compare(base, withValue(base, `${VC}/properties/name/default`, "Park"));
    expect(report.changes.map((c) => [c.rule, c.message])).toEqual([
      [
        "documentation-changed",
        'type `VenueCreate`, property `name`: default changed from "Hall" to "Park" (the value is required, so the default never applies)',
      ],
    ]);
  });
});

describe("a component used in both directions", () => {
  it("gets both verdicts: a tightening breaks the request and only narrows the response", async () => {
    const base = withValue(baseDocument(), CREATED, { $ref: VC });
    const report = await compare(base, withValue(base, `${VC}/properties/name/maxLength`, 50));
    expect(report.changes.map((c) => [c.rule, c.severity, c.direction])).toEqual([
      ["request-property-constraint-tightened", "breaking", "request"],
      ["response-property-constraint-tightened", "info", "response"],
    ]);
  });
});

describe("oneOf branches", () => {
  const branch = (name: string): Json => ({ type: "object", properties: { [name]: { type: "string" } } });

  it("a response oneOf [integer, string] narrowed to integer is not breaking over HTTP", async () => {
    const base = withValue(baseDocument(), `${V}/properties/venue_id`, {
      oneOf: [{ type: "integer" }, { type: "string" }],
    });
    const head = withValue(base, `${V}/properties/venue_id`, { type: "integer" });
    const report = await compare(base, head);
    expect(changesOf(report, "response-one-of-branch-removed").map((c) => c.severity)).toEqual(["info"]);
    expect(rulesOf(report)).toEqual(["package-type-changed", "response-one-of-branch-removed"]);
  });

  it("a request oneOf branch added that a valid value may match beside an old one is breaking: that value now matches two", async () => {
    const base = withValue(baseDocument(), `${VC}/properties/contact`, { oneOf: [branch("a")] });
    const head = withValue(base, `${VC}/properties/contact`, { oneOf: [branch("a"), branch("b")] });
    const report = await compare(base, head);
    expect(changesOf(report, "request-one-of-branches-overlap").map((c) => [c.severity, c.message])).toEqual([
      [
        "breaking",
        "type `VenueCreate`, property `contact`: oneOf branch #2 (object) added: a value valid against it and an old branch now matches two branches and is refused",
      ],
    ]);
  });

  it("a request body wrapped into a oneOf of overlapping branches is breaking; branches told apart by type, tag or a forbidden property are not", async () => {
    const tagged = (tag: string): Json => ({
      type: "object",
      properties: { kind: { const: tag }, a: { type: "string" } },
      required: ["kind"],
    });
    const closed = (name: string): Json => ({
      type: "object",
      properties: { [name]: { type: "string" } },
      required: [name],
      additionalProperties: false,
    });
    const base = withValue(baseDocument(), `${VC}/properties/contact`, tagged("email"));
    const wrapped = withValue(base, `${VC}/properties/contact`, { oneOf: [branch("kind"), tagged("email")] });
    expect(rulesOf(await compare(base, wrapped))).toContain("request-one-of-branches-overlap");
    const apart = [
      { oneOf: [tagged("email"), { type: "string" }] },
      { oneOf: [tagged("email"), tagged("phone")] },
      { oneOf: [tagged("email"), closed("phone")] },
    ];
    for (const contact of apart) {
      const report = await compare(base, withValue(base, `${VC}/properties/contact`, contact));
      expect(changesOf(report, "request-one-of-branch-added").map((c) => c.severity)).toEqual(["info"]);
      expect(rulesOf(report)).not.toContain("request-one-of-branches-overlap");
    }
  });

  it("a response oneOf of overlapping branches widened into an anyOf with more types is breaking", async () => {
    const base = withValue(baseDocument(), `${V}/properties/code`, {
      oneOf: [{ type: "string" }, { type: "string", maxLength: 3 }],
    });
    const head = withValue(base, `${V}/properties/code`, {
      anyOf: [{ type: "string" }, { type: "string", maxLength: 3 }, { type: "boolean" }],
    });
    const report = await compare(base, head);
    expect(changesOf(report, "response-property-constraint-loosened").map((c) => c.message)).toEqual([
      "type `Venue`, property `code`: oneOf became anyOf: a value valid against several branches is now accepted",
    ]);
    expect(changesOf(report, "response-any-of-branch-added").map((c) => c.severity)).toEqual(["breaking"]);
  });

  it("an anyOf branch the same as another adds nothing, and removing it takes nothing away", async () => {
    const base = withValue(baseDocument(), `${V}/properties/place`, { anyOf: [branch("a"), branch("b")] });
    const head = withValue(base, `${V}/properties/place`, {
      anyOf: [branch("a"), branch("b"), { ...branch("b"), title: "B again" }],
    });
    expect(rulesOf(await compare(base, head))).toEqual(["documentation-changed"]);
    expect(rulesOf(await compare(head, base))).toEqual(["documentation-changed"]);
  });

  it("branches are matched by meaning, not by position or $ref name", async () => {
    const base = withValue(withValue(baseDocument(), `${SCHEMAS}/A`, branch("a")), `${V}/properties/place`, {
      oneOf: [{ $ref: `${SCHEMAS}/A` }, branch("b")],
    });
    const head = withValue(base, `${V}/properties/place`, { oneOf: [branch("b"), branch("a")] });
    expect(rulesOf(await compare(base, head))).toEqual([]);
  });
});

describe("changes that HTTP does not see but the package does", () => {
  it("a response property made required breaks server handlers, and says so", async () => {
    const base = withValue(baseDocument(), `${V}/required`, []);
    const report = await compare(base, baseDocument());
    expect(changesOf(report, "response-property-became-required").map((c) => c.severity)).toEqual(["info", "info"]);
    const messages = changesOf(report, "package-type-changed").map((c) => c.message);
    expect(messages).toEqual(
      ["name", "venue_id"].map(
        (name) =>
          `type Venue, property \`${name}\`: became required; server \`Handlers\` code written against the old type may no longer compile`,
      ),
    );
    expect(report.semver).toBe("major");
  });

  it("documentation and examples alone need a patch release", async () => {
    const head = withValue(
      withValue(baseDocument(), `${V}/properties/name/description`, "The name."),
      `${V}/examples`,
      [{ venue_id: 1, name: "Hall" }],
    );
    const report = await compare(baseDocument(), head);
    expect(rulesOf(report)).toEqual(["documentation-changed", "example-changed"]);
    expect(report.semver).toBe("patch");
  });

  it("a removed component schema used by no operation removes its exports", async () => {
    const base = withValue(baseDocument(), `${SCHEMAS}/Unused`, { type: "string" });
    const [removed] = changesOf(await compare(base, without(base, `${SCHEMAS}/Unused`)), "api-schema-removed");
    expect(removed?.before).toEqual(["Unused", "validateUnused", "isUnused"]);
  });
});
