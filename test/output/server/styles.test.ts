/**
 * Label and matrix path parameters and cookie parameters, end to end over loopback HTTP
 * (test/fixtures/generality/10-styles-and-cookies.yaml): the generated client serialises each as
 * OpenAPI's style tables say, the generated Fastify server parses, validates and converts it, and
 * the handler receives it typed; what breaks the contract gets 400 naming the part. The Fetch
 * transport reads them the same (the generated MSW handlers over msw/node), and a webhook's cookie
 * reaches both of its receivers from the typed sender. The output's typecheck is test/output/generality's.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import type { HttpHandler } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../../src/index.js";
import { chromiumPath, noBrowserMessage, requireBrowserInCi } from "../../support/browser.js";
import { runPageScript } from "../../support/page-run.js";
import { repoRoot } from "../../support/paths.js";

const out = join(repoRoot, ".tmp", `styles-${process.pid}`);
const spec = join(repoRoot, "test/fixtures/generality/10-styles-and-cookies.yaml");

type Input = { params: unknown; cookies: unknown };
type Handler = (input: Input) => unknown;
type Call = (args: object) => Promise<unknown>;
interface ServerModule {
  buildServer(options: { handlers: Record<string, Handler> }): Promise<FastifyInstance>;
}
interface PackageModule {
  createClient(options: { baseUrl: string }): Record<string, Call>;
}
interface MswModule {
  createMswHandlers(handlers: Record<string, Handler>): HttpHandler[];
}
interface WebhooksModule {
  registerWebhooks(app: FastifyInstance, options: { handlers: Record<string, Handler> }): Promise<void>;
  createWebhookReceiver(options: { handlers: Record<string, Handler> }): (request: Request) => Promise<Response>;
  createWebhookSender(options: { baseUrl: string }): Record<string, Call>;
}

const echo: Handler = ({ params, cookies }) => ({ status: 200, body: { params, cookies } });
const handlers = { getLabel: echo, getMatrix: echo, getSession: echo };
const hookCookies: unknown[] = [];
const hookHandlers = {
  loginHook: ({ cookies }: Input) => {
    hookCookies.push(cookies);
    return { status: 204 };
  },
};
let app: FastifyInstance;
let base = "";
let pkg: PackageModule;
let client: Record<string, Call>;
let webhooks: WebhooksModule;

const urlOf = (instance: FastifyInstance): string => {
  const address = instance.server.address();
  return `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`;
};

beforeAll(async () => {
  await generate({ spec, out });
  const server = (await import(join(out, "server", "index.ts"))) as ServerModule;
  pkg = (await import(join(out, "index.ts"))) as PackageModule;
  webhooks = {
    ...((await import(join(out, "webhooks", "index.ts"))) as Omit<WebhooksModule, "registerWebhooks">),
    ...((await import(join(out, "webhooks", "receiver.ts"))) as Pick<WebhooksModule, "registerWebhooks">),
  };
  app = await server.buildServer({ handlers });
  await webhooks.registerWebhooks(app, { handlers: hookHandlers });
  await app.listen({ host: "127.0.0.1", port: 0 });
  base = urlOf(app);
  client = pkg.createClient({ baseUrl: base });
}, 60_000);
afterAll(async () => {
  await app?.close();
  await rm(out, { recursive: true, force: true });
});

// items holding the styles' own delimiters travel whole
const labelArgs = { path: { id: 5, tags: ["a b", "c.d,e"], point: { x: 1, y: 2 } } };
const matrixArgs = { path: { id: "ab", tags: [1, 2], spread: ["x;y", "z=w,v"], point: { x: 3, y: 4 } } };
const matrixByHand = { id: "ab", tags: [1, 2], spread: ["x", "y"], point: { x: 3, y: 4 } };
const cookies = {
  session: "s3cr=t;x",
  visits: 3,
  flags: ["a,b", "c"],
  prefs: { theme: "dark", size: 2 },
  cart: { items: 2 },
};

describe("label and matrix path parameters", () => {
  it("are sent and read as the style tables write them, converted by the validators", async () => {
    expect(await client["getLabel"]?.(labelArgs)).toEqual({ params: labelArgs.path, cookies: {} });
    expect(await client["getMatrix"]?.(matrixArgs)).toEqual({ params: matrixArgs.path, cookies: {} });
  });

  it("are read from the wire as written by hand, and refused without their prefix", async () => {
    const matrix = await fetch(`${base}/matrix/;id=ab/;tags=1,2/;spread=x;spread=y/;x=3;y=4`);
    expect(await matrix.json()).toEqual({ params: matrixByHand, cookies: {} });
    const label = await fetch(`${base}/label/.7/.a.b/.x,1,y,2`);
    expect(await label.json()).toEqual({ params: { id: 7, tags: ["a", "b"], point: { x: 1, y: 2 } }, cookies: {} });
    const bare = await fetch(`${base}/label/7/.a/.x,1,y,2`);
    expect(bare.status).toBe(400);
    expect(await bare.json()).toMatchObject({ errors: [{ in: "path", keyword: "required" }] });
  });

  it("are checked by the client before the call leaves", async () => {
    await expect(client["getMatrix"]?.({ path: { ...matrixArgs.path, id: "a" } })).rejects.toMatchObject({
      name: "RequestValidationError",
      errors: [{ in: "path", instancePath: "/id" }],
    });
  });
});

describe("cookie parameters", () => {
  it("are sent in the Cookie header and read, validated and converted by the server", async () => {
    expect(await client["getSession"]?.({ cookies })).toEqual({ params: {}, cookies });
  });

  it("refuse a missing or invalid cookie with 400 naming the cookie", async () => {
    const missing = await fetch(`${base}/session`, { headers: { cookie: "other=1" } });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ errors: [{ in: "cookie", keyword: "required" }] });
    const invalid = await fetch(`${base}/session`, { headers: { cookie: "session=abcd; visits=-1" } });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ errors: [{ in: "cookie", instancePath: "/visits" }] });
  });

  it("refuse a malformed or non-UTF-8 escape, and JSON nested deeper than a body may be, with 400", async () => {
    for (const cookie of ["session=abcd%zz", "session=abcd%", "session=abcd%C0%AF", "session=abcd%FF"]) {
      const answer = await fetch(`${base}/session`, { headers: { cookie } });
      expect([cookie, answer.status, ((await answer.json()) as { detail: string }).detail]).toEqual([
        cookie,
        400,
        'The cookie "session" is not valid percent-encoded UTF-8: write a "%" as %25, and percent-encode its text as UTF-8.',
      ]);
    }
    const deep = `${"[".repeat(1001)}${"]".repeat(1001)}`;
    const nested = await fetch(`${base}/session`, { headers: { cookie: `session=abcd; cart=${deep}` } });
    expect([nested.status, ((await nested.json()) as { detail: string }).detail]).toEqual([
      400,
      'The cookie "cart" is nested more than 1000 levels deep.',
    ]);
  });

  it("are checked by the client before the call leaves", async () => {
    await expect(client["getSession"]?.({ cookies: { session: "ab" } })).rejects.toMatchObject({
      name: "RequestValidationError",
      errors: [{ in: "cookie", instancePath: "/session" }],
    });
  });
});

describe("the Fetch transport (the generated MSW handlers over msw/node)", () => {
  it("reads label and matrix path parameters and cookies as the Fastify server does", async () => {
    const { createMswHandlers } = (await import(join(out, "msw", "index.ts"))) as MswModule;
    const msw = setupServer(...createMswHandlers(handlers));
    msw.listen({ onUnhandledRequest: "bypass" });
    try {
      const mocked = pkg.createClient({ baseUrl: "https://styles.example" });
      expect(await mocked["getLabel"]?.(labelArgs)).toEqual({ params: labelArgs.path, cookies: {} });
      expect(await mocked["getMatrix"]?.(matrixArgs)).toEqual({ params: matrixArgs.path, cookies: {} });
      expect(await mocked["getSession"]?.({ cookies })).toEqual({ params: {}, cookies });
      const invalid = await fetch("https://styles.example/session", { headers: { cookie: "visits=x" } });
      expect(await invalid.json()).toMatchObject({
        errors: [
          { in: "cookie", instancePath: "/visits", keyword: "type" },
          { in: "cookie", instancePath: "", keyword: "required" },
        ],
      });
    } finally {
      msw.close();
    }
  });
});

describe("a webhook's cookie parameters", () => {
  it("reach the Fastify receiver from the typed sender", async () => {
    hookCookies.length = 0;
    const sender = webhooks.createWebhookSender({ baseUrl: `${base}/webhooks` });
    await sender["loginHook"]?.({ cookies: { session: "hook;session" } });
    expect(hookCookies).toEqual([{ session: "hook;session" }]);
  });

  it("take no other method (405 with Allow) and no body the webhook does not declare (415, its handler not called)", async () => {
    hookCookies.length = 0;
    const url = `${base}/webhooks/loginHook`;
    const wrongMethod = await fetch(url, { headers: { cookie: "session=s" } });
    expect([wrongMethod.status, wrongMethod.headers.get("allow")]).toEqual([405, "POST"]);
    for (const [type, body] of [
      ["text/plain", "x".repeat(3_000_000)],
      ["application/json", "{broken"],
    ] as const) {
      const sent = await fetch(url, { method: "POST", headers: { cookie: "session=s", "content-type": type }, body });
      expect([sent.status, ((await sent.json()) as { detail: string }).detail]).toEqual([
        415,
        "This operation takes no request body; send the request without one.",
      ]);
    }
    const receive = webhooks.createWebhookReceiver({ handlers: hookHandlers });
    const fetched = await receive(
      new Request("https://shop.example/webhooks/loginHook", {
        method: "POST",
        headers: { cookie: "session=s" },
        body: "{broken",
      }),
    );
    expect(fetched.status).toBe(415);
    expect(hookCookies).toEqual([]);
  });

  it("are read from the Cookie header by the Fetch receiver", async () => {
    hookCookies.length = 0;
    const receive = webhooks.createWebhookReceiver({ handlers: hookHandlers });
    const answer = await receive(
      new Request("https://shop.example/webhooks/loginHook", { method: "POST", headers: { cookie: "session=s%3B1" } }),
    );
    expect(answer.status).toBe(204);
    expect(hookCookies).toEqual([{ session: "s;1" }]);
    const refused = await receive(new Request("https://shop.example/webhooks/loginHook", { method: "POST" }));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ errors: [{ in: "cookie", keyword: "required" }] });
  });
});

/**
 * A page whose client calls the MSW handlers behind MSW's service worker. Its `fetch` drops the
 * `Cookie` header the client sets (a forbidden header name), so the handlers read the page's own
 * cookies, which MSW hands over apart.
 */
const PAGE_SCRIPT = (folder: string) => `
import { setupWorker } from "msw/browser";
import { createClient } from ${JSON.stringify(join(folder, "index.ts"))};
import { createMswHandlers } from ${JSON.stringify(join(folder, "msw", "index.ts"))};
const echo = ({ params, cookies }) => ({ status: 200, body: { params, cookies } });
window.run = async () => {
  const worker = setupWorker(...createMswHandlers({ getLabel: echo, getMatrix: echo, getSession: echo }));
  await worker.start({ quiet: true, serviceWorker: { url: "/mockServiceWorker.js" } });
  document.cookie = "session=page%3Bcookie; path=/";
  document.cookie = "flags=a,b; path=/";
  const client = createClient({ baseUrl: location.origin });
  return {
    session: await client.getSession({ cookies: { session: "dropped by fetch" } }),
    matrix: await client.getMatrix(${JSON.stringify(matrixArgs)}),
  };
};
`;

describe.skipIf(chromiumPath === undefined)(
  `the MSW handlers in a browser page${chromiumPath === undefined ? ` (skipped: ${noBrowserMessage})` : ""}`,
  () => {
    it("read the page's cookies, which its fetch does not send as a header, and matrix path parameters", async () => {
      const { answers, paths } = await runPageScript(PAGE_SCRIPT(out));
      expect(answers).toEqual({
        session: { params: {}, cookies: { session: "page;cookie", flags: ["a", "b"] } },
        matrix: { params: matrixArgs.path, cookies: {} },
      });
      // every call was answered in the page
      expect(paths.filter((path) => /^\/(session|matrix)/.test(path))).toEqual([]);
    }, 60_000);
  },
);

requireBrowserInCi();
