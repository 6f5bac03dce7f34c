/**
 * `npm run mock` as a process (scripts/mock.mjs, as npm runs it, without npm): where it listens from
 * `--port`/`--host`, its banner, the one-line refusals (an option it does not take, a port in use),
 * `--help`, and `--spec`, which serves the mock of another document as `prism mock` does.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir, repoRoot } from "../../support/paths.js";
import { freePort } from "../../support/postgres.js";

const running: ChildProcess[] = [];
afterAll(() => {
  for (const child of running) if (child.exitCode === null) child.kill("SIGKILL");
});

/** What `npm run mock -- <args>` printed (stdout and stderr together) and how it ended, or its process once it listens. */
interface Run {
  readonly child: ChildProcess;
  readonly output: () => string;
  /** resolves with the exit code when it ends, or with "listening" once its banner is printed */
  readonly settled: Promise<number | "listening">;
}

function mock(args: readonly string[]): Run {
  const child = spawn(process.execPath, [join(repoRoot, "scripts", "mock.mjs"), ...args], {
    cwd: repoRoot,
    env: { ...process.env, npm_lifecycle_event: "mock", PORT: "", HOST: "", API_KEYS: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.push(child);
  let text = "";
  const settled = new Promise<number | "listening">((resolve) => {
    const read = (chunk: Buffer): void => {
      text += chunk.toString("utf8");
      if (/^Routes \(\d+\):/m.test(text)) resolve("listening");
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.once("exit", (code) => resolve(code ?? 1));
  });
  return { child, output: () => text, settled };
}

describe("npm run mock", () => {
  it("listens where --port and --host say, prints its banner, and says in one line that a port is taken", async () => {
    const port = await freePort();
    const first = mock(["--port", String(port), "--host=127.0.0.1"]);
    expect(await first.settled, first.output()).toBe("listening");
    const origin = `http://127.0.0.1:${port}`;
    expect(first.output()).toContain(`Mock server listening at ${origin}/api/1_12 (reference: ${origin}/docs)\n`);
    expect(first.output()).toContain("Keys: X-API-KEY (header) takes any non-empty value");
    expect(first.output()).toMatch(/Routes \(9\):\n {2}PATCH \/api\/1_12\/clients\/\{id\}\n/);
    expect((await fetch(`${origin}/api/1_12/wage-rules`, { headers: { "x-api-key": "k" } })).status).toBe(200);
    const second = mock(["--port", String(port)]);
    expect(await second.settled).toBe(1);
    expect(second.output()).toBe(
      `npm run mock: port ${port} on 127.0.0.1 is in use: stop what uses it, or choose another with npm run mock -- --port ${port + 1} (or PORT=${port + 1}; 0 picks a free one)\n`,
    );
  });

  it("refuses an option it does not take, with those it takes, and lists them with --help", async () => {
    const [wrong, help] = [mock(["--prot", "4101"]), mock(["--help"])];
    expect(await wrong.settled).toBe(1);
    expect(wrong.output()).toBe(
      "npm run mock: unknown option --prot: npm run mock takes --port N and --host ADDRESS (npm run mock -- --help says what each does)\n",
    );
    expect(await help.settled).toBe(0);
    expect(help.output()).toMatch(/^ {2}--port N {8}the port to listen on/m);
    expect(help.output()).toMatch(/^ {2}--spec FILE {5}serve the mock of another OpenAPI/m);
  });

  it("serves the mock of another document with --spec, generated into --out", async () => {
    const out = join(await makeTempDir("mock-spec"), "pagination");
    const port = await freePort();
    const other = mock(["--spec", "test/fixtures/pagination/openapi.yaml", "--out", out, "--port", String(port)]);
    expect(await other.settled, other.output()).toBe("listening");
    expect(other.output()).toContain(
      `generating the mock of ${join(repoRoot, "test/fixtures/pagination/openapi.yaml")} into ${out}...`,
    );
    expect(other.output()).toContain("Keys: no operation needs one");
    const response = await fetch(`http://127.0.0.1:${port}/items?limit=5`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ items: expect.any(Array), total: expect.any(Number) });
    const missing = mock(["--spec", "nowhere.yaml"]);
    expect(await missing.settled).toBe(2);
    expect(missing.output()).toContain("nowhere.yaml does not exist: give the path of an OpenAPI document");
  });
});
