/**
 * The framing of sequences of items (runtime/sequences.ts): multipart/mixed parts written and cut
 * back into items however the text arrives, and whole sequences written out (an example's
 * `serializedValue`) read back as items.
 */
import { describe, expect, it } from "vitest";
import {
  boundaryOf,
  encodingAt,
  FramingError,
  itemsOfText,
  type Part,
  PartError,
  PartSplitter,
  partItem,
  sequenceWriter,
} from "../../../runtime/sequences.js";

/** A frame as text (a multipart/mixed part's bytes decoded). */
const decoded = (frame: string | Uint8Array): string =>
  typeof frame === "string" ? frame : new TextDecoder().decode(frame);

/** The items of multipart text, fed `size` characters at a time. */
function partsIn(text: string, boundary: string, size: number): { items: unknown[]; closed: boolean } {
  const splitter = new PartSplitter(boundary);
  const items: unknown[] = [];
  for (let at = 0; at < text.length; at += size)
    items.push(...splitter.push(text.slice(at, at + size)).map((part) => partItem(part)));
  return { items, closed: splitter.closed };
}

describe("multipart/mixed", () => {
  const items = ["one", { lat: 1, lon: 2 }, [1, "two"], "three\r\n--not-the-boundary", 4];

  it("is written a part each under a new boundary, and read back the same however the text is cut", async () => {
    const writer = sequenceWriter("multipart");
    const again = sequenceWriter("multipart");
    expect(writer.boundary).toMatch(/^item-[0-9a-f]{36}$/);
    expect(again.boundary).not.toBe(writer.boundary);
    const text = (await Promise.all(items.map((item) => writer.item(item)))).map(decoded).join("") + writer.end();
    for (const size of [1, 2, 7, 64, text.length])
      expect(partsIn(text, writer.boundary ?? "", size)).toEqual({ items, closed: true });
  });

  it("with no item is the close delimiter alone", () => {
    const writer = sequenceWriter("multipart");
    expect(partsIn(writer.end(), writer.boundary ?? "", 3)).toEqual({ items: [], closed: true });
  });

  it("ignores the preamble and epilogue, reads a part without headers as text, and says when it is cut", () => {
    const text =
      "preamble\r\n--b  \r\n\r\nplain\r\n--b\r\nContent-Type: application/vnd.x+json\r\n\r\n{}\r\n--b--\r\nafter";
    expect(partsIn(text, "b", 5)).toEqual({ items: ["plain", {}], closed: true });
    expect(partsIn("--b\r\n\r\nplain\r\n--b\r\n\r\nrest", "b", 4)).toEqual({ items: ["plain"], closed: false });
  });

  it("refuses an item that holds the boundary, and a JSON part that does not parse", () => {
    const writer = sequenceWriter("multipart");
    expect(() => writer.item(`x--${writer.boundary}`)).toThrow(FramingError);
    expect(() => partItem({ type: "application/json", headers: {}, body: new TextEncoder().encode("{") })).toThrow(
      FramingError,
    );
  });

  it("writes bytes as a part of raw bytes and reads them back as a Blob, however the bytes are cut", async () => {
    const bytes = new Uint8Array([13, 10, 45, 45, 105, 116, 101, 109, 45, 13, 10, 45, 255, 0, 13]);
    const writer = sequenceWriter("multipart");
    const frames = [await writer.item(new Blob([bytes], { type: "image/png" })), await writer.item(bytes)];
    const whole = new Uint8Array([
      ...frames.flatMap((frame) => [...(frame as Uint8Array)]),
      ...new TextEncoder().encode(writer.end()),
    ]);
    for (const size of [1, 3, whole.length]) {
      const splitter = new PartSplitter(writer.boundary ?? "");
      const parts = [];
      for (let at = 0; at < whole.length; at += size) parts.push(...splitter.push(whole.slice(at, at + size)));
      expect(splitter.closed).toBe(true);
      expect(parts.map((part) => [part.type, [...part.body]])).toEqual([
        ["image/png", [...bytes]],
        ["application/octet-stream", [...bytes]],
      ]);
      expect(partItem(parts[0] as Part)).toBeInstanceOf(Blob);
    }
  });

  it("reads and writes each part by the Encoding Object of its position", async () => {
    const parts = {
      prefix: [{ contentType: "application/json" }],
      item: { contentType: "image/*", headers: [{ name: "Content-Location", required: true }] },
    };
    expect(encodingAt(parts, 0)).toEqual(parts.prefix[0]);
    expect(encodingAt(parts, 5)).toEqual(parts.item);
    const writer = sequenceWriter("multipart", parts);
    const first = decoded(await writer.item("a string, sent as JSON"));
    expect(first).toContain('content-type: application/json\r\n\r\n"a string, sent as JSON"');
    const second = decoded(
      await writer.item({ headers: { "content-location": "/a" }, body: new Blob(["x"], { type: "image/gif" }) }),
    );
    expect(second).toContain("content-type: image/gif\r\nContent-Location: /a\r\n\r\nx");
    expect(() => writer.item({ headers: {}, body: new Uint8Array([1]) })).toThrow("lacks the header Content-Location");
    expect(() => writer.item({ headers: { "Content-Location": "/b" }, body: "text" })).toThrow("give a Blob");
    const part = (type: string, headers: Record<string, string> = {}): Part => ({
      type,
      headers,
      body: new Uint8Array([1]),
    });
    expect(() => partItem(part("text/plain"), parts.item)).toThrow(PartError);
    expect(() => partItem(part("image/png"), parts.item)).toThrow("without the header Content-Location");
    expect(partItem(part("image/png", { "content-location": "/c" }), parts.item)).toMatchObject({
      headers: { "Content-Location": "/c" },
    });
  });

  it("names its boundary in the Content-Type, quoted or not", () => {
    expect(boundaryOf('multipart/mixed; boundary="a b"')).toBe("a b");
    expect(boundaryOf("multipart/mixed;charset=x; Boundary=xyz")).toBe("xyz");
    expect(boundaryOf("multipart/mixed")).toBeUndefined();
  });
});

describe("itemsOfText", () => {
  it("reads a whole sequence written out as its items", () => {
    expect(itemsOfText('{"a":1}\n\n[2]\n3', "jsonl")).toEqual([{ a: 1 }, [2], 3]);
    expect(itemsOfText('\u001e{"a":1}\n\u001e"b"\n', "json-seq")).toEqual([{ a: 1 }, "b"]);
    expect(itemsOfText("event: e\nid: 1\ndata: x\ndata: y\n\n: note\ndata: z", "sse")).toEqual([
      { event: "e", id: "1", data: "x\ny" },
      { id: "1", data: "z" },
    ]);
    expect(
      itemsOfText("--q\r\n\r\ntext\r\n--q\r\ncontent-type: application/json\r\n\r\n[1]\r\n--q--", "multipart"),
    ).toEqual(["text", [1]]);
  });

  it("refuses a record that is not JSON, and parts without their close delimiter", () => {
    expect(() => itemsOfText('{"a":\n', "jsonl")).toThrow(FramingError);
    expect(() => itemsOfText("--q\r\n\r\ntext", "multipart")).toThrow(FramingError);
    expect(() => itemsOfText("no parts", "multipart")).toThrow(FramingError);
  });
});
