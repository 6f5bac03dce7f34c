/**
 * The sandbox's implementation of the generated `Handlers`: each operation's rules over the
 * database, for the company of the caller's key. Every handler answers one of its operation's
 * declared responses (the compiler holds it to that); the generated server has already checked
 * the key, the media type and the input against the contract, and checks the answer too.
 */
import type { Handlers } from "workforce-scheduling-api/server";
import { updateClient } from "./clients.js";
import type { ServiceContext } from "./context.js";
import { createEvent, listEvents, updateEvent } from "./events.js";
import type { Caller } from "./keys.js";
import { createPayrollGroup } from "./payroll-groups.js";
import { notFound, unprocessable } from "./refusals.js";
import { storable, unstorableStrings } from "./storable.js";
import { createVenue } from "./venues.js";
import { listWageRules } from "./wage-rules.js";
import { addWorkerCredential, addWorkerDocument } from "./workers.js";

/** The handlers of one sandbox. */
export function createSandboxHandlers(context: ServiceContext): Handlers<Caller> {
  return {
    addWorkerCredential: ({ principal, params, body }) =>
      storing(body, () => addWorkerCredential(context, principal, params.id, body)),
    addWorkerDocument: ({ principal, params, body }) =>
      storing(body, () => addWorkerDocument(context, principal, params.id, body)),
    createEvent: ({ principal, body }) => storing(body, () => createEvent(context, principal, body)),
    createPayrollGroup: ({ principal, body }) => storing(body, () => createPayrollGroup(context, principal, body)),
    createVenue: ({ principal, body }) => storing(body, () => createVenue(context, principal, body)),
    listEvents: ({ principal }) => listEvents(context, principal),
    listWageRules: ({ principal }) => listWageRules(context, principal),
    updateClient: ({ principal, params, body }) =>
      storable(params.id) ? storing(body, () => updateClient(context, principal, params.id, body)) : notFound(),
    updateEvent: ({ principal, params, body }) => storing(body, () => updateEvent(context, principal, params.id, body)),
  };
}

/** Runs a write whose body the database can hold as sent; answers 422 for one it cannot. */
async function storing<T>(body: unknown, write: () => Promise<T>): Promise<T | ReturnType<typeof unprocessable>> {
  const refusals = unstorableStrings(body);
  return refusals.length > 0 ? unprocessable(refusals) : write();
}
