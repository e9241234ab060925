import { MissingDependencyError } from "@heddle/shared";

/**
 * A new `ioredis` client for `url`. `ioredis` is an optional peer dependency: it is imported here, on the first call
 * of a Redis mailbox or roster, never when `@heddle/core` loads.
 */
export async function connectRedis<T>(url: string, who: string): Promise<T> {
  let ioredis: { default?: new (url: string) => T; Redis?: new (url: string) => T };
  try {
    ioredis = (await import("ioredis")) as unknown as typeof ioredis;
  } catch (error) {
    throw new MissingDependencyError("ioredis", who, { cause: error });
  }
  const Redis = ioredis.Redis ?? ioredis.default!;
  return new Redis(url);
}
