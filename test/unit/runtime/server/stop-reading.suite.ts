import { once } from "node:events";
import { type AddressInfo, connect, type Socket } from "node:net";
import { type FastifyInstance, type FastifyReply, type FastifyRequest, fastify } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Route } from "../../../../runtime/route-types.js";
import { buildApiServer } from "../../../../runtime/server/app.js";
import { createNotFoundHandler } from "../../../../runtime/server/runtime/not-found.js";
import { mountRoutes, type PipelineSettings } from "../../../../runtime/server/runtime/pipeline.js";
import {
  answerUnroutedEarly,
  stopReadingOnSend,
  stopsReading,
} from "../../../../runtime/server/runtime/stop-reading.js";
import { rawExchange } from "../../../support/raw-http.js";
import { countBytesRead, type PushOptions, pushBody } from "../../../support/unwanted-body.js";
import { accepting, apiKey, content, route } from "../support/routes.js";

const MIB = 1024 * 1024;
/** A POST route needing the X-Secret key and taking a body of `mediaType`. */
function securedPost(operationId: string, path: string, mediaType: string): Route {
  return route({
    operationId,
    method: "POST",
    path,
    security: [[apiKey("header", "X-Secret")]],
    body: { required: true, pointer: "#/body", contents: [content(mediaType)] },
    responses: { "201": [] },
    validators: { body: { [mediaType]: accepting() }, responses: {} },
  });
}

const TABLE = {
  createThing: securedPost("createThing", "/things", "application/json"),
  uploadFile: securedPost("uploadFile", "/files", "application/octet-stream"),
};

/** A server of TABLE under /api, as buildServer makes one, with `options` (a refused body's bound). */
async function serve(options: { refusedBodyLimit?: number } = {}): Promise<FastifyInstance> {
  const settings: PipelineSettings = {
    authenticate: (key) => key === "secret",
    bodyLimit: MIB,
    fileSizeLimit: MIB,
    validateResponses: false,
    ...options,
  };
  const answer = () => ({ status: 201 });
  const registerRoutes = async (app: FastifyInstance): Promise<void> => {
    await app.register(
      async (scope) => {
        mountRoutes(scope, TABLE, () => ({ handler: answer, owner: {} }), settings);
        scope.setNotFoundHandler(createNotFoundHandler(Object.values(TABLE), "/api"));
      },
      { prefix: "/api" },
    );
  };
  const app = await buildApiServer({ routes: TABLE, basePath: "/api", registerRoutes }, options);
  await app.listen({ host: "127.0.0.1", port: 0 });
  return app;
}

describe("stopReading: a body answered before it arrived", () => {
  let app: FastifyInstance;
  let port: number;
  let counted: ReturnType<typeof countBytesRead>;
  beforeAll(async () => {
    app = await serve();
    port = (app.server.address() as AddressInfo).port;
    counted = countBytesRead(app.server);
  });
  afterAll(() => app.close());

  /** Pushes a body with `head`; answers what the sender saw and the bytes the server read. */
  async function push(head: string, options: PushOptions): Promise<{ head: string; ended: string; read: number }> {
    const [outcome, read] = await Promise.all([pushBody(port, `${head}\r\nhost: x`, options), counted.closed()]);
    return { head: outcome.head, ended: outcome.ended, read };
  }

  it.each([
    ["a 401", "POST /api/things HTTP/1.1\r\ncontent-type: application/json\r\nx-secret: wrong", 401],
    ["a 401, no key", "POST /api/things HTTP/1.1\r\ncontent-type: application/json", 401],
    ["a 404 outside the base path", "POST /elsewhere HTTP/1.1\r\ncontent-type: application/json", 404],
    ["a 404 under it", "POST /api/nothing HTTP/1.1\r\ncontent-type: application/json", 404],
    ["a 405", "PUT /api/things HTTP/1.1\r\ncontent-type: application/json\r\nx-secret: secret", 405],
    ["a 415", "POST /api/things HTTP/1.1\r\ncontent-type: text/plain\r\nx-secret: secret", 415],
    [
      "a 413 of its declared length",
      "POST /api/files HTTP/1.1\r\ncontent-type: application/octet-stream\r\nx-secret: secret",
      413,
    ],
  ])("reads under 1 MiB of a declared 1 GiB after %s, and closes the connection", async (_, head, status) => {
    const outcome = await push(head, { total: 2 ** 30 });
    expect(outcome.head).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
    expect(outcome.head.toLowerCase()).toContain("\r\nconnection: close");
    expect(outcome.ended).toBe("closed by the server");
    expect(outcome.read).toBeLessThan(MIB);
  });

  it("reads under 1 MiB of a chunked body sent for 2 s after a 401", async () => {
    const outcome = await push("POST /api/things HTTP/1.1\r\ncontent-type: application/json", {
      total: 2 ** 40,
      chunked: true,
      ms: 2000,
    });
    expect([outcome.head.split("\r\n")[0], outcome.ended]).toEqual([
      "HTTP/1.1 401 Unauthorized",
      "closed by the server",
    ]);
    expect(outcome.read).toBeLessThan(MIB);
  });

  it("cuts a raw upload at the file limit as it streams, with 413", async () => {
    const outcome = await push(
      "POST /api/files HTTP/1.1\r\ncontent-type: application/octet-stream\r\nx-secret: secret",
      {
        total: 100 * MIB,
        chunked: true,
      },
    );
    expect(outcome.head.split("\r\n")[0]).toBe("HTTP/1.1 413 Payload Too Large");
    expect(outcome.read).toBeLessThan(MIB + MIB / 2);
  });

  it("keeps a connection whose refused request arrived whole, for the next request", async () => {
    const refused =
      "POST /api/things HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}";
    const next = `${refused.replace("host: x", "host: x\r\nx-secret: secret\r\nconnection: close")}`;
    const [exchange] = await Promise.all([rawExchange(port, [refused, next]), counted.closed()]);
    expect(exchange.answers.map((answer) => [answer.status, answer.headers["connection"]])).toEqual([
      [401, "keep-alive"],
      [201, "close"],
    ]);
  });
});

describe("stopReading, its bound", () => {
  it("reads a refused body within refusedBodyLimit to its end, so its sender sees the answer after sending", async () => {
    const app = await serve({ refusedBodyLimit: 8 * MIB });
    const counted = countBytesRead(app.server);
    try {
      const port = (app.server.address() as AddressInfo).port;
      const [outcome, read] = await Promise.all([
        pushBody(port, "POST /api/things HTTP/1.1\r\nhost: x\r\ncontent-type: application/json", { total: 4 * MIB }),
        counted.closed(),
      ]);
      expect([outcome.head.split("\r\n")[0], outcome.ended]).toEqual(["HTTP/1.1 401 Unauthorized", "sent whole"]);
      expect(read).toBeGreaterThan(4 * MIB);
    } finally {
      await app.close();
    }
  });
});

describe("stopReadingOnSend", () => {
  it("marks the instance and the scopes it holds, which then add no hook of their own", async () => {
    const plain = fastify();
    const app = fastify();
    stopReadingOnSend(app, 1024);
    const scopes: boolean[] = [];
    for (const instance of [plain, app])
      await instance.register(async (scope) => void scopes.push(stopsReading(scope)), { prefix: "/api" });
    await Promise.all([plain.ready(), app.ready()]);
    expect([stopsReading(plain), stopsReading(app), ...scopes]).toEqual([false, true, false, true]);
    await Promise.all([plain.close(), app.close()]);
  });

  it("has each answer seen by its note first, in the one hook", async () => {
    const app = fastify();
    const seen: [number, unknown][] = [];
    stopReadingOnSend(app, 1024, (reply, payload) => void seen.push([reply.statusCode, payload]));
    app.get("/thing", async (_request, reply) => reply.code(404).send("gone"));
    const answer = await app.inject({ method: "GET", url: "/thing" });
    expect([answer.statusCode, seen]).toEqual([404, [[404, "gone"]]]);
    await app.close();
  });

  it("serves buildServer's routes with the instance's hook alone: a route's scope is marked", async () => {
    let marked: boolean | undefined;
    const app = await buildApiServer(
      {
        routes: TABLE,
        basePath: "/api",
        registerRoutes: async (instance) => {
          await instance.register(
            async (scope) => {
              marked = stopsReading(scope);
            },
            { prefix: "/api" },
          );
        },
      },
      {},
    );
    await app.ready();
    expect(marked).toBe(true);
    await app.close();
  });
});

describe("answerUnroutedEarly", () => {
  it("lets a routed request go on without reading its route's options, which Fastify makes anew on each read", () => {
    let read = 0;
    const routed = {
      is404: false,
      get routeOptions() {
        read += 1;
        return { handler: () => undefined };
      },
    } as unknown as FastifyRequest;
    let went = 0;
    answerUnroutedEarly(routed, {} as FastifyReply, () => {
      went += 1;
    });
    expect([went, read]).toEqual([1, 0]);
  });
});

describe("closeUnusedConnections", () => {
  it("closes at once a connection that never sent a byte, beside one kept alive after a request", async () => {
    const app = await serve();
    const port = (app.server.address() as AddressInfo).port;
    const unused = connect(port, "127.0.0.1");
    const used = connect(port, "127.0.0.1");
    const ended = (socket: Socket): Promise<void> => new Promise((resolve) => socket.once("close", () => resolve()));
    const closedUnused = ended(unused);
    const closedUsed = ended(used);
    await Promise.all([once(unused, "connect"), once(used, "connect")]);
    used.write(
      "POST /api/things HTTP/1.1\r\nhost: x\r\nx-secret: secret\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}",
    );
    const [answer] = (await once(used, "data")) as [Buffer];
    expect(answer.toString("latin1")).toMatch(/^HTTP\/1\.1 201 .*\r\nconnection: keep-alive\r\n/is);
    const start = Date.now();
    await app.close();
    await Promise.all([closedUnused, closedUsed]);
    // Node alone waits for the unused connection's headers timeout (a minute) before it closes
    expect(Date.now() - start).toBeLessThan(2000);
  });
});
