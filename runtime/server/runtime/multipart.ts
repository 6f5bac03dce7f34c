/**
 * multipart/form-data bodies, read with @fastify/multipart. Each part becomes a form field (a
 * repeated name becomes a list, which a single-valued field's schema then refuses). The fields
 * that carry files (`binaryFields` in the route table) are validated with the file name in place
 * of the bytes, as the schema describes them as strings, and reach the handler as `UploadedFile`s
 * with their bytes intact. Nothing is ever cut short: a file, a text field or a field name over
 * its limit is refused with 413, never truncated, as soon as it passes the limit (the rest of the
 * body is not read). A file name that is not valid UTF-8 is refused with 400. A body with no part
 * at all is no body.
 */
/// <reference types="node" />

import type { Multipart, MultipartFile } from "@fastify/multipart";
import type { FastifyRequest } from "fastify";
import { leaveRest } from "./body-stream.js";
import { strictUtf8Text } from "./content.js";
import type { MultipartReader } from "./core.js";
import { errorCode, problemOf } from "./errors.js";
import { append, appendFile, withFiles } from "./form-files.js";
import { createProblem, ProblemError } from "./problems.js";
import type { UploadedFile } from "./types.js";

/** A multipart body: the form to validate (file names for files), and the files by field name. */
interface MultipartBody {
  readonly form: Record<string, unknown>;
  readonly files: ReadonlyMap<string, UploadedFile | UploadedFile[]>;
}

/** The size limits of a multipart body, in bytes. */
export interface MultipartLimits {
  /** the largest file */
  readonly fileSize: number;
  /** the largest text field */
  readonly fieldSize: number;
}

/** The pipeline's multipart reader. */
export function createMultipartReader(limits: MultipartLimits): MultipartReader<FastifyRequest> {
  return async (request, content) => {
    if (request.headers["content-length"] === "0") return { form: undefined, restore: keep };
    const body = await readMultipart(request, content.binaryFields ?? [], limits);
    if (body === undefined) return { form: undefined, restore: keep };
    return { form: body.form, restore: (validated) => withFiles(validated, body.files) };
  };
}

function keep(value: unknown): unknown {
  return value;
}

/** Reads every part (undefined when there is none); throws a ProblemError for a part over a limit or a broken body. */
async function readMultipart(
  request: FastifyRequest,
  binaryFields: readonly string[],
  limits: MultipartLimits,
): Promise<MultipartBody | undefined> {
  const form: Record<string, unknown> = {};
  const files = new Map<string, UploadedFile | UploadedFile[]>();
  let parts = 0;
  try {
    for await (const part of request.parts()) {
      parts++;
      checkPart(part, limits);
      const name = part.fieldname;
      if (binaryFields.includes(name)) {
        const file = await toFile(part, limits.fileSize);
        append(form, name, file.filename);
        files.set(name, appendFile(files.get(name), file));
      } else {
        append(form, name, part.type === "file" ? await fileAsText(part, limits.fieldSize) : part.value);
      }
    }
  } catch (error) {
    leaveRest(request);
    throw asProblem(error, limits);
  }
  return parts === 0 ? undefined : { form, files };
}

/** Refuses a part whose value (or name) the parser cut at its limit. */
function checkPart(part: Multipart, limits: MultipartLimits): void {
  if (part.type === "field" && (part.valueTruncated || part.fieldnameTruncated)) throw fieldTooLarge(limits.fieldSize);
}

/** A text field sent as a file part: its text, within the text field limit, which must be UTF-8 (it is never altered). */
async function fileAsText(part: MultipartFile, fieldSize: number): Promise<string> {
  const bytes = await bytesWithin(part.file, fieldSize, () => fieldTooLarge(fieldSize));
  return strictUtf8Text(bytes, `The form field ${JSON.stringify(part.fieldname)}`);
}

/**
 * Refuses a file name the parser could not read as UTF-8: it puts U+FFFD in place of such bytes,
 * and a name so altered is not what was sent. (A name holding U+FFFD as sent is refused too.)
 */
function refuseReplacedName(part: MultipartFile): void {
  if (!part.filename.includes("\uFFFD")) return;
  throw new ProblemError(
    createProblem(
      "malformedBody",
      `The file name of the form field ${JSON.stringify(part.fieldname)} is not valid UTF-8 (it holds U+FFFD, which takes the place of bytes that are not): send the name encoded as UTF-8.`,
    ),
  );
}

function fieldTooLarge(fieldSize: number): ProblemError {
  return new ProblemError(createProblem("payloadTooLarge", `A form field is larger than ${fieldSize} bytes.`));
}

function fileTooLarge(fileSize: number): ProblemError {
  return new ProblemError(createProblem("payloadTooLarge", `An uploaded file is larger than ${fileSize} bytes.`));
}

/**
 * The bytes of a file part, refused (`tooLarge`) as soon as they pass `limit`, as they stream: the
 * parser would otherwise read the rest of the file to its end, however long, only to drop it.
 */
function bytesWithin(file: MultipartFile["file"], limit: number, tooLarge: () => ProblemError): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    file.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) reject(tooLarge());
      else chunks.push(chunk);
    });
    file.once("limit", () => reject(tooLarge()));
    file.once("error", reject);
    file.once("end", () => resolve(Buffer.concat(chunks, size)));
  });
}

async function toFile(part: Multipart, fileSize: number): Promise<UploadedFile> {
  if (part.type === "file") {
    refuseReplacedName(part);
    const data = await bytesWithin(part.file, fileSize, () => fileTooLarge(fileSize));
    return { filename: part.filename, mimetype: part.mimetype, encoding: part.encoding, data };
  }
  const text = typeof part.value === "string" ? part.value : JSON.stringify(part.value);
  return { filename: "", mimetype: part.mimetype, encoding: part.encoding, data: Buffer.from(text, "utf8") };
}

function asProblem(error: unknown, limits: MultipartLimits): ProblemError {
  if (error instanceof ProblemError) return error;
  if (errorCode(error) === "FST_REQ_FILE_TOO_LARGE") return fileTooLarge(limits.fileSize);
  const problem = problemOf(error);
  return new ProblemError(
    problem.status < 500 ? problem : createProblem("malformedBody", "The multipart body could not be read."),
  );
}
