import type { ApiModel, OperationModel, SecuritySchemeModel } from "../../model/types.js";

/** One credential option of ClientOptions (`apiKey`, `bearerToken`, `basic`). */
export interface CredentialOptionView {
  readonly required: boolean;
  readonly doc: string;
}

/** A variable of the first server URL, as a `serverVariables` property. */
export interface ServerVariableView {
  readonly name: string;
  /** the allowed values (enum); empty when any string is allowed */
  readonly values: readonly string[];
  readonly doc: string;
}

/** A security scheme, as a property of the per-scheme `credentials` option. */
export interface SchemeCredentialView {
  readonly name: string;
  /** http basic: a user and password (or the encoded `user:password`) */
  readonly basic: boolean;
  readonly doc: string;
}

/** What ClientOptions holds beyond the options every client has. */
export interface OptionsView {
  readonly baseUrlDoc: string;
  readonly serverVariables: readonly ServerVariableView[];
  readonly apiKey: CredentialOptionView | false;
  readonly bearerToken: CredentialOptionView | false;
  readonly basic: CredentialOptionView | false;
  readonly schemes: readonly SchemeCredentialView[];
  /** nothing in the options is required, so createClient() needs no argument */
  readonly optional: boolean;
}

type CredentialKind = "apiKey" | "bearerToken" | "basic";

export function buildOptionsView(model: ApiModel): OptionsView {
  const option = (kind: CredentialKind): CredentialOptionView | false => credentialOption(kind, model);
  const credentials = { apiKey: option("apiKey"), bearerToken: option("bearerToken"), basic: option("basic") };
  return {
    baseUrlDoc: baseUrlDoc(model),
    serverVariables: (model.servers[0]?.variables ?? []).map((v) => ({
      name: v.name,
      values: v.enum ?? [],
      doc: `\`{${v.name}}\` in the server URL (default ${JSON.stringify(v.default)}).`,
    })),
    ...credentials,
    schemes: model.securitySchemes.filter((s) => s.type !== "mutualTLS").map(schemeView),
    optional: Object.values(credentials).every((o) => o === false || !o.required),
  };
}

const DESCRIBE: Readonly<Record<CredentialKind, (schemes: readonly SecuritySchemeModel[]) => string>> = {
  apiKey: (list) => `The API key, sent as ${list.map(placement).join(" or ")} where the operation asks for it.`,
  bearerToken: (list) => `The token sent as \`Authorization: Bearer <token>\` (${list.map((s) => s.name).join(", ")}).`,
  basic: (list) => `The user and password sent as \`Authorization: Basic\` (${list.map((s) => s.name).join(", ")}).`,
};

/** The option of one kind of credential, when the spec has a scheme of that kind. */
function credentialOption(kind: CredentialKind, model: ApiModel): CredentialOptionView | false {
  const matching = model.securitySchemes.filter((scheme) => kindOf(scheme) === kind);
  return matching.length === 0
    ? false
    : { required: isRequired(matching, model.operations), doc: DESCRIBE[kind](matching) };
}

function kindOf(scheme: SecuritySchemeModel): CredentialKind | undefined {
  if (scheme.type === "apiKey") return "apiKey";
  if (scheme.type === "oauth2" || scheme.type === "openIdConnect") return "bearerToken";
  if (scheme.type !== "http") return undefined;
  if (scheme.scheme === "bearer") return "bearerToken";
  return scheme.scheme === "basic" ? "basic" : undefined;
}

/**
 * A credential is required when it is the only way in: one scheme of its kind, and every
 * operation names that scheme in each of its alternatives.
 */
function isRequired(matching: readonly SecuritySchemeModel[], operations: readonly OperationModel[]): boolean {
  const [only] = matching;
  if (matching.length !== 1 || only === undefined || operations.length === 0) return false;
  return operations.every(
    (op) => op.security.length > 0 && op.security.every((alt) => alt.schemes.some((s) => s.name === only.name)),
  );
}

function placement(scheme: SecuritySchemeModel): string {
  const name = `\`${scheme.parameterName ?? ""}\``;
  if (scheme.in === "query") return `the ${name} query parameter`;
  return scheme.in === "cookie" ? `the ${name} cookie` : `the ${name} header`;
}

function schemeView(scheme: SecuritySchemeModel): SchemeCredentialView {
  const basic = scheme.type === "http" && scheme.scheme === "basic";
  return {
    name: scheme.name,
    basic,
    doc: `Credential for the \`${scheme.name}\` scheme (${scheme.type}${scheme.scheme ? ` ${scheme.scheme}` : ""}).`,
  };
}

function baseUrlDoc(model: ApiModel): string {
  const server = model.servers[0];
  if (server === undefined)
    return "The base URL every path is appended to. The spec declares no server, so paths are relative unless this is set.";
  const variables =
    server.variables.length === 0 ? "" : ", its variables taken from `serverVariables` or their defaults";
  return `The base URL every path is appended to (default: the spec's first server, \`${server.url}\`${variables}).`;
}
