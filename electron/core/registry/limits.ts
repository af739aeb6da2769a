// The registry's size, count and time limits in one place, so tests and callers can name them.

export interface RegistryLimits {
  /** Tools one source (extension, builtin set, MCP server) may hold at once. */
  maxToolsPerSource: number;
  /** UTF-8 bytes; the description is shown in full on approval, so it must stay readable. */
  maxDescriptionBytes: number;
  maxDisplayNameChars: number;
  /** Serialized JSON bytes of one schema (parameters or output_schema), checked before compiling. */
  maxSchemaBytes: number;
  /** Nesting of JSON objects/arrays in a schema; ajv.compile overflows the stack on deep schemas. */
  maxSchemaDepth: number;
  maxArgsBytes: number;
  maxArgsDepth: number;
  maxResultBytes: number;
  maxResultDepth: number;
  /** Calls running at once in all, and per tool; more wait their turn (admission.ts). */
  maxInFlight: number;
  maxInFlightPerTool: number;
  /** The registry's own deadline fires this long after the executor's, so the executor's richer timeout wins. */
  timeoutGraceMs: number;
  maxCacheTtlMs: number;
  maxCacheEntries: number;
  /** Longest error message or hint passed through from an executor (characters). */
  maxErrorTextChars: number;
}

export const DEFAULT_REGISTRY_LIMITS: Readonly<RegistryLimits> = Object.freeze({
  maxToolsPerSource: 256,
  maxDescriptionBytes: 4096,
  maxDisplayNameChars: 128,
  maxSchemaBytes: 64 * 1024,
  maxSchemaDepth: 32,
  maxArgsBytes: 1024 * 1024,
  maxArgsDepth: 64,
  maxResultBytes: 1024 * 1024,
  maxResultDepth: 256,
  // Per tool what one worker takes at once (MAX_IN_FLIGHT_PER_WORKER): a burst queues here instead of being refused
  // there. In all, enough for a 100-member council with a few tools each to run in one go.
  maxInFlight: 1024,
  maxInFlightPerTool: 128,
  timeoutGraceMs: 500,
  maxCacheTtlMs: 24 * 60 * 60 * 1000,
  maxCacheEntries: 1000,
  maxErrorTextChars: 4096,
});
