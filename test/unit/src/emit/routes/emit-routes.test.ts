import { describe, expect, it } from "vitest";
import { serverUrlParts } from "../../../../../src/emit/routes/emit-routes.js";

describe("serverUrlParts", () => {
  it("cuts the first server's URL at each placeholder of a declared variable, with its default", () => {
    const server = {
      url: "{origin}/api/{version}/{origin}",
      variables: [
        { name: "origin", default: "http://localhost:3000" },
        { name: "version", default: "v1" },
      ],
    };
    expect(serverUrlParts(server)).toEqual([
      { text: "http://localhost:3000", variable: "origin" },
      { text: "/api/", variable: null },
      { text: "v1", variable: "version" },
      { text: "/", variable: null },
      { text: "http://localhost:3000", variable: "origin" },
    ]);
  });

  it("keeps a placeholder no variable declares as text, and a URL without placeholders whole", () => {
    const server = { url: "https://{region}.example.com/{stage}", variables: [{ name: "stage", default: "prod" }] };
    expect(serverUrlParts(server)).toEqual([
      { text: "https://{region}.example.com/", variable: null },
      { text: "prod", variable: "stage" },
    ]);
    expect(serverUrlParts({ url: "https://api.example.com/v2", variables: [] })).toEqual([
      { text: "https://api.example.com/v2", variable: null },
    ]);
  });

  it("is the empty text without a server", () => {
    expect(serverUrlParts(undefined)).toEqual([{ text: "", variable: null }]);
  });
});
