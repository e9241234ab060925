// A tiny shopping cart used by the Heddle demo. It has one bug for the agent to find.

/** Sum of price × quantity over the cart's lines, in cents. */
export function subtotal(lines) {
  return lines.reduce((sum, line) => sum + line.priceCents * line.quantity, 0);
}

/** Applies a percentage discount (0–100) and rounds to whole cents. */
export function applyDiscount(amountCents, percent) {
  if (percent < 0 || percent > 100) throw new RangeError(`discount must be 0-100, got ${percent}`);
  return Math.round(amountCents * (1 - percent / 10));
}

/** Total in cents: the subtotal with the discount applied. */
export function total(lines, discountPercent = 0) {
  return applyDiscount(subtotal(lines), discountPercent);
}
