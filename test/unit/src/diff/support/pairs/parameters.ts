/** One pair per request-parameter rule: the rule, its severity and the bump, in both directions. */
import { bothWays, type RulePair, tightenedRequest, want } from "../check-pairs.js";
import { type Json, set, withValue } from "../support.js";

const GET = "#/paths/~1venues~1{id}/get";
const Q = `${GET}/parameters/1`;
const TYPE = "package-type-changed";

const filter = (style?: string): unknown => ({
  name: "filter",
  in: "query",
  ...(style !== undefined ? { style } : {}),
  schema: { type: "object", properties: { city: { type: "string" } } },
});

export const parameterPairs: readonly RulePair[] = [
  {
    name: "a required header added",
    head: set(`${GET}/parameters/2`, { name: "X-Tenant", in: "header", required: true, schema: { type: "string" } }),
    forward: want("new-required-request-parameter", "breaking", "major", "package-export-added"),
    reverse: want("request-parameter-removed", "warning", "major", TYPE, "package-export-removed"),
  },
  {
    name: "an optional query parameter added",
    head: set(`${GET}/parameters/2`, { name: "page", in: "query", schema: { type: "integer" } }),
    forward: want("new-optional-request-parameter", "info", "minor"),
    reverse: want("request-parameter-removed", "warning", "major", TYPE),
  },
  {
    name: "a parameter made required",
    head: set(`${Q}/required`, true),
    forward: want("request-parameter-became-required", "breaking", "major"),
    reverse: want("request-parameter-became-optional", "info", "major", TYPE),
  },
  {
    name: "a parameter's type widened",
    head: set(`${Q}/schema/type`, ["string", "integer"]),
    forward: want("request-parameter-type-widened", "info", "major", TYPE),
    reverse: want("request-parameter-type-changed", "breaking", "major"),
  },
  {
    name: "a path parameter's type changed",
    head: set(`${GET}/parameters/0/schema/type`, "string"),
    ...bothWays(want("request-parameter-type-changed", "breaking", "major")),
  },
  {
    name: "a parameter re-serialised (form to deepObject)",
    base: set(`${GET}/parameters/2`, filter()),
    head: set(`${GET}/parameters/2`, filter("deepObject")),
    ...bothWays(want("request-parameter-serialization-changed", "breaking", "major")),
  },
  {
    name: "a parameter's pattern replaced by another",
    base: set(`${Q}/schema/pattern`, "^[a-f]+$"),
    head: set(`${Q}/schema/pattern`, "^[0-9]+$"),
    ...bothWays(want("request-parameter-constraint-changed", "breaking", "major")),
  },
  {
    name: "a parameter's pattern replaced by one that accepts every string it did",
    base: set(`${Q}/schema/pattern`, "^[a-f]+$"),
    head: set(`${Q}/schema/pattern`, "^[a-z]+$"),
    forward: want("request-parameter-constraint-loosened", "info", "minor"),
    reverse: want("request-parameter-constraint-tightened", "breaking", "major"),
  },
  {
    name: "a parameter's one value changed",
    base: set(`${Q}/schema/const`, "a"),
    head: set(`${Q}/schema/const`, "b"),
    ...bothWays(want("request-parameter-const-changed", "breaking", "major")),
  },
  {
    name: "a parameter's enum value removed",
    base: set(`${Q}/schema/enum`, ["a", "b"]),
    head: set(`${Q}/schema/enum`, ["a"]),
    forward: want("request-parameter-enum-value-removed", "breaking", "major"),
    reverse: want("request-parameter-enum-value-added", "info", "major", TYPE),
  },
  tightenedRequest("a parameter's maxLength lowered", set(`${Q}/schema/maxLength`, 10), "parameter"),
  {
    ...tightenedRequest("a query parameter no longer allowed empty", set(`${Q}/allowEmptyValue`, false), "parameter"),
    base: set(`${Q}/allowEmptyValue`, true),
  },
  {
    name: "a parameter's default added",
    head: set(`${Q}/schema/default`, "x"),
    forward: want("request-parameter-default-added", "warning", "minor"),
    reverse: want("request-parameter-default-changed", "breaking", "major"),
  },
  {
    name: "a path parameter renamed",
    head: (document) => {
      const paths = document.paths as Json;
      const { ["/venues/{id}"]: item, ...rest } = paths;
      const renamed = withValue({ item } as Json, "#/item/get/parameters/0/name", "venueId").item;
      return { ...document, paths: { ...rest, "/venues/{venueId}": renamed } };
    },
    ...bothWays(want("request-path-parameter-renamed", "breaking", "major")),
  },
];
