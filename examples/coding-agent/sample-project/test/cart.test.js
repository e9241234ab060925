import assert from "node:assert/strict";
import { test } from "node:test";
import { applyDiscount, subtotal, total } from "../src/cart.js";

const lines = [
  { sku: "mug", priceCents: 1250, quantity: 2 },
  { sku: "tea", priceCents: 899, quantity: 1 },
];

test("subtotal adds price times quantity", () => {
  assert.equal(subtotal(lines), 3399);
});

test("a 10% discount takes a tenth off", () => {
  assert.equal(applyDiscount(1000, 10), 900);
});

test("total applies the discount to the subtotal", () => {
  assert.equal(total(lines, 25), 2549);
});

test("a discount outside 0-100 is refused", () => {
  assert.throws(() => applyDiscount(1000, 120), RangeError);
});
