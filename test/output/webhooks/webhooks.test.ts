/**
 * Webhooks and callbacks, generated from a webhook-only document (test/fixtures/generality/
 * 9-webhooks-only.yaml, two webhooks and no operation) and from an operation's callback (6.yaml):
 * the Fastify receiver over loopback HTTP takes what the typed sender posts, checks it as
 * operations are checked (400 with every issue, the answer against the contract), and the Fetch
 * receiver (edge runtimes, MSW) answers the same.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../../src/index.js";
import { repoRoot } from "../../support/paths.js";

const out = join(repoRoot, ".tmp", `webhooks-${process.pid}`);

type Send = (args: object) => Promise<unknown>;
interface WebhooksModule {
  registerWebhooks(app: FastifyInstance, options: object): Promise<void>;
  createWebhookReceiver(options: object): (request: Request) => Promise<Response>;
  createWebhookSender(options: object): Record<string, Send>;
  webhookRoutes: Record<string, { path: string }>;
}

const received: unknown[] = [];
const handlers = {
  authorisation: async ({ headers, body }: { headers: unknown; body: { amount: number } }) => {
    received.push({ headers, body });
    return body.amount === 13
      ? { status: 200, body: { received: "wrong" } }
      : { status: 200, body: { received: "[accepted]" } };
  },
  postREFUND: async ({ body }: { body: unknown }) => {
    received.push(body);
    return { status: 204 };
  },
};

let hooks: WebhooksModule;
let callbacks: WebhooksModule;
let app: FastifyInstance;
let base = "";

beforeAll(async () => {
  for (const fixture of ["9-webhooks-only", "6"])
    await generate({ spec: join(repoRoot, "test/fixtures/generality", `${fixture}.yaml`), out: join(out, fixture) });
  const load = async (fixture: string): Promise<WebhooksModule> => ({
    ...((await import(join(out, fixture, "webhooks/index.ts"))) as WebhooksModule),
    ...((await import(join(out, fixture, "webhooks/receiver.ts"))) as Pick<WebhooksModule, "registerWebhooks">),
  });
  hooks = await load("9-webhooks-only");
  callbacks = await load("6");
  app = Fastify();
  await hooks.registerWebhooks(app, { handlers, paths: { postREFUND: "/refunds" } });
  await callbacks.registerWebhooks(app, {
    prefix: "/callbacks",
    handlers: {
      eventCallback: async ({ body }: { body: unknown }) => {
        received.push(body);
        return { status: 200 };
      },
    },
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  base = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`;
}, 60_000);
afterAll(async () => {
  await app?.close();
  await rm(out, { recursive: true, force: true });
});

const notification = { eventCode: "AUTHORISATION", success: true, amount: 5 };

describe("a webhook-only document", () => {
  it("receives at /<name> under the prefix, or where `paths` says, what the sender posts", async () => {
    received.length = 0;
    const sender = hooks.createWebhookSender({ baseUrl: `${base}/webhooks`, paths: { postREFUND: "/refunds" } });
    const answer = await sender.authorisation?.({ headers: { "X-Signature": "signed-123" }, body: notification });
    expect(answer).toEqual({ received: "[accepted]" });
    expect(await sender.postREFUND?.({ body: { pspReference: "p1", amount: 3 } })).toBeUndefined();
    expect(received).toEqual([
      { headers: { "X-Signature": "signed-123" }, body: notification },
      { pspReference: "p1", amount: 3 },
    ]);
  });

  it("refuses a payload that breaks the contract with 400, listing every issue, before the handler", async () => {
    received.length = 0;
    const response = await fetch(`${base}/webhooks/authorisation`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-signature": "short" },
      body: JSON.stringify({ eventCode: "CAPTURE", success: true }),
    });
    expect(response.status).toBe(400);
    const problem = (await response.json()) as { errors: { in: string; keyword: string }[] };
    expect(problem.errors.map((issue) => `${issue.in} ${issue.keyword}`).sort()).toEqual([
      "body enum",
      "body required",
      "header minLength",
    ]);
    expect(received).toEqual([]);
  });

  it("checks the sender's input before sending, and the handler's answer against the contract", async () => {
    const sender = hooks.createWebhookSender({ baseUrl: `${base}/webhooks` });
    await expect(sender.postREFUND?.({ body: { pspReference: "p1", amount: 0 } })).rejects.toThrow(/amount/);
    await expect(
      sender.authorisation?.({ headers: { "X-Signature": "signed-123" }, body: { ...notification, amount: 13 } }),
    ).rejects.toMatchObject({ status: 500 });
  });

  it("the Fetch receiver answers as the Fastify one: a sender can post to it through its fetch", async () => {
    received.length = 0;
    const receive = hooks.createWebhookReceiver({ handlers, baseUrl: "https://shop.example/hooks" });
    const sender = hooks.createWebhookSender({
      baseUrl: "https://shop.example/hooks",
      fetch: (url: string, init: RequestInit) => receive(new Request(url, init)),
    });
    expect(await sender.authorisation?.({ headers: { "X-Signature": "signed-123" }, body: notification })).toEqual({
      received: "[accepted]",
    });
    const refused = await receive(
      new Request("https://shop.example/hooks/postREFUND", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      }),
    );
    expect(refused.status).toBe(400);
    expect((await receive(new Request("https://shop.example/elsewhere", { method: "POST" }))).status).toBe(404);
    expect(received).toHaveLength(1);
  });

  it("refuses a path that cannot be one, and a handler that is missing, saying which", async () => {
    expect(() => hooks.createWebhookReceiver({ handlers, paths: { postREFUND: "refunds" } })).toThrow(
      /paths.postREFUND: "refunds" is not a path/,
    );
    expect(() => hooks.createWebhookReceiver({ handlers: { authorisation: handlers.authorisation } })).toThrow(
      /no handler for operation postREFUND/,
    );
  });
});

describe("an operation's callback", () => {
  it("is received and sent as a webhook, at the URL the caller gave", async () => {
    received.length = 0;
    expect(Object.keys(callbacks.webhookRoutes)).toEqual(["eventCallback"]);
    const sender = callbacks.createWebhookSender({
      baseUrl: `${base}/callbacks/eventCallback`,
      paths: { eventCallback: "" },
    });
    await expect(sender.eventCallback?.({ body: { id: "e1" } })).resolves.toBeUndefined();
    const refused = await fetch(`${base}/callbacks/eventCallback`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id: 7 }),
    });
    expect(refused.status).toBe(400);
    expect(received).toEqual([{ id: "e1" }]);
  });
});
