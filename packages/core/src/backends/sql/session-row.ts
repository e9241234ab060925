// The session row both SQL stores keep (SQLite and PostgreSQL share the column names) and its reading as a record.
import { type AgentUsage, emptyUsage } from "@heddle/shared";
import type { SessionRecord } from "../../sessions/contract.js";

export interface SessionRow {
  id: string;
  title: string | null;
  model_provider: string | null;
  model_id: string | null;
  cwd: string | null;
  created_at: number;
  updated_at: number;
  usage: string;
  usage_by_model: string;
  head_message_id: string | null;
  parent_session_id: string | null;
  forked_from_message_id: string | null;
  metadata: string | null;
}

/**
 * A session row as a record; `parse` reads its JSON columns (the SQLite store's falls back, and reports, on a bad
 * one; the default throws).
 */
export function toRecord(
  row: SessionRow,
  parse: <T>(text: string, fallback: T) => T = (text) => JSON.parse(text),
): SessionRecord {
  return {
    id: row.id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    usage: { ...emptyUsage(), ...parse<Partial<AgentUsage>>(row.usage, {}) },
    usageByModel: parse<{ [key: string]: AgentUsage }>(row.usage_by_model, {}),
    headMessageId: row.head_message_id,
    ...(row.title !== null && { title: row.title }),
    ...(row.model_provider !== null &&
      row.model_id !== null && { model: { provider: row.model_provider, id: row.model_id } }),
    ...(row.cwd !== null && { cwd: row.cwd }),
    ...(row.parent_session_id !== null && { parentSessionId: row.parent_session_id }),
    ...(row.forked_from_message_id !== null && { forkedFromMessageId: row.forked_from_message_id }),
    ...(row.metadata !== null && { metadata: parse<{ [key: string]: unknown }>(row.metadata, {}) }),
  };
}

/** A new session row: empty usage, no head unless given. */
export function sessionRow(
  id: string,
  now: number,
  fields: Pick<SessionRow, "title" | "model_provider" | "model_id" | "cwd" | "metadata"> &
    Partial<Pick<SessionRow, "head_message_id" | "parent_session_id" | "forked_from_message_id">>,
): SessionRow {
  return {
    id,
    created_at: now,
    updated_at: now,
    usage: JSON.stringify(emptyUsage()),
    usage_by_model: "{}",
    head_message_id: null,
    parent_session_id: null,
    forked_from_message_id: null,
    ...fields,
  };
}
