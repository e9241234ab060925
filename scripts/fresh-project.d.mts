export function createProject(prefix?: string): string;
export function localBetterSqlitePrebuild(dest: string): { version: string; env: Record<string, string> };
export function npmInstall(dir: string, specs: string[], options?: { env?: Record<string, string> }): number;
export function diskKb(dir: string): number;
