/**
 * The webhook runtime on hand-written tables (test/unit/runtime/support/routes.ts): where each webhook
 * is received (`paths`), what a bad path or base URL is told, and the Fetch receiver serving a
 * table without the generator.
 */
import { describe, expect, it } from "vitest";
import { createFetchReceiver } from "../../../runtime/webhooks/runtime/fetch.js";
import { WebhookSender } from "../../../runtime/webhooks/runtime/sender.js";
import { relocate } from "../../../runtime/webhooks/runtime/table.js";
import { http, route } from "./support/routes.js";

const table = {
  paid: route({ operationId: "paid", method: "POST", path: "/paid", responses: { "204": [] } }),
  refunded: route({ operationId: "refunded", method: "POST", path: "/refunded", responses: { "204": [] } }),
};

describe("the webhook table", () => {
  it("moves only the webhooks `paths` names, to a path or to the base itself", () => {
    const moved = relocate(table, { paid: "/shop/paid", refunded: "" });
    expect([moved.paid.path, moved.refunded.path]).toEqual(["/shop/paid", ""]);
    expect(relocate(table, undefined)).toBe(table);
    expect(relocate(table, {}).paid.path).toBe("/paid");
  });

  it("refuses an unknown key and a path that cannot be one, saying what to give", () => {
    expect(() => relocate(table, { unknown: "/x" } as never)).toThrow(
      'paths.unknown: no webhook is named "unknown" (known: paid, refunded)',
    );
    expect(() => relocate(table, { paid: "/paid/{id}" })).toThrow(
      /paths.paid: "\/paid\/\{id\}" is not a path: give one starting with "\/"/,
    );
  });

  it("refuses a sender base URL that is not http(s)", () => {
    expect(() => new WebhookSender(table, { baseUrl: "/webhooks" })).toThrow(
      'baseUrl "/webhooks" is not an http(s) URL: give the consumer\'s, as "http://127.0.0.1:3000/webhooks"',
    );
  });

  it("serves the table over the Fetch API, each at its path, 404 outside the base", async () => {
    const seen: string[] = [];
    const receive = createFetchReceiver(table, {
      handlers: {
        paid: () => {
          seen.push("paid");
          return { status: 204 };
        },
        refunded: () => ({ status: 204 }),
      },
      paths: { paid: "/p" },
    });
    const post = (url: string): Promise<Response> => receive(new Request(url, { method: "POST" }));
    expect((await post("http://localhost/webhooks/p")).status).toBe(204);
    expect((await post("http://localhost/webhooks/paid")).status).toBe(404);
    expect((await post("http://localhost/other")).status).toBe(404);
    expect(seen).toEqual(["paid"]);
  });

  it("receives a webhook whose security is optional without an authenticate hook", async () => {
    const optional = {
      pinged: route({
        operationId: "pinged",
        method: "POST",
        path: "/pinged",
        responses: { "204": [] },
        security: [[http("bearer")], []],
      }),
    };
    const receive = createFetchReceiver(optional, { handlers: { pinged: () => ({ status: 204 }) } });
    const post = (headers: Record<string, string>): Promise<Response> =>
      receive(new Request("http://localhost/webhooks/pinged", { method: "POST", headers }));
    expect((await post({})).status).toBe(204);
    expect((await post({ authorization: "Bearer anything" })).status).toBe(204);
  });
});
