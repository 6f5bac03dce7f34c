/**
 * A multipart body as the pipeline validates it, whatever reads it: each part a form field (a
 * repeated name a list), the fields that carry files validated with the file name in place of
 * the bytes, and the files put back into the validated form for the handler.
 */
import type { UploadedFile } from "./types.js";

/** Puts the files back in place of their names, in the validated form. */
export function withFiles(validated: unknown, files: ReadonlyMap<string, UploadedFile | UploadedFile[]>): unknown {
  if (typeof validated !== "object" || validated === null) return validated;
  for (const [name, file] of files)
    Object.defineProperty(validated, name, { value: file, writable: true, enumerable: true, configurable: true });
  return validated;
}

/** Adds a field's value to the form: a repeated name becomes a list. */
export function append(form: Record<string, unknown>, name: string, value: unknown): void {
  const previous = Object.hasOwn(form, name) ? form[name] : undefined;
  const next = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
  Object.defineProperty(form, name, { value: next, writable: true, enumerable: true, configurable: true });
}

/** Adds a file to those of its field. */
export function appendFile(
  previous: UploadedFile | UploadedFile[] | undefined,
  file: UploadedFile,
): UploadedFile | UploadedFile[] {
  if (previous === undefined) return file;
  return Array.isArray(previous) ? [...previous, file] : [previous, file];
}
