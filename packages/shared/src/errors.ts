/**
 * One error base for every package: `HeddleError` with a stable `code` a host can switch on (the class name and the
 * message may change between versions; the code does not). Each package's errors extend it.
 */
import type { HeddleErrorCode } from "./error-codes.js";

/**
 * Every Heddle error. `code` is stable, snake_case, and one of `HeddleErrorCode` (the catalog in `error-codes.ts`,
 * listed in docs/errors.md).
 */
export class HeddleError extends Error {
  readonly code: HeddleErrorCode;
  constructor(code: HeddleErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause !== undefined ? { cause: options.cause } : undefined);
    this.name = "HeddleError";
    this.code = code;
  }
}

/** A configuration value is wrong (a programmer error): thrown at construction, never mid-run. Code `config_invalid`. */
export class ConfigError extends HeddleError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("config_invalid", message, options);
    this.name = "ConfigError";
  }
}

/**
 * An optional peer dependency a feature needs is not installed (`ioredis` for the Redis team backends, `pg` for the
 * PostgreSQL session store). Code `dependency_missing`; `packageName` names it and `installCommand` installs it.
 */
export class MissingDependencyError extends HeddleError {
  declare readonly code: "dependency_missing";
  readonly installCommand: string;
  constructor(
    readonly packageName: string,
    /** Who needs it, for the message (`RedisTeamMailbox`). */
    who: string,
    options?: { cause?: unknown },
  ) {
    const installCommand = `npm install ${packageName}`;
    const detail = options?.cause instanceof Error ? ` (${options.cause.message})` : "";
    super("dependency_missing", `${who} needs the "${packageName}" package: ${installCommand}${detail}`, options);
    this.name = "MissingDependencyError";
    this.installCommand = installCommand;
  }
}

/** True for any Heddle error, and for one with the given code when `code` is passed. */
export function isHeddleError(error: unknown, code?: HeddleErrorCode): error is HeddleError {
  return error instanceof HeddleError && (code === undefined || error.code === code);
}

/** Where Heddle writes what it has to say outside events (listener failures, unknown-model notices, hook errors). */
export interface Logger {
  debug(message: string, ...details: unknown[]): void;
  info(message: string, ...details: unknown[]): void;
  warn(message: string, ...details: unknown[]): void;
  error(message: string, ...details: unknown[]): void;
}

/** The default logger: the global console, prefixed with `[heddle]`. */
export const consoleLogger: Logger = {
  debug: (message, ...details) => globalThis.console?.debug?.(`[heddle] ${message}`, ...details),
  info: (message, ...details) => globalThis.console?.info?.(`[heddle] ${message}`, ...details),
  warn: (message, ...details) => globalThis.console?.warn?.(`[heddle] ${message}`, ...details),
  error: (message, ...details) => globalThis.console?.error?.(`[heddle] ${message}`, ...details),
};

/** A logger that drops everything. */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
