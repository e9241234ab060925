// --otel: OpenTelemetry traces of every run, model call and tool call, sent over OTLP/HTTP. The exporter reads the
// standard OTEL_EXPORTER_OTLP_ENDPOINT / _HEADERS variables. Loaded only when asked, so a plain start pays nothing.
import type { AgentTelemetryOptions } from "@heddle/agents";

export interface HostTelemetry {
  telemetry: AgentTelemetryOptions;
  /** Sends what is still buffered and stops the exporter; call it before the process exits. */
  shutdown(): Promise<void>;
}

export async function startTelemetry(): Promise<HostTelemetry> {
  const [{ BasicTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }] = await Promise.all([
    import("@opentelemetry/sdk-trace-base"),
    import("@opentelemetry/exporter-trace-otlp-http"),
  ]);
  const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] });
  return {
    telemetry: { tracer: provider.getTracer("heddle-code") },
    shutdown: () => provider.shutdown(),
  };
}
