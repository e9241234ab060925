/**
 * One error base for every package: `HeddleError` with a stable `code` a host can switch on (the class name and the
 * message may change between versions; the code does not). Each package's errors extend it.
 */

/** Every Heddle error. `code` is stable, snake_case, and documented where the error is thrown. */
export class HeddleError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
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

/** True for any Heddle error, and for one with the given code when `code` is passed. */
export function isHeddleError(error: unknown, code?: string): error is HeddleError {
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
