import { describe, expect, it } from "vitest";
import { WriteQueue } from "./write-queue.js";

describe("WriteQueue", () => {
  it("runs writes one after another in the order queued, even when an earlier one is slower", async () => {
    const queue = new WriteQueue(() => {});
    const order: string[] = [];
    queue.enqueue(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      order.push("slow first");
    });
    queue.enqueue(async () => void order.push("fast second"));
    await queue.settled();
    expect(order).toEqual(["slow first", "fast second"]);
    expect(queue.takeError()).toBeUndefined();
  });

  it("after a failed write drops every later one, so the stored transcript has no gap; reports the failure once", async () => {
    const failures: unknown[] = [];
    const queue = new WriteQueue((error) => failures.push(error));
    const ran: string[] = [];
    const boom = new Error("disk full");
    queue.enqueue(async () => void ran.push("a"));
    queue.enqueue(async () => {
      throw boom;
    });
    queue.enqueue(async () => void ran.push("c"));
    queue.enqueue(async () => void ran.push("d"));
    await queue.settled();
    expect(ran).toEqual(["a"]);
    expect(failures).toEqual([boom]);
    expect(queue.takeError()).toEqual({ error: boom });
    // Taken once: the next turn starts clean.
    expect(queue.takeError()).toBeUndefined();
  });

  it("runs writes again once the failure was taken (a new turn)", async () => {
    const queue = new WriteQueue(() => {});
    const ran: string[] = [];
    queue.enqueue(async () => {
      throw new Error("conflict");
    });
    await queue.settled();
    expect(queue.takeError()).toBeDefined();
    queue.enqueue(async () => void ran.push("next turn"));
    await queue.settled();
    expect(ran).toEqual(["next turn"]);
    expect(queue.takeError()).toBeUndefined();
  });
});
