/**
 * Errors typed by status: `isApiError(error, "updateEvent")` is true for an `ApiError` of that
 * operation whose status the operation declares (exactly, by class, or as "default"; never 2xx)
 * and whose body is valid against that status's schema when it has one. It then narrows `status`
 * to the declared statuses and `body` to their types, discriminated by status.
 */
import { type OperationId, type Route, routes } from "../routes.js";
import { type Declared, declaredKeyOf, type StatusOf, type StatusRange } from "../statuses.js";
import type { ErrorAnswers } from "./client.js";
import { ApiError } from "./errors.js";

/** One declared answer: its status literal (or the statuses it stands for) with its body. */
type ErrorAnswer<R> = { [K in Declared<R>]: { readonly status: Exclude<StatusOf<K, R>, StatusRange<2>>; readonly body: R[K] } }[Declared<R>];

/** An `ApiError` of operation `K`: `status` and `body` as one of its declared error answers. */
export type ApiErrorOf<K extends keyof ErrorAnswers> = ApiError & ErrorAnswer<ErrorAnswers[K]>;

const ROUTES: Readonly<Record<string, Route>> = routes;

/** Whether `error` is an `ApiError` of `operationId` answered as the operation declares (narrowing it by status). */
export function isApiError<K extends keyof ErrorAnswers & OperationId>(error: unknown, operationId: K): error is ApiErrorOf<K> {
  if (!(error instanceof ApiError) || error.operationId !== operationId || (error.status >= 200 && error.status <= 299)) return false;
  const route = ROUTES[operationId];
  if (route === undefined) return false;
  const keys = Object.keys(route.responses).filter((key) => !key.startsWith("2"));
  const key = declaredKeyOf(keys, error.status);
  if (key === undefined) return false;
  const validator = Object.hasOwn(route.validators.responses, key) ? route.validators.responses[key] : undefined;
  return validator === undefined || error.body === undefined || validator(error.body).valid;
}
