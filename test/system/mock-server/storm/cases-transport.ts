/** Storm cases about the transport: raw bytes, framing, headers, keys, URLs and IDs. */
import fc from "fast-check";
import {
  bodyRoutes,
  headVerdict,
  idIsValid,
  idRoutes,
  jsonCase,
  jsonRequest,
  jsonRoutes,
  PARAM_LIMIT,
  type StormCase,
  type StormRoute,
  stormRoutes,
} from "./model.js";
import { STORM_KEY, toBytes, type WireRequest, withKey } from "./wire.js";

const route = (list: readonly StormRoute[]): fc.Arbitrary<StormRoute> => fc.constantFrom(...list);
const exampleText = (r: StormRoute): string => JSON.stringify(r.example ?? {});

/** Bytes that may or may not start like HTTP. */
export const randomBytes = fc
  .tuple(
    fc.constantFrom("", "GET / HTTP/1.1\r\n", "POST /api/1_12/venues HTTP/1.1\r\nhost: x\r\n"),
    fc.uint8Array({ minLength: 1, maxLength: 512 }),
  )
  .map(
    ([prefix, bytes]): StormCase => ({
      category: "random bytes",
      label: `${JSON.stringify(prefix)} + ${bytes.length} random bytes`,
      chunks: [Buffer.concat([Buffer.from(prefix), Buffer.from(bytes)])],
      answerOptional: true,
      mustFail: true,
    }),
  );

/** A valid body declared with a Content-Length that is too small (the rest reads as a new request). */
export const lengthMismatch = fc
  .tuple(route(jsonRoutes), fc.integer({ min: 1, max: 12 }))
  .map(([r, short]): StormCase => {
    const text = exampleText(r);
    return {
      category: "Content-Length mismatch",
      label: `${r.key}: ${short} bytes short`,
      chunks: [toBytes(jsonRequest(r, text, { framing: { kind: "declared", length: text.length - short } }))],
      mustFail: true,
      status: 400,
    };
  });

/** A valid body, chunked: accepted; with a broken chunk size: refused. */
export const chunkedBodies = fc
  .tuple(route(jsonRoutes), fc.integer({ min: 1, max: 64 }), fc.boolean())
  .map(([r, size, broken]): StormCase => {
    const bytes = toBytes(jsonRequest(r, exampleText(r), { framing: { kind: "chunked", size } }));
    const chunks = broken
      ? [Buffer.from(bytes.toString("latin1").replace(/\r\n\r\n[0-9a-f]+\r\n/, "\r\n\r\nzz\r\n"), "latin1")]
      : [bytes];
    return broken
      ? { category: "chunked bodies", label: `${r.key}: broken chunk size`, chunks, mustFail: true, status: 400 }
      : { ...jsonCase("chunked bodies", `chunks of ${size}`, r, r.example), chunks };
  });

/** Content-Type values that are broken, unusual or repeated; only the first may be read. */
const CONTENT_TYPES: readonly (readonly [readonly string[], boolean])[] = [
  [["application/json, text/plain"], false],
  [["text/plain"], false],
  [[""], false],
  [["application/"], false],
  [["application/json;"], true],
  [["APPLICATION/JSON; charset=utf-8"], true],
  [["application/json", "text/plain"], true],
  [["text/plain", "application/json"], false],
  [["application/problem+json"], false],
];
export const contentTypes = fc
  .tuple(route(jsonRoutes), fc.constantFrom(...CONTENT_TYPES))
  .map(([r, [values, accepted]]): StormCase => {
    const request = jsonRequest(r, exampleText(r), {
      headers: [["x-api-key", STORM_KEY], ...values.map((value) => ["content-type", value] as const)],
    });
    const base = jsonCase("broken and repeated Content-Types", values.join(" | "), r, r.example);
    return accepted
      ? { ...base, chunks: [toBytes(request)] }
      : { category: base.category, label: base.label, chunks: [toBytes(request)], mustFail: true, status: 415 };
  });

/** Keys that are missing, empty, wrong, odd bytes, repeated or huge. */
export const badKeys = fc
  .tuple(
    route(stormRoutes),
    fc.oneof(
      fc.constant<string[]>([]),
      fc.constantFrom(
        [""],
        [" "],
        ["storm-key-7f3"],
        [`${`${STORM_KEY} `.trim()}x`],
        [STORM_KEY, STORM_KEY],
        ["\u00e9t\u00e9"],
      ),
      fc.string({ minLength: 1, maxLength: 80 }).map((key) => [key.replace(/[\r\n\0]/g, "")]),
      fc.integer({ min: 4000, max: 40_000 }).map((size) => ["k".repeat(size)]),
    ),
  )
  .map(([r, keys]): StormCase => {
    const request: WireRequest = {
      method: r.route.method,
      target: r.target(),
      headers: keys.map((key) => ["x-api-key", key] as const),
    };
    const bytes = toBytes(request);
    const verdict = headVerdict(
      bytes.length,
      keys.some((key) => key.trim() !== "") ? { mustFail: true } : { mustFail: true, status: 401 },
    );
    return {
      category: "bad and huge keys",
      label: `${r.key}: ${keys.length} key(s) of ${keys.map((key) => key.length).join(", ")} characters`,
      chunks: [bytes],
      ...verdict,
    };
  });

/** Percent-escapes that decode to nothing valid, anywhere in the path. */
export const badEscapes = fc
  .tuple(route(stormRoutes), fc.constantFrom("%", "%z", "%zz", "%C0%AF", "%ED%A0%80", "%FF", "%E2%82"), fc.nat())
  .map(([r, badEscape, at]): StormCase => {
    const target = r.target();
    const cut = target.indexOf("/", 1 + (at % (target.length - 1)));
    const broken = cut === -1 ? `${target}${badEscape}` : `${target.slice(0, cut)}/${badEscape}${target.slice(cut)}`;
    return {
      category: "bad percent-escapes",
      label: `${r.key}: ${broken}`,
      chunks: [toBytes({ method: r.route.method, target: broken, headers: withKey() })],
      mustFail: true,
      status: 400,
    };
  });

/** IDs around the parameter limit, and texts an integer ID must not take. */
export const ids = fc
  .tuple(
    route(idRoutes.filter((r) => r.content?.kind !== "multipart")),
    fc.oneof(
      fc.integer({ min: PARAM_LIMIT - 4, max: PARAM_LIMIT + 4 }).map((length) => "7".repeat(length)),
      fc.integer({ min: PARAM_LIMIT + 5, max: 6000 }).map((length) => "e".repeat(length)),
      fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
      fc.constantFrom(
        "9007199254740991",
        "9007199254740992",
        "1e3",
        "1.0",
        "-0",
        "01",
        "+1",
        "0x10",
        "%20",
        "1%2F2",
        "\u00e9",
      ),
    ),
  )
  .map(([r, id]): StormCase => {
    const text = decodeURIComponent(id);
    const request =
      r.content === undefined
        ? { method: r.route.method, target: r.target(encodeURIComponent(text)), headers: withKey() }
        : jsonRequest(r, JSON.stringify(r.example ?? {}), { target: r.target(encodeURIComponent(text)) });
    const base = {
      category: "long and odd IDs",
      label: `${r.key}: ${text.length > 40 ? `${text.length} characters` : JSON.stringify(text)}`,
      chunks: [toBytes(request)],
    };
    if (text.length > PARAM_LIMIT) return { ...base, mustFail: true, status: 414 };
    if (!idIsValid(r, text)) return { ...base, mustFail: true, status: 400 };
    const body = r.content === undefined ? {} : jsonCase("", "", r, r.example).received;
    return { ...base, mustFail: false, received: { ...body, id: text } };
  });

/** Many query parameters: thousands fit in the head; ten thousand do not. */
export const queryFlood = fc
  .tuple(route(stormRoutes.filter((r) => r.content === undefined)), fc.constantFrom(1000, 3000, 10_000))
  .map(([r, count]): StormCase => {
    const query = `?${Array.from({ length: count }, (_, i) => `a=${i % 10}`).join("&")}`;
    const bytes = toBytes({ method: r.route.method, target: r.target("1042", query), headers: withKey() });
    return {
      category: "10k query parameters",
      label: `${r.key}: ${count} parameters`,
      chunks: [bytes],
      ...headVerdict(bytes.length, { mustFail: false, status: 200 }),
    };
  });

/** Hundreds or thousands of header lines. */
export const manyHeaders = fc
  .tuple(route(stormRoutes.filter((r) => r.content === undefined)), fc.integer({ min: 100, max: 4000 }))
  .map(([r, count]): StormCase => {
    const headers: [string, string][] = [
      ...withKey(),
      ...Array.from({ length: count }, (_, i) => [`x-h${i}`, "v"] as [string, string]),
    ];
    const bytes = toBytes({ method: r.route.method, target: r.target(), headers });
    return {
      category: "many headers",
      label: `${r.key}: ${count} headers`,
      chunks: [bytes],
      ...headVerdict(bytes.length, { mustFail: false, status: 200 }),
    };
  });

/** A sender that stops partway through its body and goes away. */
export const slowSenders = fc.tuple(route(bodyRoutes), fc.integer({ min: 1, max: 4 })).map(([r, pieces]): StormCase => {
  const bytes = toBytes(jsonRequest(r, `${exampleText(r)}${" ".repeat(4096)}`));
  const cut = Math.floor(bytes.length * 0.6);
  const chunks = Array.from({ length: pieces }, (_, i) =>
    bytes.subarray(Math.floor((cut * i) / pieces), Math.floor((cut * (i + 1)) / pieces)),
  );
  return {
    category: "slow senders cut off",
    label: `${r.key}: ${pieces} pieces, then gone`,
    chunks,
    gapMs: 15,
    cutOff: true,
    mustFail: true,
  };
});
