import type { AgentUsage, ModelInfo } from "@heddle/shared";
import { usageCostUsd } from "@heddle/shared";

/**
 * USD cost of one response's usage at a catalog model's prices; 0 without prices. The arithmetic lives in
 * `@heddle/shared` (`usageCostUsd`), so code that only needs to price usage does not depend on the gateway.
 */
export function costOfUsage(info: Pick<ModelInfo, "pricing"> | undefined, usage: Partial<AgentUsage>): number {
  return usageCostUsd(usage, info?.pricing);
}
