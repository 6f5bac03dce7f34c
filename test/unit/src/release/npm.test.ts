/**
 * npm's errors as the release reads them (src/release/npm.ts), from real npm processes on loopback:
 * at npm's own log level, and at `silent`, which `npm run -s release` hands down to every npm the
 * release runs and which leaves out npm's `npm error` lines (a command run with `--json` still
 * prints its error on standard output).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { npmErrorCode, npmErrorText, runNpm } from "../../../../src/release/npm.js";
import { makeTempDir } from "../../../support/paths.js";

let folder = "";
let registry: Server;
let notFound = "";

beforeAll(async () => {
  folder = await makeTempDir("release-npm");
  // a registry that has never seen any package
  registry = createServer((_request, response) => {
    response.writeHead(404, { "content-type": "application/json" });
    response.end(JSON.stringify({ error: "Not found" }));
  });
  await new Promise<void>((resolve) => registry.listen(0, "127.0.0.1", resolve));
  notFound = `http://127.0.0.1:${(registry.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  await new Promise((resolve) => registry.close(resolve));
});

/** `npm view` of the package's latest version, at `loglevel` (npm's own when undefined, whatever this run was given). */
const view = (url: string, loglevel: string | undefined) => {
  const { npm_config_loglevel: _, ...env } = process.env;
  return runNpm(["view", "workforce-scheduling-api", "dist-tags.latest", "--json", "--registry", url], folder, {
    ...env,
    npm_config_fetch_retries: "0",
    ...(loglevel === undefined ? {} : { npm_config_loglevel: loglevel }),
  });
};

describe.each([
  ["npm's own log level", undefined],
  ["the level npm run -s hands down", "silent"],
])("npm's error, at %s", (_, loglevel) => {
  it("names a registry that refuses the connection", async () => {
    const result = await view("http://127.0.0.1:9/", loglevel);
    expect(result.code).not.toBe(0);
    if (loglevel === "silent") expect(result.stderr).toBe("");
    expect(npmErrorCode(result)).toBe("ECONNREFUSED");
    expect(npmErrorText(result)).toMatch(
      /request to http:\/\/127\.0\.0\.1:9\/workforce-scheduling-api failed.*ECONNREFUSED/,
    );
  });

  it("says E404 for a package the registry has never seen, so a first release goes on", async () => {
    const result = await view(notFound, loglevel);
    expect(result.code).not.toBe(0);
    expect(npmErrorCode(result)).toBe("E404");
  });
});

describe("npm's error text", () => {
  it("falls back to the exit code when npm said nothing it can read", () => {
    expect(npmErrorText({ code: 3, stdout: "", stderr: "" })).toBe("npm exited with code 3");
    expect(npmErrorText({ code: 1, stdout: "{ not json", stderr: "" })).toBe("npm exited with code 1");
    expect(npmErrorCode({ code: 1, stdout: '{"error": "a string"}', stderr: "" })).toBeUndefined();
  });
});
