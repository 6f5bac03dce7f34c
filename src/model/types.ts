/**
 * The ApiModel: everything the emitters need, built once from the bundled document. Plain,
 * readonly, sorted and JSON-serialisable. Schemas stay JSON Schema in the document; the model
 * points at them with JSON pointers.
 */

/** A method a Path Item names by a field of its own (OpenAPI 3.2 adds `query`). */
export type FixedMethod = "get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace" | "query";

/**
 * An operation's method as the document names it: a fixed field of its Path Item (`get`, `query`),
 * or a key of its `additionalOperations` (OpenAPI 3.2), written as it is sent (`PURGE`, `COPY`).
 */
export type HttpMethod = FixedMethod | (string & {});
export type ParameterLocation = "path" | "query" | "header" | "cookie";

import type { BodyKind, PartEncoding, QuerystringKind, SequenceKind } from "../../runtime/route-types.js";
import type { OpenApiVersion } from "../schema/dialect.js";

/** How a body's media type is encoded on the wire (the runtime's type), which decides how it is sent and parsed. */
export type { BodyKind };

export interface ApiModel {
  readonly source: SourceInfo;
  readonly servers: readonly ServerModel[];
  /** path prefix of the first server ("/api/1_12"), "" when none; routes are registered under it */
  readonly basePath: string;
  readonly securitySchemes: readonly SecuritySchemeModel[];
  readonly operations: readonly OperationModel[];
  /** the webhooks, then the callbacks: requests the API's provider sends to its consumer */
  readonly webhooks: readonly WebhookModel[];
  readonly schemas: readonly SchemaModel[];
  /** whether any schema uses readOnly or writeOnly (direction-specific types are needed) */
  readonly usesReadWrite: boolean;
}

export interface SourceInfo {
  /** the spec path as given, relative to the working directory, for headers and messages */
  readonly specPath: string;
  readonly openapiVersion: OpenApiVersion;
  /** "2.0" for a Swagger 2.0 document, read once upgraded to OpenAPI 3.0 */
  readonly upgradedFrom?: "2.0";
  readonly title: string;
  readonly version: string;
}

export interface ServerModel {
  readonly url: string;
  readonly description?: string;
  readonly variables: readonly ServerVariableModel[];
}

export interface ServerVariableModel {
  readonly name: string;
  readonly default: string;
  readonly enum?: readonly string[];
}

export interface SecuritySchemeModel {
  readonly name: string;
  readonly pointer: string;
  readonly type: "apiKey" | "http" | "oauth2" | "openIdConnect" | "mutualTLS";
  /** apiKey: where the key travels */
  readonly in?: "header" | "query" | "cookie";
  /** apiKey: the header, query or cookie name */
  readonly parameterName?: string;
  /** http: the scheme, lower-cased ("bearer", "basic") */
  readonly scheme?: string;
}

/** One way to satisfy an operation's security: every named scheme at once. */
export interface SecurityRequirementModel {
  readonly schemes: readonly { readonly name: string; readonly scopes: readonly string[] }[];
}

export interface OperationModel {
  readonly id: string;
  /** whether the id was derived from method and path (the document has no operationId) */
  readonly derivedId: boolean;
  readonly method: HttpMethod;
  /** the method as sent: a fixed one upper-cased ("GET", "QUERY"), an additional one as written ("PURGE") */
  readonly httpMethod: string;
  /** whether the operation is one of its Path Item's `additionalOperations` */
  readonly additional: boolean;
  /** the path as written in the document ("/workers/{id}/documents") */
  readonly path: string;
  readonly pointer: string;
  readonly summary?: string;
  readonly description?: string;
  readonly deprecated: boolean;
  readonly tags: readonly string[];
  readonly parameters: ParametersByLocation;
  /** an OpenAPI 3.2 `in: querystring` parameter: the whole query string as one value (no query parameters beside it) */
  readonly querystring?: QuerystringModel;
  readonly requestBody?: RequestBodyModel;
  readonly responses: readonly ResponseModel[];
  /** alternatives, any one of which suffices; an alternative with no schemes ({}) makes
   * authentication optional; an empty list means the operation needs none */
  readonly security: readonly SecurityRequirementModel[];
  readonly names: OperationNames;
}

/**
 * A webhook or a callback: one method of its Path Item, read as an operation the consumer serves.
 * Its `path` is where the receiver takes it by default, `/<names.method>`.
 */
export interface WebhookModel extends OperationModel {
  readonly kind: "webhook" | "callback";
  /** the key under `webhooks`, or the callback's name */
  readonly name: string;
  /** the key of its Path Item under `webhooks` in types.ts (callbacks are typed there too) */
  readonly typesKey: string;
  /** a callback's operation (its id) */
  readonly owner?: string;
  /** a callback's runtime expression of the URL it is sent to ("{$request.query.callbackUrl}") */
  readonly expression?: string;
}

export interface ParametersByLocation {
  readonly path: readonly ParameterModel[];
  readonly query: readonly ParameterModel[];
  readonly header: readonly ParameterModel[];
  readonly cookie: readonly ParameterModel[];
}

export interface ParameterModel {
  readonly name: string;
  readonly in: ParameterLocation;
  readonly required: boolean;
  readonly pointer: string;
  /** pointer of the parameter's schema (or of its content's schema); undefined when it has none */
  readonly schemaPointer?: string;
  readonly style: string;
  readonly explode: boolean;
  /** the schema is an array: repeated or delimited values form a list */
  readonly isArray: boolean;
  /** the schema is an object (and not an array): the names of its properties */
  readonly objectProperties?: readonly string[];
  /** the parameter's `schema` can only be a scalar (its type names no array or object): absent otherwise */
  readonly scalar?: true;
  readonly description?: string;
  readonly deprecated: boolean;
}

/**
 * The query string as one value (OpenAPI 3.2's `in: querystring`), described by the one media type
 * of its `content`: a URL-encoded form, JSON text, or (any other media type) the text as it is.
 */
export interface QuerystringModel {
  readonly name: string;
  readonly required: boolean;
  readonly pointer: string;
  readonly mediaType: string;
  readonly kind: QuerystringKind;
  /** pointer of the content's schema; undefined when it has none */
  readonly schemaPointer?: string;
  /** the component key when the schema is exactly a $ref to "#/components/schemas/<key>" */
  readonly componentRef?: string;
  readonly description?: string;
}

export interface RequestBodyModel {
  readonly required: boolean;
  readonly pointer: string;
  readonly description?: string;
  readonly contents: readonly BodyContentModel[];
}

export interface BodyContentModel {
  readonly mediaType: string;
  readonly kind: BodyKind;
  /** pointer of the media type's schema; undefined when it has none */
  readonly schemaPointer?: string;
  /**
   * pointer of the media type's `itemSchema` (OpenAPI 3.2): the body is a sequence of items
   * (server-sent events, JSON Lines, JSON text sequences, multipart/mixed), each of this schema
   */
  readonly itemSchemaPointer?: string;
  /** how the items are framed, for a media type with an `itemSchema` the runtime reads and writes */
  readonly sequence?: SequenceKind;
  /** multipart/mixed items: how their parts are encoded by position (`prefixEncoding`, `itemEncoding`) */
  readonly parts?: PartsModel;
  /**
   * server-sent events whose item schema gives `data` a `contentMediaType` of JSON and a
   * `contentSchema`: that schema's pointer (the client and server decode and check `data` with it)
   */
  readonly itemDataSchemaPointer?: string;
  /** the component key when the schema is exactly a $ref to "#/components/schemas/<key>" */
  readonly componentRef?: string;
  /** whether the schema, or one it references, has readOnly or writeOnly properties */
  readonly hasReadWrite: boolean;
  /** multipart and form bodies: the top-level properties that carry file bytes (format binary,
   * or a contentMediaType/contentEncoding), sorted; [] otherwise */
  readonly binaryFields: readonly string[];
  readonly pointer: string;
}

/** An Encoding Object of multipart/mixed items, and whether the parts it encodes carry bytes. */
export interface PartEncodingModel extends PartEncoding {
  /** its `contentType` lists only media types of bytes, or (without one) the item schema is binary */
  readonly binary: boolean;
}

/**
 * The parts of multipart/mixed items by position: `prefixEncoding`'s for the first ones, then
 * `itemEncoding`'s (or none: `item` then says only whether the item schema is binary).
 */
export interface PartsModel {
  readonly prefix: readonly PartEncodingModel[];
  readonly item: PartEncodingModel;
}

export interface ResponseModel {
  /** "200", "201", "4XX", "default" */
  readonly status: string;
  readonly success: boolean;
  readonly description: string;
  readonly pointer: string;
  readonly contents: readonly BodyContentModel[];
}

export interface SchemaModel {
  /** the key under components/schemas */
  readonly name: string;
  readonly pointer: string;
  /** the exported TypeScript name (from the naming authority) */
  readonly typeName: string;
  readonly validatorName: string;
  readonly guardName: string;
  /** whether this schema, or one it references, has readOnly or writeOnly properties */
  readonly hasReadWrite: boolean;
}

/** Every name the emitters use for one operation, decided by the naming authority. */
export interface OperationNames {
  /** PascalCase stem: "CreateVenue" */
  readonly typeStem: string;
  /** the client method and handler key: the operationId when it is a valid identifier */
  readonly method: string;
  readonly pathParamsType?: string;
  readonly queryType?: string;
  readonly headersType?: string;
  readonly cookiesType?: string;
  readonly bodyType?: string;
  /** union of the 2xx bodies */
  readonly responseType: string;
  /** per declared status: "CreateVenueResponse200" */
  readonly responseTypes: Readonly<Record<string, string>>;
  readonly pathParamsValidator?: string;
  readonly queryValidator?: string;
  readonly headersValidator?: string;
  readonly cookiesValidator?: string;
  /** per request media type */
  readonly bodyValidators: Readonly<Record<string, string>>;
  /** per request media type that is a sequence of items (an `itemSchema` the runtime reads): the validator of an item */
  readonly bodyItemValidators: Readonly<Record<string, string>>;
  /**
   * per request media type that is a sequence of items and also declares a `schema`: the
   * validator of the items as a whole (the list of them, once they end)
   */
  readonly bodySequenceValidators: Readonly<Record<string, string>>;
  /** per status, for statuses with a JSON body */
  readonly responseValidators: Readonly<Record<string, string>>;
  /** per status and media type, for answers that are sequences of items: the validator of an item */
  readonly itemValidators: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** per status and media type, for server-sent events whose `data` is JSON: the validator of `data` decoded */
  readonly itemDataValidators: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /**
   * per status and media type, for answers that are sequences of items whose media type also
   * declares a `schema`: the validator of the items as a whole (the list of them, once it ends)
   */
  readonly sequenceValidators: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /**
   * The validators above that are a component schema's own, shared because the body is exactly
   * that component and checked the same in every direction: the operation compiles no copy.
   */
  readonly sharedValidators: readonly string[];
}
