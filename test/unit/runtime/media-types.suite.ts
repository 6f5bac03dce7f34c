import { describe, expect, it } from "vitest";
import { bodyKindOf, isJsonMediaType, mediaTypeEssence } from "../../../runtime/media-types.js";

describe("mediaTypeEssence", () => {
  it.each([
    ["application/json", "application/json"],
    ["Application/Problem+JSON; charset=utf-8", "application/problem+json"],
    ["  text/plain ;charset=UTF-8", "text/plain"],
    ["multipart/form-data; boundary=a;b", "multipart/form-data"],
    ["image/*", "image/*"],
    ["", ""],
    [";charset=utf-8", ""],
    ["TEXT/ÄÖÜ", "text/äöü"],
  ])("%j → %j", (mediaType, essence) => {
    expect(mediaTypeEssence(mediaType)).toBe(essence);
  });
});

describe("bodyKindOf", () => {
  it.each([
    ["application/json", "json"],
    ["application/json; charset=utf-8", "json"],
    ["APPLICATION/JSON", "json"],
    ["application/vnd.api+json; charset=utf-8", "json"],
    ["application/problem+json", "json"],
    ["text/json", "json"],
    ["multipart/form-data", "multipart"],
    ["multipart/mixed; boundary=x", "multipart"],
    ["application/x-www-form-urlencoded", "form"],
    ["text/plain", "text"],
    ["text/csv; charset=utf-8", "text"],
    ["text/*", "text"],
    ["application/octet-stream", "binary"],
    ["image/png", "binary"],
    ["*/*", "binary"],
    ["application/jsonx", "binary"],
    ["application/json-seq", "binary"],
    ["", "binary"],
  ])("%j travels as %s", (mediaType, kind) => {
    expect(bodyKindOf(mediaType)).toBe(kind);
  });
});

describe("isJsonMediaType", () => {
  const json = [
    "application/json",
    "  Application/JSON  ; charset=utf-8",
    "text/json;",
    "application/problem+json ",
    " +JSON",
  ];
  const other = [
    "application/vnd.api+json x",
    "application/json x",
    "application/jsonx",
    "text/plain; profile=a+json",
    "",
  ];
  it.each(json)("%j is JSON", (mediaType) => {
    expect(isJsonMediaType(mediaType)).toBe(true);
  });
  it.each(other)("%j is not JSON", (mediaType) => {
    expect(isJsonMediaType(mediaType)).toBe(false);
  });
});
