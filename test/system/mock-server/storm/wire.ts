/** Requests of the storm as bytes on the wire: HTTP/1.1 heads, bodies, multipart forms. */
import { createHash } from "node:crypto";

/** The one key the storm server accepts. */
export const STORM_KEY = "storm-key-7f3a";

/** A request written out in full: everything a test client would normally take care of. */
export interface WireRequest {
  readonly method: string;
  /** the request target, sent as given (no encoding) */
  readonly target: string;
  /** header lines in order (repeats allowed); host and connection: close are added */
  readonly headers: readonly (readonly [string, string])[];
  readonly body?: Buffer;
  /** how the body travels: with its Content-Length (default), a wrong one, or chunked */
  readonly framing?:
    | { readonly kind: "length" }
    | { readonly kind: "declared"; readonly length: number }
    | { readonly kind: "chunked"; readonly size: number };
}

/** The bytes of a request. */
export function toBytes(request: WireRequest): Buffer {
  const body = request.body ?? Buffer.alloc(0);
  const framing = request.framing ?? { kind: "length" };
  const lines = [`${request.method} ${request.target} HTTP/1.1`, "host: 127.0.0.1", "connection: close"];
  for (const [name, value] of request.headers) lines.push(`${name}: ${value}`);
  if (framing.kind === "chunked") lines.push("transfer-encoding: chunked");
  else if (framing.kind === "declared") lines.push(`content-length: ${framing.length}`);
  else if (request.body !== undefined) lines.push(`content-length: ${body.length}`);
  const head = Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1");
  return Buffer.concat([head, framing.kind === "chunked" ? chunked(body, framing.size) : body]);
}

function chunked(body: Buffer, size: number): Buffer {
  const parts: Buffer[] = [];
  for (let at = 0; at < body.length; at += size) {
    const piece = body.subarray(at, at + size);
    parts.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from("\r\n"));
  }
  parts.push(Buffer.from("0\r\n\r\n"));
  return Buffer.concat(parts);
}

/** One part of a multipart form: a text field, or a file. */
export type FormPart =
  | { readonly name: string; readonly text: string }
  | { readonly name: string; readonly filename: string; readonly bytes: Buffer };

/** A multipart/form-data body and its Content-Type. */
export function multipart(
  parts: readonly FormPart[],
  boundary = "storm-boundary-42",
): { contentType: string; body: Buffer } {
  const pieces: Buffer[] = [];
  for (const part of parts) {
    const disposition =
      "filename" in part
        ? `form-data; name="${part.name}"; filename="${part.filename}"`
        : `form-data; name="${part.name}"`;
    const type = "filename" in part ? "\r\ncontent-type: application/octet-stream" : "";
    pieces.push(Buffer.from(`--${boundary}\r\ncontent-disposition: ${disposition}${type}\r\n\r\n`));
    pieces.push("filename" in part ? part.bytes : Buffer.from(part.text, "utf8"), Buffer.from("\r\n"));
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(pieces) };
}

/** The headers of an authenticated request with a body of `contentType`. */
export function withKey(contentType?: string): [string, string][] {
  const headers: [string, string][] = [["x-api-key", STORM_KEY]];
  if (contentType !== undefined) headers.push(["content-type", contentType]);
  return headers;
}

/**
 * What a handler received, as one digest: sha256 of the body as JSON, each file replaced by
 * "file:<name>:<size>". The storm server sends it; the storm computes it from what it sent.
 */
export function digest(body: unknown): string {
  const canonical = JSON.stringify(body, (_key, value: unknown) => {
    if (
      typeof value === "object" &&
      value !== null &&
      "data" in value &&
      Buffer.isBuffer((value as { data: unknown }).data)
    ) {
      const file = value as { filename: string; data: Buffer };
      return `file:${file.filename}:${file.data.length}`;
    }
    return value;
  });
  return createHash("sha256").update(canonical).digest("hex");
}
