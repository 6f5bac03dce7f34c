/**
 * The mock server's command (the generated `server/main.ts`, `npm run mock`), the same for every
 * spec: it reads where to listen (`--port`, `--host`, over PORT and HOST) and the keys (API_KEYS),
 * refuses an option it does not take, logs as a server's command does (readable lines on a
 * terminal, JSON lines on a pipe), prints a banner (where it listens, the reference, the keys, the
 * routes), says why it cannot listen in one line with the fix, and stops gracefully on SIGINT and
 * SIGTERM.
 */
/// <reference types="node" />
import type { FastifyInstance } from "fastify";
import type { Route } from "../../route-types.js";
import { DOCS_PATH } from "./docs.js";
import {
  closeOnSignals,
  commandLineOf,
  LISTEN_OPTIONS,
  listenError,
  listenSettingsOf,
  reachableOrigin,
  startFailure,
} from "./listen.js";
import { loggerFor } from "./log-output.js";
import type { LoggerOption } from "./logging.js";
import type { Authenticate } from "./security.js";

/** What a spec gives its mock server's command. */
export interface MockCommand {
  /** the route table, for the banner */
  readonly routes: readonly Route[];
  /** the path prefix of every route */
  readonly basePath: string;
  /** builds the server (handlers, reference) with the command's key check and logger, not yet listening */
  build(settings: { readonly authenticate: Authenticate; readonly logger: LoggerOption }): Promise<FastifyInstance>;
}

/** The name a command is run by, for its messages: "npm run mock" under npm, else "the mock server". */
export function commandNameOf(env: Readonly<Record<string, string | undefined>>): string {
  const script = env.npm_lifecycle_event;
  if (script === undefined || script === "") return "the mock server";
  return script === "start" ? "npm start" : `npm run ${script}`;
}

/** What `<command> -- --help` prints. */
export function mockUsage(command: string): string {
  return [
    `${command} [-- options]: every operation answers its example, or the one a request prefers`,
    ...LISTEN_OPTIONS.map(([option, meaning]) => `  ${option.padEnd(16)}${meaning}`),
    "  --help          this text",
    "API_KEYS (comma-separated) lists the accepted keys; without it any non-empty key is.",
  ].join("\n");
}

/**
 * Runs the mock server of `mock` with the command line `argv` and the environment `env`: answers
 * once it listens; exits the process with 1, saying why in one line on stderr, when it cannot start.
 */
export async function runMockCommand(
  mock: MockCommand,
  argv: readonly string[] = process.argv.slice(2),
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<void> {
  const command = commandNameOf(env);
  try {
    if (commandLineOf(argv, command, LISTEN_OPTIONS).help !== undefined) {
      process.stdout.write(`${mockUsage(command)}\n`);
      return;
    }
    const { host, port, authenticate } = listenSettingsOf(env, argv, command);
    const app = await mock.build({ authenticate, logger: await loggerFor(process.stdout) });
    const address = await app.listen({ host, port }).catch((error: unknown) => {
      throw listenError(error, host, port);
    });
    const keys = (env.API_KEYS ?? "").split(",").filter((key) => key.trim() !== "").length;
    process.stdout.write(`${mockBanner(mock, reachableOrigin(address), keys).join("\n")}\n`);
    closeOnSignals(app);
  } catch (error) {
    process.stderr.write(`${command}: ${startFailure(error, command)}\n`);
    process.exit(1);
  }
}

/** The lines printed once the mock listens at `origin`: where, the reference, the keys, each route. */
export function mockBanner(mock: Pick<MockCommand, "routes" | "basePath">, origin: string, keys: number): string[] {
  const credentials = credentialsOf(mock.routes);
  const accepted =
    keys > 0
      ? `the ${keys} ${keys === 1 ? "key" : "keys"} of API_KEYS`
      : "any non-empty value (API_KEYS, comma-separated, lists the accepted ones)";
  const width = Math.max(...mock.routes.map((route) => route.method.length), 0);
  return [
    `Mock server listening at ${origin}${mock.basePath} (reference: ${origin}${DOCS_PATH})`,
    "Answers: the spec's examples; Prefer: code=NNN, example=NAME or dynamic=true asks for another",
    credentials.length === 0 ? "Keys: no operation needs one" : `Keys: ${credentials.join(", ")} takes ${accepted}`,
    `Routes (${mock.routes.length}):`,
    ...[...mock.routes]
      .sort((a, b) => (a.path === b.path ? a.method.localeCompare(b.method) : a.path.localeCompare(b.path)))
      .map((route) => `  ${route.method.padEnd(width)} ${mock.basePath}${route.path}`),
  ];
}

/** The credentials the routes take, each once: "X-API-KEY (header)", "bearer token". */
function credentialsOf(routes: readonly Route[]): string[] {
  const names = new Set<string>();
  for (const route of routes)
    for (const schemes of route.security)
      for (const scheme of schemes)
        names.add(
          scheme.type === "apiKey" ? `${scheme.name ?? scheme.scheme} (${scheme.in ?? "header"})` : scheme.scheme,
        );
  return [...names].sort();
}
