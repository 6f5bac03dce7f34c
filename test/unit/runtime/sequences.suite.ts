/**
 * The framing of sequences of items (runtime/sequences.ts): multipart/mixed parts written and cut
 * back into items however the text arrives, and whole sequences written out (an example's
 * `serializedValue`) read back as items.
 */
import { describe, expect, it } from "vitest";
import {
  boundaryOf,
  FramingError,
  itemsOfText,
  PartSplitter,
  partItem,
  sequenceWriter,
} from "../../../runtime/sequences.js";

/** The items of multipart text, fed `size` characters at a time. */
function partsIn(text: string, boundary: string, size: number): { items: unknown[]; closed: boolean } {
  const splitter = new PartSplitter(boundary);
  const items: unknown[] = [];
  for (let at = 0; at < text.length; at += size) items.push(...splitter.push(text.slice(at, at + size)).map(partItem));
  return { items, closed: splitter.closed };
}

describe("multipart/mixed", () => {
  const items = ["one", { lat: 1, lon: 2 }, [1, "two"], "three\r\n--not-the-boundary", 4];

  it("is written a part each under a new boundary, and read back the same however the text is cut", () => {
    const writer = sequenceWriter("multipart");
    const again = sequenceWriter("multipart");
    expect(writer.boundary).toMatch(/^item-[0-9a-f]{36}$/);
    expect(again.boundary).not.toBe(writer.boundary);
    const text = items.map((item) => writer.item(item)).join("") + writer.end();
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
    expect(() => partItem({ type: "application/json", body: "{" })).toThrow(FramingError);
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
