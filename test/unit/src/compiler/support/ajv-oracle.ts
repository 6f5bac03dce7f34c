import type { AnySchema, ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";

type AddFormats = (ajv: Ajv2020, options?: { formats?: string[] }) => Ajv2020;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ??
  addFormatsModule) as unknown as AddFormats;

/** Formats this project's compiler asserts; the oracle asserts the same set. */
export const ASSERTED_FORMATS = [
  "date",
  "time",
  "date-time",
  "email",
  "uuid",
  "uri",
  "ipv4",
  "ipv6",
  "hostname",
  "int32",
  "int64",
  "float",
  "double",
];

/** Ajv 2020 as configured for comparisons: formats, code-point lengths, `u` regexes, strict off. */
export function createAjv(
  options: { allFormats?: boolean; discriminator?: boolean; validateFormats?: boolean; validateSchema?: boolean } = {},
): Ajv2020 {
  const ajv = new Ajv2020({
    strict: false,
    unicodeRegExp: true,
    allErrors: false,
    validateFormats: options.validateFormats ?? true,
    discriminator: options.discriminator ?? false,
    logger: false,
    inlineRefs: false,
    validateSchema: options.validateSchema ?? true,
    // the oracle's verdicts, not its speed: its code is generated without optimisation passes,
    // which cost more than the compilation itself on large documents
    code: { optimize: false },
  });
  addFormats(ajv, options.allFormats === true ? undefined : { formats: ASSERTED_FORMATS });
  return ajv;
}

/** Verdicts of Ajv on one schema's cases; a schema Ajv refuses yields `undefined`. */
export function ajvCompile(ajv: Ajv2020, schema: unknown): ValidateFunction | undefined {
  try {
    return ajv.compile(schema as AnySchema);
  } catch {
    return undefined;
  }
}

/** Registers documents by URI so `$ref`s to them resolve. */
export function addRemotes(ajv: Ajv2020, remotes: Readonly<Record<string, unknown>>): void {
  for (const [uri, schema] of Object.entries(remotes)) {
    try {
      ajv.addSchema(schema as AnySchema, uri);
    } catch {
      // a remote that Ajv refuses (e.g. a duplicate $id) stays unavailable to it
    }
  }
}
