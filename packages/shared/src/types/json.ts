/** JSON: part of Heddle's public contract (see `index.ts`). */

/** Any JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A JSON Schema document (draft 2020-12 as produced by `z.toJSONSchema`, or hand-written). */
export type JsonSchema = { [key: string]: unknown };
