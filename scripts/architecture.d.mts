export declare const ALLOWED_IMPORTS: Record<string, string[]>;
export declare const BROWSER_SAFE: string[];
export declare function findLayerViolations(root: string): string[];
export declare function findNodeImports(entry: string, options?: { alias?: Record<string, string> }): Promise<string[]>;
