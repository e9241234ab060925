import { GatewayError } from "./gateway-errors.js";

/**
 * The vendor clients a family loads from the user's install, with the range `@heddle/llms` accepts: its optional
 * `peerDependencies` (a test keeps the two equal). Only `@google/genai`: the Anthropic and OpenAI clients ship
 * bundled inside `@heddle/llms` (docs/llms.md, "Bundled vendor clients").
 */
export const VENDOR_SDKS: Readonly<Record<string, string>> = {
  "@google/genai": "^2.32.0",
};

/**
 * A provider's vendor client is not installed (it is an optional peer dependency of `@heddle/llms`). Code
 * `vendor_sdk_missing`; the message names the command that installs it, `installCommand`.
 */
export class MissingVendorSdkError extends GatewayError {
  override name = "MissingVendorSdkError";
  readonly installCommand: string;
  constructor(
    readonly packageName: string,
    readonly versionRange: string,
    options?: { cause?: unknown },
  ) {
    const installCommand = `npm i ${packageName}@${versionRange}`;
    super(
      "vendor_sdk_missing",
      `The provider's client ${packageName} is not installed: @heddle/llms lists it as an optional peer ` +
        `dependency, so install it beside @heddle/llms: ${installCommand}`,
      options,
    );
    this.installCommand = installCommand;
  }
}

/**
 * The vendor SDK a failed `import()` could not find, or undefined when the failure is another one (a vendor SDK's
 * own dependency missing, a subpath, a syntax error). Node reports a missing package as ERR_MODULE_NOT_FOUND with
 * "Cannot find package 'name' imported from ...".
 */
export function missingVendorSdk(error: unknown): string | undefined {
  if ((error as { code?: unknown } | null)?.code !== "ERR_MODULE_NOT_FOUND") return undefined;
  const name = /Cannot find package '([^']+)'/.exec(String((error as { message?: unknown }).message))?.[1];
  return name !== undefined && Object.hasOwn(VENDOR_SDKS, name) ? name : undefined;
}

/**
 * A vendor client module loaded on the first request that needs it, so importing `@heddle/llms` loads none. One
 * load is shared by every caller; a failed load is forgotten, so the next request tries again (after an install).
 * A vendor SDK that is not installed rejects with a `MissingVendorSdkError` naming the install command.
 */
export function lazyModule<M>(load: () => Promise<M>): () => Promise<M> {
  let loading: Promise<M> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      const name = missingVendorSdk(error);
      if (name !== undefined) throw new MissingVendorSdkError(name, VENDOR_SDKS[name] as string, { cause: error });
      throw error;
    });
    return loading;
  };
}
