/**
 * The event the sandbox benchmarks create and edit (the load, the memory at rest, the instruction
 * count): the `i`-th, held at `venue` (by default 318, one of the demo seed's first company's).
 */
export const eventBody = (i: number, venue = "318"): string =>
  JSON.stringify({
    name: `Load ${i}`,
    date: "2024-04-20",
    venue: { venue_id: venue },
    custom_fields_text: [{ key: "Round", value: String(i) }],
  });
