/**
 * Errors typed by status: an `ApiError` of an operation is one of its declared answers when the
 * operation declares its status (exactly, by class, or as "default"; never 2xx) and its body is
 * valid against that status's schema when it has one. The client's `isApiError` binds this to the
 * spec's route table and its `ErrorAnswers`, narrowing `status` to the declared statuses and `body`
 * to their types, discriminated by status.
 */
import type { Route } from "../route-types.js";
import { type Declared, declaredKeyOf, type StatusOf, type StatusRange } from "../statuses.js";
import { ApiError } from "./errors.js";

/** One declared answer of `R` (an operation's error answers by status): its status literal (or the statuses it stands for) with its body. */
export type ErrorAnswer<R> = {
  [K in Declared<R>]: { readonly status: Exclude<StatusOf<K, R>, StatusRange<2>>; readonly body: R[K] };
}[Declared<R>];

/** Whether `error` is an `ApiError` of `operationId` answered as the operation's route in `routes` declares. */
export function isDeclaredApiError(
  routes: Readonly<Record<string, Route>>,
  error: unknown,
  operationId: string,
): error is ApiError {
  if (!(error instanceof ApiError) || error.operationId !== operationId || (error.status >= 200 && error.status <= 299))
    return false;
  const route = routes[operationId];
  if (route === undefined) return false;
  const key = declaredErrorKey(route, error.status);
  if (key === undefined) return false;
  const validator = Object.hasOwn(route.validators.responses, key) ? route.validators.responses[key] : undefined;
  return validator === undefined || error.body === undefined || validator(error.body).valid;
}

/** The key under which `route` declares `status` as an error answer (exactly, by class, or default; never 2xx). */
export function declaredErrorKey(route: Pick<Route, "responses">, status: number): string | undefined {
  if (status >= 200 && status <= 299) return undefined;
  const keys = Object.keys(route.responses).filter((key) => !key.startsWith("2"));
  return declaredKeyOf(keys, status);
}
