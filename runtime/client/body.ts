/**
 * Request bodies on the wire: JSON, text, URL-encoded forms, raw bytes, and multipart forms built
 * with FormData, whose file fields take a Blob or File, bytes (a Uint8Array, so also a Node
 * Buffer, or an ArrayBuffer), or bytes with a file name and media type. Bodies that are sequences
 * of items are item-bodies.ts's.
 */
import type { BodyEncoder, BodyEncoding, RouteContent } from "../route-types.js";
import { deepEntries, isPlainObject, scalar } from "./values.js";

/** Raw bytes: a Blob (or File), a Uint8Array (or Node Buffer), an ArrayBuffer. */
export type Bytes = Blob | Uint8Array | ArrayBuffer;

/** File bytes with the name and media type the multipart part should carry. */
export interface NamedFile {
  readonly data: Bytes | string;
  /** the part's file name (default: a File's own name, else the field name) */
  readonly filename?: string;
  /** the part's media type (default: a Blob's own type, else application/octet-stream) */
  readonly contentType?: string;
}

/** What a multipart file field accepts. */
export type FileInput = Bytes | NamedFile;

/** A body whose media type is raw bytes (an image, application/octet-stream, ...). */
export type RawBody = Bytes | string;

/** A body's type with its file fields (`K`) taking file input instead of the schema's string. */
export type WithFiles<B, K extends PropertyKey> = { [P in keyof B]: P extends K ? FileField<B[P]> : B[P] };

/** A file field's value: arrays of files stay arrays, other strings become file input. */
export type FileField<V> = V extends readonly unknown[] ? readonly FileInput[] : V extends string ? FileInput : V;

const OCTET_STREAM = "application/octet-stream";

/**
 * The wire form of a body for one media type (a body that is a sequence of items is
 * item-bodies.ts's).
 */
export function encodeBody(content: RouteContent, body: unknown): BodyInit {
  return content.kind === "form" ? toSearchParams(body) : encodeOtherThanForm(content, body);
}

/** The wire form of a body of any kind but a URL-encoded form. */
function encodeOtherThanForm(content: RouteContent, body: unknown): BodyInit {
  switch (content.kind) {
    case "json":
      return JSON.stringify(body);
    case "multipart":
      return toFormData(body, content.binaryFields ?? []);
    case "binary":
      return body instanceof Blob ? body : isBytes(body) ? new Blob([body as Uint8Array<ArrayBuffer>]) : scalar(body);
    default:
      return scalar(body);
  }
}

/** The Content-Type to send: none for multipart (fetch adds the boundary), a wildcard resolved. */
export function contentTypeOf(content: RouteContent): string | undefined {
  if (content.kind === "multipart") return undefined;
  return content.mediaType.includes("*") ? OCTET_STREAM : content.mediaType;
}

function toFormData(body: unknown, binaryFields: readonly string[]): FormData {
  const form = new FormData();
  if (isPlainObject(body))
    // a list is one part per item, files and texts alike: the server reads a repeated name as a list
    for (const [name, value] of Object.entries(body))
      for (const item of Array.isArray(value) ? value : [value])
        appendField(form, name, item, binaryFields.includes(name));
  return form;
}

function appendField(form: FormData, name: string, value: unknown, isFile: boolean): void {
  if (value === undefined) return;
  const named = isFile && isNamedFile(value);
  // a named file's data, or the bytes themselves: a part with a file name, else a text part
  const data = named ? value.data : value;
  if (named || isBytes(value))
    form.append(
      name,
      toBlob(data as Bytes | string, named ? value.contentType : undefined),
      (named ? value.filename : undefined) ?? fileName(data, name),
    );
  else form.append(name, scalar(value));
}

/**
 * A URL-encoded form: scalars as `name=value`, arrays of scalars repeat the name (style form,
 * explode), nested objects in brackets (`metadata[key]=value`, `items[0][price]=...`).
 */
function toSearchParams(body: unknown): URLSearchParams {
  const params = new URLSearchParams();
  if (!isPlainObject(body)) return params;
  const leaves: [string, string][] = [];
  for (const [name, value] of Object.entries(body)) {
    if (value === undefined) continue;
    if (Array.isArray(value) && !value.some(isNested)) for (const item of value) leaves.push([name, scalar(item)]);
    else deepEntries(name, value, String, leaves);
  }
  for (const [name, value] of leaves) params.append(name, value);
  return params;
}

function isNested(value: unknown): boolean {
  return Array.isArray(value) || isPlainObject(value);
}

/**
 * A file part's bytes: a Blob as it is, unless `type` (a named file's) differs from its own; other
 * bytes and text typed `type`, else application/octet-stream.
 */
function toBlob(data: Bytes | string, type: string | undefined): Blob {
  if (data instanceof Blob) return type === undefined || data.type === type ? data : new Blob([data], { type });
  return new Blob([data as Uint8Array<ArrayBuffer> | ArrayBuffer | string], { type: type ?? OCTET_STREAM });
}

function fileName(data: unknown, field: string): string {
  return typeof File !== "undefined" && data instanceof File && data.name !== "" ? data.name : field;
}

/** Whether a value is raw bytes (Blob, File, Uint8Array, Node Buffer or ArrayBuffer). */
export function isBytes(value: unknown): value is Bytes {
  return value instanceof Blob || value instanceof Uint8Array || value instanceof ArrayBuffer;
}

function isNamedFile(value: unknown): value is NamedFile {
  return isPlainObject(value) && "data" in value && (isBytes(value.data) || typeof value.data === "string");
}

/**
 * The body as its validator sees it: file fields hold bytes, which the schema describes as a
 * string, so each file is replaced by "" (the bytes themselves are not checked).
 */
export function withFilesAsText(body: unknown, binaryFields: readonly string[]): unknown {
  if (!isPlainObject(body) || binaryFields.length === 0) return body;
  const copy: Record<string, unknown> = { ...body };
  for (const name of binaryFields) {
    const value = copy[name];
    if (value !== undefined) copy[name] = Array.isArray(value) ? value.map(fileAsText) : fileAsText(value);
  }
  return copy;
}

/** A file field's value as the validator reads it: file input (bytes, a named file) as "". */
function fileAsText(value: unknown): unknown {
  return isBytes(value) || isNamedFile(value) ? "" : value;
}

/** Whether any of the file fields holds file input (which picks a multipart media type). */
export function hasFiles(body: unknown, binaryFields: readonly string[]): boolean {
  if (!isPlainObject(body)) return false;
  // file input is what fileAsText replaces (by "", which no file input is)
  const isFile = (value: unknown): boolean => fileAsText(value) !== value;
  return binaryFields.some((name) => {
    const value = body[name];
    return Array.isArray(value) ? value.some(isFile) : isFile(value);
  });
}

/**
 * The content of the media type asked for; when the call names none, the one the body fits: raw
 * bytes, a form whose file fields hold files, JSON, the first.
 */
function chooseContent(
  contents: readonly RouteContent[],
  body: unknown,
  asked: string | undefined,
): RouteContent | undefined {
  if (asked !== undefined) return contents.find((c) => c.mediaType === asked) ?? contents[0];
  if (isBytes(body)) return contents.find((c) => c.kind === "binary") ?? contents[0];
  return (
    contents.find((c) => hasFiles(body, c.binaryFields ?? [])) ?? contents.find((c) => c.kind === "json") ?? contents[0]
  );
}

/**
 * The body encoder of an encoding: a call's content chosen (the first when it chooses none), its
 * body as the validator reads it, and the body encoded, with its content type, once the engine asks.
 */
export function bodyEncoderOf(encoding: BodyEncoding): BodyEncoder {
  return {
    prepare: (contents, body, asked, checked) => {
      const content = encoding.choose(contents, body, asked) ?? contents[0];
      return {
        content,
        checked: content === undefined ? body : encoding.checked(body, content.binaryFields ?? []),
        encode: () => {
          // only called for a content chosen
          const chosen = content as RouteContent;
          const encoded = encoding.encode(chosen, body, checked);
          return [encoded, encoding.contentType(chosen, encoded)];
        },
      };
    },
    ...(encoding.cut === undefined ? {} : { cut: encoding.cut }),
  };
}

/** The encoding of every kind of body (`bodyEncoder`'s). */
export const bodyEncoding: BodyEncoding = {
  encode: encodeBody,
  contentType: contentTypeOf,
  choose: chooseContent,
  checked: withFilesAsText,
};

/**
 * The body encoder the route of each operation whose body may be other than JSON names
 * (`Route.encoders`; one whose body may be a sequence of items names item-bodies.ts's): a page
 * whose operations send JSON alone does not bundle this module.
 */
export const bodyEncoder: BodyEncoder = /* @__PURE__ */ bodyEncoderOf(bodyEncoding);

/** The encoding of every kind of body but a URL-encoded form (`bodyEncoderWithoutForms`'s). */
export const bodyEncodingWithoutForms: BodyEncoding = {
  encode: encodeOtherThanForm,
  contentType: contentTypeOf,
  choose: chooseContent,
  checked: withFilesAsText,
};

/**
 * The body encoder of the routes whose bodies include no URL-encoded form: `bodyEncoder` without
 * the form's encoding, which a page whose operations send none then does not bundle.
 */
export const bodyEncoderWithoutForms: BodyEncoder = /* @__PURE__ */ bodyEncoderOf(bodyEncodingWithoutForms);

/**
 * The body encoder of the routes whose one media type is a multipart form: what `bodyEncoder`
 * does for that content alone (it is the content chosen, whatever the call asks, and fetch writes
 * its content type, with the boundary), so a page whose operations send no other body than such
 * forms bundles neither the choice of a media type nor the other encodings.
 */
export const multipartBodyEncoder: BodyEncoder = {
  prepare: (contents, body) => {
    const content = contents[0];
    const files = content?.binaryFields ?? [];
    return { content, checked: withFilesAsText(body, files), encode: () => [toFormData(body, files), undefined] };
  },
};
