/** Storm cases about bodies: broken JSON, wrong types, deep nesting, sizes, multipart forms. */
import fc from "fast-check";
import {
  BODY_LIMIT,
  formCase,
  jsonCase,
  jsonRequest,
  jsonRoutes,
  multipartRoutes,
  type StormCase,
  type StormRoute,
} from "./model.js";
import { multipart, toBytes, withKey } from "./wire.js";

const route = (list: readonly StormRoute[]): fc.Arbitrary<StormRoute> => fc.constantFrom(...list);
const exampleOf = (r: StormRoute): Record<string, unknown> => ({ ...(r.example ?? {}) });

/** Text that starts like JSON and is not JSON. */
export const brokenJson = fc
  .tuple(
    route(jsonRoutes),
    fc.string({ maxLength: 64 }),
    fc.constantFrom("{", "[", '{"name":', "", "\u00ef\u00bb\u00bf{}"),
  )
  .filter(([, tail, head]) => !parses(head + tail))
  .map(
    ([r, tail, head]): StormCase => ({
      category: "broken JSON",
      label: `${r.key}: ${JSON.stringify(head + tail)}`,
      chunks: [toBytes(jsonRequest(r, head + tail))],
      mustFail: true,
      status: 400,
    }),
  );

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return text.trim() !== "";
  } catch {
    return false;
  }
}

/** An example body with one property replaced by any JSON value (of the wrong type, mostly). */
export const wrongTypes = route(jsonRoutes).chain((r) =>
  fc
    .tuple(fc.constantFrom(...Object.keys(exampleOf(r))), fc.jsonValue({ maxDepth: 3 }))
    .map(([key, value]) =>
      jsonCase("wrong types", `${key} = ${JSON.stringify(value).slice(0, 60)}`, r, { ...exampleOf(r), [key]: value }),
    ),
);

/**
 * Arrays or objects nested 10,000 levels deep, in a declared property or an extra one: refused
 * wherever they are. With the body's own object, 1000 levels (the limit) are taken, 1001 are not.
 */
export const deepNesting = route(jsonRoutes).chain((r) =>
  fc
    .tuple(
      fc.constantFrom(...Object.keys(exampleOf(r)), "extra"),
      fc.constantFrom("array", "object"),
      fc.constantFrom(10_000, 1000, 999),
    )
    .map(([key, shape, depth]): StormCase => {
      const nested =
        shape === "array" ? "[".repeat(depth) + "]".repeat(depth) : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
      const text = JSON.stringify({ ...exampleOf(r), [key]: null }).replace(`"${key}":null`, `"${key}":${nested}`);
      const label = `${key}: ${shape} × ${depth}`;
      if (depth + 1 <= 1000) return jsonCase("deep nesting", label, r, JSON.parse(text) as unknown);
      return {
        category: "deep nesting",
        label: `${r.key}: ${label}`,
        chunks: [toBytes(jsonRequest(r, text))],
        mustFail: true,
        status: 400,
      };
    }),
);

/** A body within a few bytes of the 1 MiB limit, padded in an extra property. */
export const nearLimit = fc.tuple(route(jsonRoutes), fc.integer({ min: -48, max: 48 })).map(([r, delta]) => {
  const base = JSON.stringify({ ...exampleOf(r), padding: "" });
  const padding = "p".repeat(Math.max(0, BODY_LIMIT + delta - Buffer.byteLength(base)));
  return jsonCase("bodies around 1 MiB", `${BODY_LIMIT + delta} bytes`, r, { ...exampleOf(r), padding });
});

/** The upload's fields with one text field replaced, at the multipart field limit or past it. */
export const formFields = fc
  .tuple(
    route(multipartRoutes),
    fc.constantFrom("name", "type", "file_name", "p_id"),
    fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom("", "9007199254740991", "9007199254740992", "1e3", "-0", "01", "é".repeat(100)),
      fc.integer({ min: -3, max: 3 }).map((delta) => "f".repeat(BODY_LIMIT + delta)),
    ),
  )
  .map(([r, field, text]) => {
    const fields = { ...exampleOf(r), [field]: text };
    if (text.length <= BODY_LIMIT)
      return formCase("multipart fields", `${field}: ${text.length} characters`, r, fields);
    const { contentType, body } = multipart(
      Object.entries(fields).map(([name, value]) =>
        Buffer.isBuffer(value) ? { name, filename: "contract.pdf", bytes: value } : { name, text: String(value) },
      ),
    );
    return {
      category: "multipart fields",
      label: `${r.key}: ${field} over the limit`,
      chunks: [toBytes({ method: r.route.method, target: r.target(), headers: withKey(contentType), body })],
      mustFail: true,
      status: 413,
    };
  });

/** Multipart bodies that are broken: no closing boundary, wrong boundary, garbage, no body. */
export const brokenMultipart = fc
  .tuple(
    route(multipartRoutes),
    fc.constantFrom("unterminated", "wrong boundary", "garbage", "no parts", "no boundary", "bad part header"),
    fc.uint8Array({ maxLength: 256 }),
  )
  .map(([r, kind, noise]): StormCase => {
    const good = multipart(
      [
        { name: "name", text: "Contract" },
        { name: "file", filename: "c.pdf", bytes: Buffer.from(noise) },
      ],
      "B",
    );
    const bodies: Readonly<Record<string, [string, Buffer]>> = {
      unterminated: [good.contentType, good.body.subarray(0, good.body.length - 6)],
      "wrong boundary": ["multipart/form-data; boundary=Z", good.body],
      garbage: [good.contentType, Buffer.from(noise)],
      "no parts": [good.contentType, Buffer.from("--B--\r\n")],
      "no boundary": ["multipart/form-data", good.body],
      "bad part header": [
        good.contentType,
        Buffer.from(`--B\r\n${"x".repeat(noise.length)}\r\n\r\nvalue\r\n--B--\r\n`),
      ],
    };
    const [contentType, body] = bodies[kind] ?? [good.contentType, good.body];
    return {
      category: "broken multipart",
      label: `${r.key}: ${kind}`,
      chunks: [toBytes({ method: r.route.method, target: r.target(), headers: withKey(contentType), body })],
      mustFail: true,
    };
  });
