import { describe, expect, it } from "vitest";
import { runBounded, toToolOutput } from "./tool-execution.js";

describe("toToolOutput", () => {
  it("keeps strings and content parts, and turns other values into JSON", () => {
    expect(toToolOutput("plain")).toBe("plain");
    expect(toToolOutput(undefined)).toBe("");
    expect(toToolOutput({ files: 2 })).toBe('{"files":2}');
    const image = { type: "image", mediaType: "image/png", data: "iVBOR" };
    expect(toToolOutput(image)).toEqual([image]);
    expect(toToolOutput([{ type: "text", text: "caption" }, image])).toEqual([
      { type: "text", text: "caption" },
      image,
    ]);
    const circular: { self?: unknown } = {};
    circular.self = circular;
    expect(toToolOutput(circular)).toBe("[object Object]");
  });
});

describe("runBounded", () => {
  it("never runs more than the limit at once and runs every index once", async () => {
    let inFlight = 0;
    let max = 0;
    const seen: number[] = [];
    await runBounded(7, 3, async (index) => {
      inFlight++;
      max = Math.max(max, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      seen.push(index);
      inFlight--;
    });
    expect(max).toBe(3);
    expect(seen.sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });
});
