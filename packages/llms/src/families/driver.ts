import type { AgentModelEvent, FinishEvent, ModelError } from "@heddle/shared";
import { CallLink } from "../call-link.js";
import { modelError } from "../errors.js";
import { mapStream } from "../map-stream.js";
import type { FamilyCallContext, WireFamily, WireFamilyId } from "../types.js";

/**
 * Turns one call's vendor chunks into neutral events: one instance per call, the same interface in every family.
 * Events are pushed on the `out` array the driver hands in, so a chunk that maps to nothing allocates nothing.
 */
export interface FamilyMapper<Chunk> {
  /** Maps one chunk. Returns true when it ended the response (a terminal event): reading stops, the source closes. */
  push(chunk: Chunk, out: AgentModelEvent[]): boolean | undefined | void;
  /** The source ended normally: closes what is open, then pushes usage and the finish (an error for a cut stream). */
  end(out: AgentModelEvent[]): void;
  /** The call failed with this (classified) error: pushes the usage reported so far, when any, then the finish. */
  fail(error: ModelError, out: AgentModelEvent[]): void;
}

/**
 * One wire family as data: how its vendor client is loaded and called, how its chunks are mapped and its errors
 * classified. `driveFamily` does the rest, the same way for every family.
 */
export type FamilyDriver<Client, Chunk> = FamilyDriverParts<Client, Chunk> &
  (
    | {
        /** Builds the body and sends the request; resolves to the vendor's stream of chunks. */
        open(
          client: Client,
          ctx: FamilyCallContext,
          link: CallLink,
        ): Promise<AsyncIterable<Chunk>> | AsyncIterable<Chunk>;
        openBatches?: never;
      }
    | {
        /**
         * Builds the body, sends the request with the vendor client and reads the response's events itself
         * (`readSseResponse`): resolves to batches of chunks, each mapped in order.
         */
        openBatches(client: Client, ctx: FamilyCallContext, link: CallLink): Promise<AsyncIterator<Chunk[]>>;
        open?: never;
      }
  );

/** What every driver gives, whichever way it opens its stream. */
interface FamilyDriverParts<Client, Chunk> {
  id: WireFamilyId;
  /** A refusal to send at all (no key): the call ends with this error, before the vendor client loads. */
  checkAuth?(ctx: FamilyCallContext): ModelError | undefined;
  /** The vendor client for this key/URL/headers: the module loaded lazily, the client cached (`clientCache`). */
  loadClient(ctx: FamilyCallContext): Client | Promise<Client>;
  /** A fresh mapper for one call. */
  mapper(ctx: FamilyCallContext): FamilyMapper<Chunk>;
  /** Classifies what `loadClient`, `open` or the stream threw; `client` is undefined when it never loaded. */
  classify(error: unknown, signal: AbortSignal, client: Client | undefined): ModelError;
}

/** A call the driver ends before sending it (aborted already, no key): carries the error to report. */
class NotSent {
  constructor(readonly error: ModelError) {}
}

/** The `finish` for a failure: an abort is `aborted`, anything else `error`. */
export function failureFinish(error: ModelError): FinishEvent {
  return error.kind === "aborted"
    ? { type: "finish", reason: "aborted", error }
    : { type: "finish", reason: "error", error };
}

/**
 * One attempt of a family's call as a stream of neutral events ending in one `finish`; never throws. The driver
 * owns what every family shares: the `CallLink` (per-call signal, idle timeout, size cap; created as the stream
 * starts, closed when it is done with), the refusals before sending, the rule that a vendor client ending its
 * iteration quietly after an abort or a stream limit is that abort or limit (never a normal end), and
 * classification (a limit's own error first). It is a `mapStream`: no async generator and no promise per event.
 */
export function driveFamily<Client, Chunk>(
  driver: FamilyDriver<Client, Chunk>,
  ctx: FamilyCallContext,
): AsyncIterableIterator<AgentModelEvent> {
  const mapper = driver.mapper(ctx);
  let link: CallLink | undefined;
  let client: Client | undefined;
  const batched = driver.openBatches !== undefined;
  return mapStream<Chunk | Chunk[], AgentModelEvent>({
    async open() {
      const callLink = new CallLink(ctx.signal, ctx.limits);
      link = callLink;
      if (callLink.signal.aborted)
        throw new NotSent(modelError("aborted", "The request was aborted before it was sent."));
      const refusal = driver.checkAuth?.(ctx);
      if (refusal) throw new NotSent(refusal);
      client = await driver.loadClient(ctx);
      // The idle clock starts as the request is sent: loading the client never counts as the server's silence.
      callLink.start();
      return driver.openBatches ? driver.openBatches(client, ctx, callLink) : driver.open(client, ctx, callLink);
    },
    chunk(chunk, out) {
      if (!batched) return mapper.push(chunk as Chunk, out);
      const batch = chunk as Chunk[];
      for (let i = 0; i < batch.length; i++) if (mapper.push(batch[i] as Chunk, out)) return true;
      return false;
    },
    end(out) {
      // Vendor clients end their iteration quietly when the signal aborts, and a stream limit aborts it too.
      if (link?.failure) mapper.fail(link.failure, out);
      else if (link?.signal.aborted) mapper.fail(modelError("aborted", "The request was aborted."), out);
      else mapper.end(out);
    },
    fail(error, out) {
      const classified =
        error instanceof NotSent
          ? error.error
          : (link?.failure ?? driver.classify(error, link?.signal ?? ctx.signal, client));
      mapper.fail(classified, out);
    },
    close: () => link?.close(),
  });
}

/** The `WireFamily` a driver makes. */
export function familyOf<Client, Chunk>(driver: FamilyDriver<Client, Chunk>): WireFamily {
  return { id: driver.id, streamOnce: (ctx) => driveFamily(driver, ctx) };
}
