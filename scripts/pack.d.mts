export interface PublicPackage {
  name: string;
  version: string;
  /** Absolute path of the package's folder. */
  dir: string;
}
export interface PackedPackage {
  name: string;
  /** Absolute path of the .tgz. */
  tarball: string;
  /** The package.json inside the tarball. */
  manifest: Record<string, any>;
  /** Paths inside the tarball, relative to its package/ folder. */
  files: string[];
}
export const root: string;
export function publicPackages(base?: string): PublicPackage[];
export function tarballManifest(tarball: string): Record<string, any>;
export function tarballProblems(packed: Array<Pick<PackedPackage, "name" | "manifest" | "files">>): string[];
export function packPublicPackages(dest: string, base?: string): PackedPackage[];
