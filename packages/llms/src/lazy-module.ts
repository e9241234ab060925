/**
 * A vendor client module loaded on the first request that needs it, so importing `@heddle/llms` loads none. One
 * load is shared by every caller; a failed load is forgotten, so the next request tries again.
 */
export function lazyModule<M>(load: () => Promise<M>): () => Promise<M> {
  let loading: Promise<M> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
