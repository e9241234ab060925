import type { Logger } from "@heddle/shared";

/** A stored row the SQLite store could not read (invalid JSON, ...): skipped, and reported once. */
export interface UnreadableRow {
  /** The database file. */
  path: string;
  table: "sessions" | "messages" | "working_contexts";
  sessionId: string;
  /** The message id, for a message row. */
  messageId?: string;
  /** Why it could not be read. */
  error: string;
}

/**
 * Parses stored JSON. A row that does not parse is reported (through the logger and `onUnreadableRow`, once per
 * row and store) and the caller skips it or falls back, so one bad row never makes a whole session unopenable.
 */
export class RowReader {
  readonly unreadable: UnreadableRow[] = [];
  readonly #reported = new Set<string>();

  constructor(
    readonly path: string,
    readonly logger: Logger,
    readonly onUnreadableRow: ((row: UnreadableRow) => void) | undefined,
  ) {}

  /** The parsed value, or `fallback` when the text is not valid JSON (reported). */
  parse<T>(text: string, fallback: T, where: Omit<UnreadableRow, "path" | "error">): T {
    try {
      return JSON.parse(text) as T;
    } catch (error) {
      this.report({ ...where, path: this.path, error: (error as Error).message });
      return fallback;
    }
  }

  report(row: UnreadableRow): void {
    const key = `${row.table}\0${row.sessionId}\0${row.messageId ?? ""}`;
    if (this.#reported.has(key)) return;
    this.#reported.add(key);
    this.unreadable.push(row);
    const which = row.messageId ? `message ${row.messageId} of session ${row.sessionId}` : `session ${row.sessionId}`;
    this.logger.warn(`${row.path}: skipped an unreadable ${row.table} row (${which}): ${row.error}`);
    this.onUnreadableRow?.(row);
  }
}
