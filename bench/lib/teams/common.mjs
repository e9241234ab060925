// Shared by bench/teams.bench.mjs and its scenario modules: the model, the messages, the medians, the results file.
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";

export const requireFromCore = createRequire(new URL("../../../packages/core/package.json", import.meta.url));
export const POSTGRES_URL = process.env.HEDDLE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
export const REDIS_URL = process.env.HEDDLE_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
export const min = (values) => Math.min(...values);
export const max = (values) => Math.max(...values);
export const cpuMs = (usage) => (usage.user + usage.system) / 1000;
export const fmt = (value, digits = 2) => value.toFixed(digits);
export const spread = (ratios) => `${fmt(median(ratios))} (${fmt(min(ratios))}-${fmt(max(ratios))})`;

/**
 * An instant model that answers every request with the same short text. Not the scripted model of
 * `@heddle/llms/testing`: that one keeps a copy of every request's messages, which at 10,000 messages a turn would
 * measure the test helper's memory, not the code under test.
 */
export function instantModel(text = "done: noted") {
  const events = [
    { type: "text-delta", text },
    { type: "usage", usage: { inputTokens: 10, outputTokens: 3 } },
    { type: "finish", reason: "stop" },
  ];
  return {
    provider: "bench",
    modelId: "instant",
    async *stream() {
      yield* events;
    },
  };
}

/** The i-th message of a seeded history (~400 B of text, user and assistant in turn). */
export function seedMessage(i, prefix = "seed") {
  return {
    id: `${prefix}_${i}`,
    role: i % 2 ? "assistant" : "user",
    content: [{ type: "text", text: `message ${i} ${"lorem ipsum dolor ".repeat(20)}` }],
    createdAt: 1_700_000_000_000 + i,
  };
}

/** Every run's figures, as JSON, to bench/results/<name>.json (the folder is git-ignored: results are per machine). */
export function writeResults(name, data) {
  const dir = fileURLToPath(new URL("../../results/", import.meta.url));
  mkdirSync(dir, { recursive: true });
  const path = `${dir}${name}.json`;
  const meta = {
    benchmark: name,
    date: new Date().toISOString(),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadAverage: loadavg().map((l) => Number(l.toFixed(2))),
  };
  writeFileSync(path, `${JSON.stringify({ ...meta, ...data }, null, 2)}\n`);
  return path;
}
