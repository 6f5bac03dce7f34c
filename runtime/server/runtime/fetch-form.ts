/**
 * multipart/form-data bodies of Fetch requests, read with `Request.formData()`: the same form as
 * the Fastify transport's reader makes (multipart.ts), with the same limits. A file over the file
 * limit or a text field over the body limit is refused with 413, a body that cannot be read as
 * multipart with 400; a body with no part at all is no body.
 */
import type { RouteContent } from "../../route-types.js";
import { strictUtf8Text } from "./content.js";
import { append, appendFile, withFiles } from "./form-files.js";
import { createProblem, ProblemError } from "./problems.js";
import type { UploadedFile } from "./types.js";

/** The most parts a body may have, as the Fastify transport allows. */
const MAX_PARTS = 1000;

const UNREADABLE = createProblem("malformedBody", "The multipart body could not be read.");
const TOO_MANY_PARTS = createProblem("payloadTooLarge", "The multipart body has more parts than the server accepts.");

/** Node's Buffer, where there is one: a file's bytes are a Buffer there, as over Fastify. */
const NodeBuffer = (globalThis as { Buffer?: { from(bytes: ArrayBuffer): Uint8Array } }).Buffer;

/** Reads the parts into the form to validate, and a function putting the files back once it is valid. */
export async function readFormData(
  request: Request,
  content: RouteContent,
  limits: { readonly bodyLimit: number; readonly fileSizeLimit: number },
): Promise<{ form: unknown; restore: (validated: unknown) => unknown }> {
  let data: FormData;
  try {
    data = await request.formData();
  } catch {
    throw new ProblemError(UNREADABLE);
  }
  const form: Record<string, unknown> = {};
  const files = new Map<string, UploadedFile | UploadedFile[]>();
  const binaryFields = content.binaryFields ?? [];
  const entries: [string, FormDataEntryValue][] = [];
  data.forEach((value, name) => void entries.push([name, value]));
  let parts = 0;
  for (const [name, value] of entries) {
    if (++parts > MAX_PARTS) throw new ProblemError(TOO_MANY_PARTS);
    if (binaryFields.includes(name)) {
      const file = await toFile(value, limits.fileSizeLimit);
      append(form, name, file.filename);
      files.set(name, appendFile(files.get(name), file));
    } else append(form, name, await toText(name, value, limits.bodyLimit));
  }
  if (parts === 0) return { form: undefined, restore: (validated) => validated };
  return { form, restore: (validated) => withFiles(validated, files) };
}

async function toFile(value: FormDataEntryValue, fileSizeLimit: number): Promise<UploadedFile> {
  if (typeof value === "string")
    return {
      filename: "",
      mimetype: "text/plain",
      encoding: "7bit",
      data: bytesOf(new TextEncoder().encode(value).buffer as ArrayBuffer),
    };
  if (value.size > fileSizeLimit)
    throw new ProblemError(createProblem("payloadTooLarge", `An uploaded file is larger than ${fileSizeLimit} bytes.`));
  return {
    filename: value.name,
    mimetype: value.type === "" ? "application/octet-stream" : value.type,
    encoding: "7bit",
    data: bytesOf(await value.arrayBuffer()),
  };
}

/** A text field, or a file part sent for one: its text, which must be UTF-8 (it is never altered). */
async function toText(name: string, value: FormDataEntryValue, fieldSize: number): Promise<string> {
  const text =
    typeof value === "string"
      ? value
      : strictUtf8Text(new Uint8Array(await value.arrayBuffer()), `The form field ${JSON.stringify(name)}`);
  if (new TextEncoder().encode(text).length > fieldSize)
    throw new ProblemError(createProblem("payloadTooLarge", `A form field is larger than ${fieldSize} bytes.`));
  return text;
}

function bytesOf(buffer: ArrayBuffer): UploadedFile["data"] {
  return (NodeBuffer === undefined ? new Uint8Array(buffer) : NodeBuffer.from(buffer)) as UploadedFile["data"];
}
