/**
 * Requests no route takes. Fastify's router answers both an unknown path and a known path with a
 * wrong method as "not found"; this handler tells them apart from the route table: a path some
 * operation serves, with another method, is a 405 with an `Allow` header; anything else a 404.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Route } from "../../route-types.js";
import { pathOf } from "./errors.js";
import type { Outcome } from "./exchange.js";
import { createProblem, problemOutcome } from "./problems.js";
import { writeOutcome } from "./reply.js";

/** Fastify's not-found handler. */
export type NotFoundHandler = (request: FastifyRequest, reply: FastifyReply) => void;

/** The answer to a request no route takes, by its method and target: 405 with `Allow`, or 404. */
export type NotFoundAnswer = (method: string, url: string) => Outcome;

interface PathPattern {
  readonly pattern: RegExp;
  readonly methods: string[];
}

const NOT_FOUND = createProblem("notFound", "No resource matches this path.");

/** The not-found handlers made here, which answer without reading the body (stop-reading.ts). */
const HANDLERS = new WeakSet<object>();

/** A not-found handler for routes served under `prefix` (no routes: a plain 404). */
export function createNotFoundHandler(routes: readonly Route[], prefix: string): NotFoundHandler {
  const answer = compileNotFound(routes, prefix);
  const handler: NotFoundHandler = (request, reply) => writeOutcome(reply, answer(request.method, request.url));
  HANDLERS.add(handler);
  return handler;
}

/** Whether `handler` is a not-found handler of `createNotFoundHandler`. */
export function isNotFoundHandler(handler: unknown): handler is NotFoundHandler {
  return typeof handler === "function" && HANDLERS.has(handler);
}

/** The not-found answer of routes served under `prefix`, whatever the transport. */
export function compileNotFound(routes: readonly Route[], prefix: string): NotFoundAnswer {
  const patterns = compilePatterns(routes);
  return (method, url) => {
    const path = pathOf(url);
    const local = prefix !== "" && path.startsWith(prefix) ? path.slice(prefix.length) : path;
    const allowed = prefix === "" || local !== path ? allowedMethods(patterns, local) : [];
    if (allowed.length === 0) return problemOutcome(NOT_FOUND);
    const allow = allowed.join(", ");
    const detail = `The method ${method} is not allowed on this path; use ${allow}.`;
    return problemOutcome(createProblem("methodNotAllowed", detail), { allow });
  };
}

function compilePatterns(routes: readonly Route[]): PathPattern[] {
  const byPath = new Map<string, PathPattern>();
  for (const route of routes) {
    const path = route.path.split("?")[0] ?? "";
    const known = byPath.get(path) ?? { pattern: toPattern(path), methods: [] };
    known.methods.push(route.method);
    if (route.method === "GET") known.methods.push("HEAD");
    byPath.set(path, known);
  }
  return [...byPath.values()];
}

/** "/workers/{id}/documents" → /^\/workers\/[^/]+\/documents$/ */
function toPattern(template: string): RegExp {
  const source = template
    .split(/\{[^}]*\}/)
    .map((text) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"))
    .join("[^/]+");
  return new RegExp(`^${source}$`);
}

function allowedMethods(patterns: readonly PathPattern[], path: string): string[] {
  const methods = new Set<string>();
  for (const { pattern, methods: served } of patterns)
    if (pattern.test(path)) for (const method of served) methods.add(method);
  return [...methods].sort();
}
