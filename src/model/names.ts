/**
 * The one naming authority: every identifier the emitters write is decided here, so two generated
 * things can never silently get the same name. Names are claimed in a fixed order (component
 * schemas by key, then operations by id), so the result is deterministic.
 */
import { routeTypeNames } from "./route-table-names.js";

/** Names the types module and the package root already use, or that generated code refers to
 * unqualified; a schema cannot take them. */
export const RESERVED_TYPE_NAMES: ReadonlySet<string> = new Set([
  // openapi-typescript's output and its helpers
  "paths",
  "components",
  "operations",
  "webhooks",
  "$defs",
  "$Read",
  "$Write",
  "Readable",
  "Writable",
  "WithRequired",
  "Unmarked",
  // TypeScript utility types the types module refers to unqualified (other modules import the
  // types under a namespace, so a schema named "Error" or "File" shadows nothing there)
  "Record",
  "Omit",
  "Extract",
  "Exclude",
  "Pick",
  "Partial",
  "Required",
  "Readonly",
  "ReadonlyArray",
  "NonNullable",
  // the client's exports, which share the package root with the types
  "createClient",
  "createBaseClient",
  "Client",
  "ClientOptions",
  "CallOptions",
  "RetryOptions",
  "RetryPolicy",
  "timingOut",
  "TimeoutPolicy",
  "checkingAnswers",
  "AnswerCheck",
  "ApiError",
  "ApiErrorOf",
  "ErrorAnswers",
  "isApiError",
  "ApiTimeoutError",
  "ApiNetworkError",
  "RequestValidationError",
  "ResponseValidationError",
  "UnexpectedError",
  "UnexpectedKind",
  "BaseClient",
  "BaseClientOptions",
  "retrying",
  // the route table's own exports, also at the package root (its types come from the runtime, below)
  "routes",
  "responseValidators",
  "OperationId",
  "basePath",
  "servers",
  "serverUrl",
  ...routeTypeNames(),
  // the validators module's own exports
  "ValidationError",
  "ValidateOptions",
  "ValidationResult",
]);

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Method names a client object cannot carry: `then` would make it look like a promise, the
 * others would shadow what every object has. Such operations get "<name>Operation". */
export const RESERVED_METHOD_NAMES: ReadonlySet<string> = new Set([
  "then",
  "catch",
  "finally",
  "constructor",
  "prototype",
  "__proto__",
  "toString",
  "valueOf",
  "hasOwnProperty",
]);

/** Words of a raw name: split at anything that is not an ASCII letter or digit. */
function words(raw: string): string[] {
  return raw.split(/[^A-Za-z0-9]+/).filter((word) => word.length > 0);
}

/** "account_capability" → "AccountCapability", "createVenue" → "CreateVenue", "0" → "Schema0". */
export function toPascalCase(raw: string): string {
  const joined = words(raw)
    .map((word) => word[0]?.toUpperCase() + word.slice(1))
    .join("");
  if (joined === "") return "Schema";
  return /^[0-9]/.test(joined) ? `Schema${joined}` : joined;
}

/** "list-events" → "listEvents"; a valid identifier is kept as written ("GetAccounts"). */
export function toMethodName(raw: string): string {
  const name = IDENTIFIER.test(raw) ? raw : camelCase(raw);
  return RESERVED_METHOD_NAMES.has(name) ? `${name}Operation` : name;
}

function camelCase(raw: string): string {
  const pascal = words(raw)
    .map((word) => word[0]?.toUpperCase() + word.slice(1))
    .join("");
  const camel = pascal.charAt(0).toLowerCase() + pascal.slice(1);
  return camel === "" || /^[0-9]/.test(camel) ? `operation${pascal}` : camel;
}

/** "get", "/pets/{petId}/photos" → "getPetsByPetIdPhotos", for operations without an operationId. */
export function deriveOperationId(method: string, path: string): string {
  const parts = path
    .split("/")
    .filter((segment) => segment !== "")
    .map((segment) => {
      const parameter = /^\{(.+)\}$/.exec(segment);
      return parameter?.[1] !== undefined ? `By${toPascalCase(parameter[1])}` : toPascalCase(segment);
    });
  return `${method}${parts.join("") || "Root"}`;
}

/** A name that had to be changed, and why: reported as a warning. */
export interface NameAdjustment {
  readonly owner: string;
  readonly wanted: string;
  readonly given: string;
  readonly reason: string;
}

/**
 * One namespace of generated identifiers. `claim` gives the wanted name when it is free, or the
 * first free `<name>2`, `<name>3`, ... and records the adjustment.
 */
export class NameRegistry {
  private readonly owners = new Map<string, string>();
  readonly adjustments: NameAdjustment[] = [];

  constructor(private readonly reserved: ReadonlySet<string> = new Set()) {}

  /** The owner that holds a name, if any. */
  ownerOf(name: string): string | undefined {
    return this.owners.get(name);
  }

  claim(wanted: string, owner: string, reservedSuffix = "Schema"): string {
    const base = this.reserved.has(wanted) ? `${wanted}${reservedSuffix}` : wanted;
    let given = base;
    for (let n = 2; this.owners.has(given) || this.reserved.has(given); n++) given = `${base}${n}`;
    this.owners.set(given, owner);
    if (given !== wanted) this.adjustments.push({ owner, wanted, given, reason: this.reasonFor(wanted) });
    return given;
  }

  private reasonFor(wanted: string): string {
    if (this.reserved.has(wanted)) return `"${wanted}" is reserved by the generated code`;
    return `"${wanted}" is already taken by ${this.owners.get(wanted) ?? "another name"}`;
  }
}
