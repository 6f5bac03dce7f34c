/** One pair per operation, security, server and document rule: the rule, its severity and the bump, both ways. */
import { bothWays, type RulePair, want } from "../check-pairs.js";
import { chain, set, without } from "../support.js";

const GET = "#/paths/~1venues~1{id}/get";
const SCHEMES = "#/components/securitySchemes";

const oauth = {
  type: "oauth2",
  flows: {
    clientCredentials: { tokenUrl: "https://auth.example.com/token", scopes: { read: "Read", write: "Write" } },
  },
};

export const operationPairs: readonly RulePair[] = [
  {
    name: "an operation removed",
    head: (document) => without(document, "#/paths/~1venues/post"),
    forward: want("api-removed", "breaking", "major"),
    reverse: want("endpoint-added", "info", "minor"),
  },
  {
    name: "security required where none was",
    base: set(`${GET}/security`, []),
    head: (document) => without(document, `${GET}/security`),
    forward: want("api-security-added", "breaking", "major"),
    reverse: want("api-security-removed", "info", "minor"),
  },
  {
    name: "a second way to authenticate",
    head: chain(
      set(`${SCHEMES}/Bearer`, { type: "http", scheme: "bearer" }),
      set("#/security", [{ Key: [] }, { Bearer: [] }]),
    ),
    forward: want("api-security-alternative-added", "info", "minor", "api-security-scheme-added"),
    reverse: want("api-security-alternative-removed", "breaking", "major", "api-security-scheme-removed"),
  },
  {
    name: "a scope added",
    base: chain(set(`${SCHEMES}/OAuth`, oauth), set("#/security", [{ OAuth: ["read"] }])),
    head: set("#/security", [{ OAuth: ["read", "write"] }]),
    forward: want("api-security-scope-added", "breaking", "major"),
    reverse: want("api-security-scope-removed", "info", "minor"),
  },
  {
    name: "a scope declared in an OAuth flow",
    base: set(`${SCHEMES}/OAuth`, oauth),
    head: set(`${SCHEMES}/OAuth/flows/clientCredentials/scopes/admin`, "Administer"),
    ...bothWays(want("api-security-scheme-scopes-changed", "info", "minor")),
  },
  {
    name: "the API key header renamed",
    head: set(`${SCHEMES}/Key/name`, "Authorization"),
    ...bothWays(want("api-security-scheme-changed", "breaking", "major")),
  },
  {
    name: "a security scheme renamed",
    head: (document) =>
      chain(
        set(`${SCHEMES}/ApiKey`, { type: "apiKey", in: "header", name: "X-API-KEY" }),
        set("#/security", [{ ApiKey: [] }]),
      )(without(document, `${SCHEMES}/Key`)),
    ...bothWays(want("api-security-scheme-renamed", "warning", "minor")),
  },
  {
    name: "the base path changed",
    head: set("#/servers/0/url", "https://api.example.com/v2"),
    ...bothWays(want("api-base-path-changed", "breaking", "major")),
  },
  {
    name: "the server host changed",
    head: set("#/servers/0/url", "https://api.example.org/v1"),
    ...bothWays(want("api-server-changed", "warning", "minor")),
  },
  {
    name: "an operation deprecated",
    head: set(`${GET}/deprecated`, true),
    ...bothWays(want("deprecation-changed", "info", "minor")),
  },
  {
    name: "the OpenAPI version changed",
    head: set("#/openapi", "3.1.1"),
    ...bothWays(want("openapi-version-changed", "info", "patch")),
  },
  {
    name: "a description and a summary added",
    head: chain(set("#/components/schemas/Venue/description", "A venue."), set(`${GET}/summary`, "Read a venue")),
    ...bothWays(want("documentation-changed", "info", "patch")),
  },
  {
    name: "an example added",
    head: set("#/components/schemas/VenueCreate/properties/name/examples", ["Riverside Hall"]),
    ...bothWays(want("example-changed", "info", "patch")),
  },
  {
    name: "a keyword no rule classifies ($comment is documentation, $anchor is not)",
    head: set("#/components/schemas/VenueCreate/properties/city/$anchor", "city"),
    ...bothWays(want("unclassified", "warning", "minor")),
  },
];
