import { describe, expect, it } from "vitest";
import type { RequestPart } from "../../../../runtime/client/errors.js";
import { RequestValidationError } from "../../../../runtime/client/errors.js";
import { parameterEncoder } from "../../../../runtime/client/parameters.js";
import { pathEncoder } from "../../../../runtime/client/path-parameters.js";
import type { IssueCollector, ParameterEncoder } from "../../../../runtime/route-types.js";
import { route } from "../support/routes.js";

const DATE = new Date(Date.UTC(2024, 3, 20, 9, 30));
const scalarRoute = route({
  operationId: "getFile",
  path: "/workers/{id}/files/{name}",
  pathParams: ["id", "name"],
  validators: { pathParams: () => ({ valid: true, value: undefined }), body: {}, responses: {} },
});

/** The URL an encoder makes of a call's path values, or the error it throws. */
function urlOf(encoder: ParameterEncoder, path: Record<string, unknown>, authQuery = ""): string | unknown {
  const make = encoder.urlOf(scalarRoute, "http://h/api", authQuery);
  if (make === undefined) throw new Error("the encoder made no URL");
  try {
    return make({ path });
  } catch (error) {
    return error;
  }
}

/** What an encoder gives the path validator to check. */
function checked(encoder: ParameterEncoder, path: Record<string, unknown>): [RequestPart, unknown][] {
  const seen: [RequestPart, unknown][] = [];
  const collect: IssueCollector = (part, _validator, value) => void seen.push([part, value]);
  encoder.check(scalarRoute, { path }, collect);
  return seen;
}

describe("pathEncoder (scalar path parameters of style simple)", () => {
  const calls: Record<string, unknown>[] = [
    { id: 7, name: "cv.pdf" },
    { id: "a/b", name: "x y?#%" },
    { id: -1.5, name: true },
    { id: 10n ** 20n, name: DATE },
    { id: "", name: "é" },
    { id: 0, name: false, extra: "not in the path" },
  ];

  it.each(calls)("writes call %# as the general encoder does", (path) => {
    expect(urlOf(pathEncoder, path)).toBe(urlOf(parameterEncoder, path));
    expect(urlOf(pathEncoder, path, "key=k")).toBe(urlOf(parameterEncoder, path, "key=k"));
    expect(checked(pathEncoder, path)).toEqual(checked(parameterEncoder, path));
  });

  it("writes the values percent-encoded, the query credential after them", () => {
    expect(urlOf(pathEncoder, { id: "a/b", name: "x y" }, "key=k")).toBe(
      "http://h/api/workers/a%2Fb/files/x%20y?key=k",
    );
    expect(checked(pathEncoder, { id: 7, name: DATE, gone: null })).toEqual([
      ["path", { id: "7", name: "2024-04-20T09:30:00.000Z" }],
    ]);
  });

  it.each<[Record<string, unknown>, string]>([
    [{ name: "x" }, "must have required property 'id'"],
    [{ id: null, name: "x" }, "must have required property 'id'"],
    [{ id: 1, name: ".." }, '/name must not be "." or "..", which would change the path'],
    [{ id: ".", name: "x" }, '/id must not be "." or "..", which would change the path'],
  ])("refuses %j as the general encoder does", (path, message) => {
    const refused = urlOf(pathEncoder, path);
    expect(refused).toBeInstanceOf(RequestValidationError);
    expect((refused as RequestValidationError).errors.map((issue) => issue.message)).toEqual([message]);
    expect(refused).toEqual(urlOf(parameterEncoder, path));
  });
});
