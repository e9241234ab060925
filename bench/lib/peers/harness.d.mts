export interface ServerStats {
  completed: Record<string, number>;
  toolResults: Record<string, number>;
  rejected: number;
  lastRejection: string;
}
export interface BenchServer {
  url: string;
  turns: number;
  argumentBytes: number;
  stats(): Promise<ServerStats>;
  close(): void;
}
export declare const WIRE: Record<"chat" | "anthropic" | "gemini", string>;
export declare function startServer(shape: {
  turns: number;
  argumentBytes: number;
  fragments: number;
}): Promise<BenchServer>;
export declare function runJob(server: BenchServer, job: Record<string, unknown>, execArgv?: string[]): Promise<any>;
export declare function profileJob(server: BenchServer, job: Record<string, unknown>): Promise<any>;
export declare function median(values: number[]): number;
export declare function spread(ratios: number[]): { median: number; min: number; max: number; n: number };
