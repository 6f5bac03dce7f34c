import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ajvCompile, createAjv } from "./ajv-oracle.js";
import { CORPUS_DIR } from "./suite-corpus.js";

const FORMATS = ["date", "date-time", "time", "email", "uuid", "uri", "ipv4", "ipv6", "hostname"];

/** One suite case on which Ajv (with ajv-formats) gives the wrong verdict. */
export interface AjvFormatError {
  readonly format: string;
  readonly value: string;
  readonly expected: boolean;
  readonly description: string;
}

/** Format strings of the suite (valid and invalid), plus where Ajv's format checks disagree with it. */
export interface FormatEvidence {
  /** suite strings per format on which Ajv agrees with the suite (used to generate instances) */
  readonly samples: Record<string, string[]>;
  /** keyed by the string value */
  readonly ajvWrong: ReadonlyMap<string, AjvFormatError>;
}

/** Reads optional/format/<format>.json of the suite and runs Ajv's format checks on it. */
export function loadFormatEvidence(): FormatEvidence {
  const samples: Record<string, string[]> = {};
  const ajvWrong = new Map<string, AjvFormatError>();
  const ajv = createAjv();
  for (const format of FORMATS) {
    const file = join(CORPUS_DIR, "json-schema-test-suite", "draft2020-12", "optional", "format", `${format}.json`);
    const groups = JSON.parse(readFileSync(file, "utf8")) as {
      tests: { description: string; data: unknown; valid: boolean }[];
    }[];
    const validate = ajvCompile(ajv, { type: "string", format });
    const strings = groups.flatMap((group) => group.tests).filter((test) => typeof test.data === "string");
    for (const test of strings) {
      const value = test.data as string;
      if (validate !== undefined && validate(value) !== test.valid)
        ajvWrong.set(value, { format, value, expected: test.valid, description: test.description });
    }
    samples[format] = strings.map((test) => test.data as string).filter((value) => !ajvWrong.has(value));
  }
  return { samples, ajvWrong };
}
