export declare const PROMPT: string;
export declare const TOOL_NAME: string;
export declare const TOOL_DESCRIPTION: string;
export declare const NOTE_SCHEMA: Record<string, unknown>;
export declare const MODELS: { chat: string; anthropic: string; gemini: string };
export declare const API_KEY: string;
export declare const FINAL_WORDS: string[];
export declare const FINAL_TEXT: string;
export declare function toolArguments(bytes: number): string;
export declare function textLength(bytes: number): number;
export declare function toolResult(length: number): string;
export declare class BenchRunError extends Error {}
export declare function runNote(
  input: unknown,
  options: { argumentBytes: number; state: { calls: number }; who: string },
): string;
export declare function checkRun(run: { who: string; turns: number; calls: number; text: unknown }): void;
export declare function split(text: string, count: number): string[];
