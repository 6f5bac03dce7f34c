/**
 * The server the storm runs against: the mock server of `npm start` (buildServer, the mock
 * handlers, a key list), with each handler telling in response headers what it received, so the
 * storm can check that no value reached a handler cut short or rounded. Prints its port.
 */
import {
  buildServer,
  createKeyAuthenticator,
  createMockHandlers,
  type Handlers,
} from "../../../../generated/server/index.js";
import { digest, STORM_KEY } from "./wire.js";

const mock = createMockHandlers();
const handlers = Object.fromEntries(
  Object.entries(mock).map(([key, handler]) => [
    key,
    async (input: { params: Record<string, unknown>; body: unknown }) => {
      const answer = await (handler as (input: unknown) => unknown)(input);
      return { ...(answer as object), headers: received(input) };
    },
  ]),
) as unknown as Handlers;

/** The path parameters as text, and a digest of the body with each file as its name and size. */
function received({ params, body }: { params: Record<string, unknown>; body: unknown }): Record<string, string> {
  const headers: Record<string, string> = {};
  if (params["id"] !== undefined) headers["x-received-id"] = encodeURIComponent(String(params["id"]));
  if (body !== undefined) headers["x-received-body"] = digest(body);
  return headers;
}

const app = await buildServer({ handlers, authenticate: createKeyAuthenticator([STORM_KEY]) });
await app.listen({ host: "127.0.0.1", port: 0 });
const address = app.server.address();
process.stdout.write(
  `${JSON.stringify({ port: typeof address === "object" && address !== null ? address.port : 0 })}\n`,
);
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => void app.close().then(() => process.exit(0)));
