/**
 * Exits with `code` once everything written to stdout and stderr has left the process.
 *
 * On a pipe, Node writes stdout asynchronously: what the reader has not taken yet waits in this process's memory,
 * and `process.exit()` throws it away (a slow `| reader` got the first ~300 KB and the exit code still said 0).
 * So the exit waits for both streams to flush. It still exits explicitly: MCP children, timers or sockets the
 * session left open must not keep a finished run alive.
 */
export async function exitWhenWritten(code: number): Promise<never> {
  process.exitCode = code;
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
}

/** Resolves once every write queued on `stream` so far is out (or the stream is gone: a reader that quit). */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || !stream.writable) return resolve();
    // Writes complete in order: the callback of an empty write comes after every earlier one is flushed. An error
    // (the reader closed the pipe) also ends the wait: there is no one left to write to.
    stream.once("close", () => resolve());
    stream.write("", () => resolve());
  });
}
